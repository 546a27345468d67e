import { createTestApp, TestApp, TestUser } from '@app/testing';

const DATETIME = /^\d{4}-\d{2}-\d{2} \d{2}:\d{2}:\d{2}$/;

describe('Projects', () => {
  let t: TestApp;
  let owner: TestUser;
  let stranger: TestUser;

  beforeAll(async () => {
    t = await createTestApp();
    owner = await t.createUser();
    stranger = await t.createUser();
  });
  afterAll(() => t?.close());

  async function createProject(fields: Record<string, string>, user = owner): Promise<number> {
    const res = await t.http.post('/v1/projects').set('Authorization', user.auth).field(fields);
    expect(res.status).toBe(201);
    return (res.body as { data: { id: number } }).data.id;
  }

  it('creates from multipart, reads back the whole object, and defaults the colour', async () => {
    const res = await t.http
      .post('/v1/projects')
      .set('Authorization', owner.auth)
      .field('name', 'Launch');
    expect(res.status).toBe(201);
    expect(res.body).toEqual({ data: { id: expect.any(Number) } });

    const got = await t.http
      .get(`/v1/projects/${res.body.data.id}`)
      .set('Authorization', owner.auth);
    expect(got.status).toBe(200);
    expect(got.body).toEqual({
      data: {
        id: res.body.data.id,
        name: 'Launch',
        color: '#000000',
        last_datetime: null,
        datetime: expect.stringMatching(DATETIME),
      },
    });
  });

  it('accepts urlencoded and JSON bodies, ignores unknown fields and lowercases the colour', async () => {
    const form = await t.http
      .post('/v1/projects')
      .set('Authorization', owner.auth)
      .type('form')
      .send('name=Form&color=%23AABBCC&user_id=999&unknown=1');
    expect(form.status).toBe(201);
    const json = await t.http
      .post('/v1/projects')
      .set('Authorization', owner.auth)
      .send({ name: 'Json', color: '#0e23cc', id: 5 });
    expect(json.status).toBe(201);

    const a = await t.http
      .get(`/v1/projects/${form.body.data.id}`)
      .set('Authorization', owner.auth);
    expect(a.body.data).toMatchObject({ name: 'Form', color: '#aabbcc' });
    const b = await t.http
      .get(`/v1/projects/${json.body.data.id}`)
      .set('Authorization', owner.auth);
    expect(b.body.data).toMatchObject({ id: json.body.data.id, name: 'Json', color: '#0e23cc' });
  });

  it('updates partially: absent fields keep their value and last_datetime is set', async () => {
    const id = await createProject({ name: 'Before', color: '#112233' });
    const res = await t.http
      .post(`/v1/projects/${id}`)
      .set('Authorization', owner.auth)
      .field('name', 'After');
    expect(res.status).toBe(200);
    expect(res.body).toEqual({ data: { id } });

    const got = await t.http.get(`/v1/projects/${id}`).set('Authorization', owner.auth);
    expect(got.body.data).toEqual({
      id,
      name: 'After',
      color: '#112233',
      last_datetime: expect.stringMatching(DATETIME),
      datetime: expect.stringMatching(DATETIME),
    });
  });

  it('deletes, then answers 404 for the deleted project', async () => {
    const id = await createProject({ name: 'Doomed' });
    const res = await t.http.delete(`/v1/projects/${id}`).set('Authorization', owner.auth);
    expect(res.status).toBe(200);
    expect(res.body).toEqual({ data: { id } });
    const again = await t.http.get(`/v1/projects/${id}`).set('Authorization', owner.auth);
    expect(again.status).toBe(404);
    const twice = await t.http.delete(`/v1/projects/${id}`).set('Authorization', owner.auth);
    expect(twice.status).toBe(404);
  });

  it.each([
    ['a missing name', {}, 'name', 'name is required.'],
    ['a blank name', { name: '   ' }, 'name', 'name is required.'],
    ['a name that is not text', { name: 42 }, 'name', 'name must be a string.'],
    [
      'a name over 64 characters',
      { name: 'x'.repeat(65) },
      'name',
      'name must be shorter than or equal to 64 characters.',
    ],
    [
      'a colour that is not #rrggbb',
      { name: 'ok', color: 'red' },
      'color',
      'color must be a colour as #rrggbb.',
    ],
    [
      'a short colour',
      { name: 'ok', color: '#abc' },
      'color',
      'color must be a colour as #rrggbb.',
    ],
  ])('refuses %s with 400 naming the field', async (_case, fields, field, title) => {
    const res = await t.http.post('/v1/projects').set('Authorization', owner.auth).send(fields);
    expect(res.status).toBe(400);
    expect(res.body).toEqual({
      errors: [{ status: 400, title, field, code: 'validation_failed' }],
    });
  });

  it('reports every bad field of one request as its own entry', async () => {
    const res = await t.http
      .post('/v1/projects')
      .set('Authorization', owner.auth)
      .send({ name: 'x'.repeat(65), color: 'blue' });
    expect(res.status).toBe(400);
    expect(res.body.errors.map((e: { field: string }) => e.field).sort()).toEqual([
      'color',
      'name',
    ]);
  });

  it('refuses an invalid update without changing anything', async () => {
    const id = await createProject({ name: 'Stable', color: '#445566' });
    const res = await t.http
      .post(`/v1/projects/${id}`)
      .set('Authorization', owner.auth)
      .send({ name: 'New', color: 'nope' });
    expect(res.status).toBe(400);
    const got = await t.http.get(`/v1/projects/${id}`).set('Authorization', owner.auth);
    expect(got.body.data).toMatchObject({ name: 'Stable', color: '#445566', last_datetime: null });
  });

  describe("another user's project is a 404, like a missing one", () => {
    let id: number;
    beforeAll(async () => {
      id = await createProject({ name: 'Private' });
    });
    const notFound = {
      errors: [
        {
          status: 404,
          title: 'The project you are looking for does not exist.',
          code: 'project_not_found',
        },
      ],
    };

    it('on read', async () => {
      const res = await t.http.get(`/v1/projects/${id}`).set('Authorization', stranger.auth);
      expect(res.status).toBe(404);
      expect(res.body).toEqual(notFound);
    });

    it('on update, leaving it unchanged', async () => {
      const res = await t.http
        .post(`/v1/projects/${id}`)
        .set('Authorization', stranger.auth)
        .send({ name: 'Hijacked' });
      expect(res.status).toBe(404);
      expect(res.body).toEqual(notFound);
      const got = await t.http.get(`/v1/projects/${id}`).set('Authorization', owner.auth);
      expect(got.body.data.name).toBe('Private');
    });

    it('on delete, leaving it in place', async () => {
      const res = await t.http.delete(`/v1/projects/${id}`).set('Authorization', stranger.auth);
      expect(res.status).toBe(404);
      expect(res.body).toEqual(notFound);
      const got = await t.http.get(`/v1/projects/${id}`).set('Authorization', owner.auth);
      expect(got.status).toBe(200);
    });

    it('in lists', async () => {
      const res = await t.http.get('/v1/projects').set('Authorization', stranger.auth);
      expect(res.status).toBe(200);
      expect(res.body.data.map((p: { id: number }) => p.id)).not.toContain(id);
    });
  });

  it.each(['abc', '0', '-1', '1.5', '99999999999'])('answers 404 for the id %s', async (id) => {
    const res = await t.http.get(`/v1/projects/${id}`).set('Authorization', owner.auth);
    expect(res.status).toBe(404);
    expect(res.body.errors[0].code).toBe('project_not_found');
  });

  it.each([
    ['GET', '/v1/projects'],
    ['GET', '/v1/projects/1'],
    ['POST', '/v1/projects'],
    ['POST', '/v1/projects/1'],
    ['DELETE', '/v1/projects/1'],
  ])('answers %s %s without a key with 401', async (method, path) => {
    const res = await t.http[method.toLowerCase() as 'get' | 'post' | 'delete'](path);
    expect(res.status).toBe(401);
    expect(res.body).toEqual({
      errors: [
        {
          status: 401,
          title: 'The request is missing the Bearer Authentication header.',
          code: 'unauthorized',
        },
      ],
    });
  });
});
