import { createTestApp, TestApp, TestUser } from '@app/testing';

describe('Error responses', () => {
  let t: TestApp;
  let user: TestUser;
  beforeAll(async () => {
    t = await createTestApp();
    user = await t.createUser();
  });
  afterAll(() => t?.close());

  it('answers an unknown route with 404 in the error shape', async () => {
    const res = await t.http.get('/v1/nothing-here').set('Authorization', user.auth);
    expect(res.status).toBe(404);
    expect(res.body).toEqual({
      errors: [
        { status: 404, title: 'No route matches GET /v1/nothing-here.', code: 'route_not_found' },
      ],
    });
  });

  it('answers a malformed JSON body with 400', async () => {
    const res = await t.http
      .post('/v1/projects')
      .set('Authorization', user.auth)
      .set('Content-Type', 'application/json')
      .send('{"name": ');
    expect(res.status).toBe(400);
    expect(res.body).toEqual({
      errors: [
        { status: 400, title: 'The request body is not valid JSON.', code: 'malformed_body' },
      ],
    });
  });

  it('answers a body over 1 MB with 413', async () => {
    const res = await t.http
      .post('/v1/projects')
      .set('Authorization', user.auth)
      .send({ name: 'x', padding: 'y'.repeat(1024 * 1024 + 10) });
    expect(res.status).toBe(413);
    expect(res.body).toEqual({
      errors: [
        {
          status: 413,
          title: 'The request body is larger than allowed.',
          code: 'payload_too_large',
        },
      ],
    });
  });

  it('answers a JSON body that is not an object with 400', async () => {
    const res = await t.http.post('/v1/projects').set('Authorization', user.auth).send([1, 2]);
    expect(res.status).toBe(400);
    expect(res.body.errors[0]).toMatchObject({ status: 400, code: 'validation_failed' });
  });

  it('reads multipart fields, including name[] arrays, and drops file parts it does not expect', async () => {
    const res = await t.http
      .post('/v1/projects')
      .set('Authorization', user.auth)
      .field('name', 'With a file')
      .field('tags[]', 'a')
      .field('tags[]', 'b')
      .attach('file', Buffer.from('<html></html>'), 'index.html');
    expect(res.status).toBe(201);
    const got = await t.http
      .get(`/v1/projects/${res.body.data.id}`)
      .set('Authorization', user.auth);
    expect(got.body.data.name).toBe('With a file');
  });

  it('refuses a NUL character in any field of a JSON, form or multipart body or of the query, naming each', async () => {
    const listed = async () =>
      (
        (await t.http.get('/v1/projects/').set('Authorization', user.auth)).body as {
          data: unknown[];
        }
      ).data;
    const before = await listed();
    const nul = (field: string) => ({
      status: 400,
      title: `${field} must not contain a NUL character.`,
      field,
      code: 'validation_failed',
    });
    const json = await t.http
      .post('/v1/projects')
      .set('Authorization', user.auth)
      .send({ name: 'a\u0000b', color: '#000000', extra: { deep: ['ok', 'x\u0000'] } });
    expect([json.status, json.body]).toEqual([
      400,
      { errors: [nul('name'), nul('extra[deep][1]')] },
    ]);
    const form = await t.http
      .post('/v1/projects')
      .set('Authorization', user.auth)
      .type('form')
      .send('name=a%00b');
    expect([form.status, form.body]).toEqual([400, { errors: [nul('name')] }]);
    const multipart = await t.http
      .post('/v1/projects')
      .set('Authorization', user.auth)
      .field('name', 'a\u0000b');
    expect([multipart.status, multipart.body]).toEqual([400, { errors: [nul('name')] }]);
    const query = await t.http
      .get('/v1/statistics/?type=utm_medium&utm_source=%00&search=ok')
      .set('Authorization', user.auth);
    expect([query.status, query.body]).toEqual([400, { errors: [nul('utm_source')] }]);
    const list = await t.http.get('/v1/projects/?search=a%00').set('Authorization', user.auth);
    expect([list.status, list.body]).toEqual([400, { errors: [nul('search')] }]);
    // Nothing was written.
    expect(await listed()).toEqual(before);
  });

  it('parses 0/1/true/false booleans and name[key] groups in urlencoded bodies without failing', async () => {
    const res = await t.http
      .post('/v1/projects')
      .set('Authorization', user.auth)
      .type('form')
      .send('name=Grouped&access%5Bread%5D=1&flags%5B%5D=true&flags%5B%5D=0');
    expect(res.status).toBe(201);
  });
});

describe('A server fault', () => {
  let t: TestApp;
  beforeAll(async () => {
    t = await createTestApp();
  });
  afterAll(() => t?.close());

  it('answers 500 with the request id and no internals', async () => {
    const user = await t.createUser();
    await t.dataSource.destroy(); // every query now fails inside the driver
    const res = await t.http.get('/v1/projects').set('Authorization', user.auth);
    expect(res.status).toBe(500);
    const id = res.headers['x-request-id'];
    expect(res.body).toEqual({
      errors: [
        {
          status: 500,
          title: `Something went wrong on our side. Quote request id ${id} when reporting it.`,
          code: 'internal_error',
        },
      ],
    });
    expect(JSON.stringify(res.body)).not.toMatch(/select|sql|connection|stack|at /i);
  });
});
