import { ApiKeysService } from '@app/auth';
import { createTestApp, TestApp, TestUser } from '@app/testing';
import { buildOpenApiDocument } from '../apps/api/src/openapi';

const DATETIME = /^\d{4}-\d{2}-\d{2} \d{2}:\d{2}:\d{2}$/;

describe('API keys API', () => {
  let t: TestApp;
  let owner: TestUser;
  let stranger: TestUser;

  beforeAll(async () => {
    t = await createTestApp({ env: { API_RATE_LIMIT: '1000000' } });
    owner = await t.createUser();
    stranger = await t.createUser();
  });
  afterAll(() => t?.close());

  const create = (body: Record<string, unknown>, auth = owner.auth) =>
    t.http.post('/v1/api-keys').set('Authorization', auth).send(body);
  const bearer = (key: string) => `Bearer ${key}`;

  it('creates a key whose secret is shown once, lists it with prefix and last use, and it works', async () => {
    const res = await create({ name: 'Deploy', scope: 'full' });
    expect(res.status).toBe(201);
    expect(res.body).toEqual({
      data: {
        id: expect.any(Number),
        name: 'Deploy',
        prefix: res.body.data.api_key.slice(0, 10),
        scope: 'full',
        expiration_datetime: null,
        last_used_datetime: null,
        is_current: false,
        datetime: expect.stringMatching(DATETIME),
        api_key: expect.stringMatching(/^ld_[A-Za-z0-9_-]{43}$/),
      },
    });
    const key = res.body.data.api_key as string;
    expect((await t.http.get('/v1/user').set('Authorization', bearer(key))).status).toBe(200);

    const list = await t.http.get('/v1/api-keys').set('Authorization', bearer(key));
    expect(list.status).toBe(200);
    expect(list.body.meta).toMatchObject({ total: 2 });
    expect(list.body.data).toEqual(
      expect.arrayContaining([
        {
          id: owner.apiKeyId,
          name: 'default',
          prefix: owner.apiKey.slice(0, 10),
          scope: 'full',
          expiration_datetime: null,
          last_used_datetime: expect.stringMatching(DATETIME),
          is_current: false,
          datetime: expect.stringMatching(DATETIME),
        },
        {
          id: res.body.data.id,
          name: 'Deploy',
          prefix: key.slice(0, 10),
          scope: 'full',
          expiration_datetime: null,
          last_used_datetime: expect.stringMatching(DATETIME),
          is_current: true,
          datetime: expect.stringMatching(DATETIME),
        },
      ]),
    );
    expect(JSON.stringify(list.body)).not.toContain(key);
  });

  it('revokes a key: it then fails with 401, leaves the list, and a second revoke is a 404', async () => {
    const made = await create({ name: 'Short-lived', scope: 'read' });
    const id = made.body.data.id as number;
    const res = await t.http.delete(`/v1/api-keys/${id}`).set('Authorization', owner.auth);
    expect(res.status).toBe(200);
    expect(res.body).toEqual({ data: { id } });
    const after = await t.http.get('/v1/user').set('Authorization', bearer(made.body.data.api_key));
    expect(after.status).toBe(401);
    const list = await t.http
      .get('/v1/api-keys?results_per_page=100')
      .set('Authorization', owner.auth);
    expect(list.body.data.map((k: { id: number }) => k.id)).not.toContain(id);
    const again = await t.http.delete(`/v1/api-keys/${id}`).set('Authorization', owner.auth);
    expect(again.status).toBe(404);
    expect(again.body).toEqual({
      errors: [
        {
          status: 404,
          title: 'The API key you are looking for does not exist.',
          code: 'api_key_not_found',
        },
      ],
    });
  });

  it("answers 404 for another user's key and 401 without a key", async () => {
    const res = await t.http
      .delete(`/v1/api-keys/${owner.apiKeyId}`)
      .set('Authorization', stranger.auth);
    expect(res.status).toBe(404);
    expect((await t.http.get('/v1/api-keys')).status).toBe(401);
    expect((await t.http.post('/v1/api-keys').send({ name: 'x', scope: 'full' })).status).toBe(401);
    expect((await t.http.delete('/v1/api-keys/1')).status).toBe(401);
  });

  it('refuses bad input with 400 naming each field', async () => {
    const res = await create({ name: '', scope: 'admin', expiration_datetime: 'tomorrow' });
    expect(res.status).toBe(400);
    expect(res.body).toEqual({
      errors: [
        { status: 400, title: 'name is required.', field: 'name', code: 'validation_failed' },
        {
          status: 400,
          title: 'scope must be one of full, read.',
          field: 'scope',
          code: 'validation_failed',
        },
        {
          status: 400,
          title: 'expiration_datetime must be Y-m-d H:i:s.',
          field: 'expiration_datetime',
          code: 'validation_failed',
        },
      ],
    });
    const past = await create({
      name: 'Past',
      scope: 'full',
      expiration_datetime: '2001-01-01 00:00:00',
    });
    expect(past.status).toBe(400);
    expect(past.body.errors).toEqual([
      {
        status: 400,
        title: 'expiration_datetime must be in the future.',
        field: 'expiration_datetime',
        code: 'validation_failed',
      },
    ]);
    const unreal = await create({
      name: 'Feb',
      scope: 'full',
      expiration_datetime: '2099-02-30 00:00:00',
    });
    expect(unreal.status).toBe(400);
    expect(unreal.body.errors[0]).toEqual({
      status: 400,
      title: 'expiration_datetime is not a real date and time.',
      field: 'expiration_datetime',
      code: 'validation_failed',
    });
  });

  it('makes a key that does not outlive the key that made it', async () => {
    const parent = await create({
      name: 'Parent',
      scope: 'full',
      expiration_datetime: '2090-06-01 00:00:00',
    });
    expect(parent.status).toBe(201);
    const auth = bearer(parent.body.data.api_key);
    const inherits = await create({ name: 'Child', scope: 'read' }, auth);
    expect(inherits.status).toBe(201);
    expect(inherits.body.data).toMatchObject({
      scope: 'read',
      expiration_datetime: '2090-06-01 00:00:00',
    });
    const longer = await create(
      { name: 'Longer', scope: 'full', expiration_datetime: '2091-01-01 00:00:00' },
      auth,
    );
    expect(longer.status).toBe(400);
    expect(longer.body).toEqual({
      errors: [
        {
          status: 400,
          title:
            'expiration_datetime must not be later than the expiry of the key that makes it (2090-06-01 00:00:00).',
          field: 'expiration_datetime',
          code: 'validation_failed',
        },
      ],
    });
    const shorter = await create(
      { name: 'Shorter', scope: 'full', expiration_datetime: '2090-01-01 00:00:00' },
      auth,
    );
    expect(shorter.status).toBe(201);
  });

  it('lets a read key read but never write nor manage keys (403)', async () => {
    const made = await create({ name: 'Reader', scope: 'read' });
    const auth = bearer(made.body.data.api_key);
    expect((await t.http.get('/v1/links').set('Authorization', auth)).status).toBe(200);
    const write = await t.http
      .post('/v1/links')
      .set('Authorization', auth)
      .send({ location_url: 'https://example.com/' });
    expect(write.status).toBe(403);
    expect(write.body).toEqual({
      errors: [
        {
          status: 403,
          title: 'This API key has the read scope: it may only make GET requests.',
          code: 'forbidden',
        },
      ],
    });
    for (const req of [
      t.http.get('/v1/api-keys'),
      t.http.post('/v1/api-keys').send({ name: 'Escalate', scope: 'full' }),
      t.http.delete(`/v1/api-keys/${made.body.data.id}`),
    ]) {
      const res = await req.set('Authorization', auth);
      expect(res.status).toBe(403);
      expect(res.body).toEqual({
        errors: [
          {
            status: 403,
            title: 'Managing API keys needs a key with the full scope.',
            code: 'forbidden',
          },
        ],
      });
    }
  });

  it('never manages keys through a team (403 with X-Team-Id)', async () => {
    const team = await t.http
      .post('/v1/teams')
      .set('Authorization', owner.auth)
      .send({ name: 'K' });
    const res = await t.http
      .get('/v1/api-keys')
      .set('Authorization', owner.auth)
      .set('X-Team-Id', String(team.body.data.id));
    expect(res.status).toBe(403);
    expect(res.body.errors[0].title).toBe(
      'This operation cannot be done through a team: send it without the X-Team-Id header.',
    );
  });

  it('caps the keys of an account at 100 that are not revoked', async () => {
    const user = await t.createUser();
    const keys = t.app.get(ApiKeysService);
    for (let i = 0; i < 99; i += 1) {
      await keys.issue(user.email, { name: `k${i}` });
    }
    const res = await create({ name: 'One too many', scope: 'read' }, user.auth);
    expect(res.status).toBe(400);
    expect(res.body.errors).toEqual([
      {
        status: 400,
        title: 'You have 100 API keys, the most an account may have; revoke one first.',
        code: 'validation_failed',
      },
    ]);
  });
});

/**
 * The read scope over every operation of the OpenAPI document: a read key passes the guard on
 * every GET (whatever the answer then is) except the key routes, and gets the same 403 on every
 * other method. A new route is covered the day it is added.
 */
describe('Read-only API keys on every operation', () => {
  let t: TestApp;
  let reader: string;
  beforeAll(async () => {
    t = await createTestApp({ env: { API_RATE_LIMIT: '1000000' } });
    const user = await t.createUser();
    const res = await t.http
      .post('/v1/api-keys')
      .set('Authorization', user.auth)
      .send({ name: 'Reader', scope: 'read' });
    reader = `Bearer ${res.body.data.api_key}`;
  });
  afterAll(() => t?.close());

  const READ_ONLY = {
    status: 403,
    title: 'This API key has the read scope: it may only make GET requests.',
    code: 'forbidden',
  };
  const NO_KEYS = {
    status: 403,
    title: 'Managing API keys needs a key with the full scope.',
    code: 'forbidden',
  };

  it('covers every operation', async () => {
    const doc = buildOpenApiDocument(t.app);
    const operations = Object.entries(doc.paths).flatMap(([path, item]) =>
      (['get', 'post', 'delete'] as const)
        .filter((method) => item[method])
        .map((method) => ({ method, path, isPublic: !(item[method]!.responses ?? {})['401'] })),
    );
    expect(operations.length).toBeGreaterThan(50);
    const seen: Array<{ op: string; status: number; error?: unknown }> = [];
    for (const { method, path, isPublic } of operations) {
      const url = path.replace(/\{[^}]+\}/g, '1');
      const res = await t.http[method](url).set('Authorization', reader);
      const op = `${method.toUpperCase()} ${path}`;
      const error = res.status === 403 ? res.body.errors?.[0] : undefined;
      seen.push({ op, status: res.status, ...(error ? { error } : {}) });
      const expected = isPublic
        ? undefined
        : path.startsWith('/v1/api-keys')
          ? NO_KEYS
          : method === 'get'
            ? undefined
            : READ_ONLY;
      expect({ op, status: res.status === 403 ? 403 : 'not 403', error }).toEqual({
        op,
        status: expected ? 403 : 'not 403',
        error: expected,
      });
    }
  });

  it('lets a full key through the same guard', async () => {
    const user = await t.createUser();
    const res = await t.http
      .post('/v1/projects')
      .set('Authorization', user.auth)
      .send({ name: 'P' });
    expect(res.status).toBe(201);
  });
});
