import { ApiKeysService, AuthCache } from '@app/auth';
import { ApiKeyEntity, LIMITED_RESOURCES, PLAN_LIMITS } from '@app/database';
import { createTestApp, TestApp, TestUser } from '@app/testing';

describe('Authentication and GET /v1/user', () => {
  let t: TestApp;
  let user: TestUser;

  beforeAll(async () => {
    t = await createTestApp();
    user = await t.createUser('Ada@Example.com');
  });
  afterAll(() => t?.close());

  const unauthorized = (title: string) => ({
    errors: [{ status: 401, title, code: 'unauthorized' }],
  });
  const INVALID = 'The API key is not valid: it is unknown, revoked or expired.';

  it("returns the caller's own account and never a secret", async () => {
    const res = await t.http.get('/v1/user').set('Authorization', user.auth);
    expect(res.status).toBe(200);
    expect(res.body).toEqual({
      data: {
        id: user.id,
        email: 'ada@example.com',
        name: 'ada',
        is_admin: false,
        timezone: 'UTC',
        // No plan on this install: everything unlimited (test/plan-limits covers plans).
        plan_id: null,
        plan_expiration_date: null,
        plan_settings: Object.fromEntries(PLAN_LIMITS.map((name) => [name, -1])),
        usage: Object.fromEntries(
          Object.keys(LIMITED_RESOURCES).map((name) => [name, { used: 0, limit: -1 }]),
        ),
        last_datetime: null,
        datetime: expect.stringMatching(/^\d{4}-\d{2}-\d{2} \d{2}:\d{2}:\d{2}$/),
      },
    });
    expect(JSON.stringify(res.body)).not.toContain(user.apiKey.slice(3));
    expect(res.headers['cache-control']).toBe('no-store');
    expect(res.headers['x-content-type-options']).toBe('nosniff');
    // A no-store answer is never revalidated: it carries no ETag.
    expect(res.headers.etag).toBeUndefined();
  });

  it('refuses a request without the Authorization header', async () => {
    const res = await t.http.get('/v1/user');
    expect(res.status).toBe(401);
    expect(res.body).toEqual(
      unauthorized('The request is missing the Bearer Authentication header.'),
    );
  });

  it.each([
    ['an unknown key', 'Bearer ld_AAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAA'],
    ['a malformed header', 'Bearer'],
    ['another scheme', 'Basic dXNlcjpwYXNz'],
  ])('refuses %s', async (_case, header) => {
    const res = await t.http.get('/v1/user').set('Authorization', header);
    expect(res.status).toBe(401);
    expect(res.body).toEqual(unauthorized(INVALID));
  });

  it('does not accept a key in the query string or the body', async () => {
    const query = await t.http.get(`/v1/user?access_token=${user.apiKey}`);
    expect(query.status).toBe(401);
    const body = await t.http.post('/v1/projects').send({ access_token: user.apiKey, name: 'x' });
    expect(body.status).toBe(401);
  });

  it('ignores an unrelated access_token field next to a valid header', async () => {
    const res = await t.http
      .post('/v1/projects?access_token=x')
      .set('Authorization', user.auth)
      .send({ name: 'Tokens', access_token: 'y' });
    expect(res.status).toBe(201);
  });

  it('refuses a revoked key and keeps the other keys of the user working', async () => {
    const keys = t.app.get(ApiKeysService);
    const second = await keys.issue(user.email, { name: 'ci' });
    await keys.revoke({ key: second.apiKey });
    const revoked = await t.http.get('/v1/user').set('Authorization', `Bearer ${second.apiKey}`);
    expect(revoked.status).toBe(401);
    expect(revoked.body).toEqual(unauthorized(INVALID));
    const first = await t.http.get('/v1/user').set('Authorization', user.auth);
    expect(first.status).toBe(200);
  });

  it('refuses an expired key', async () => {
    const issued = await t.app
      .get(ApiKeysService)
      .issue(user.email, { expiresAt: new Date(Date.now() + 60_000) });
    const ok = await t.http.get('/v1/user').set('Authorization', `Bearer ${issued.apiKey}`);
    expect(ok.status).toBe(200);
    await t.dataSource
      .getRepository(ApiKeyEntity)
      .update({ id: issued.apiKeyId }, { expiration_datetime: new Date(Date.now() - 1000) });
    // The key was just used, so the app holds it in its AuthCache; a write to the table behind
    // the app's back must drop it, as every writer of keys does (a cached key's own expiry is
    // checked on every use: api-keys.service.spec.ts).
    t.app.get(AuthCache).dropKey(issued.apiKeyId);
    const expired = await t.http.get('/v1/user').set('Authorization', `Bearer ${issued.apiKey}`);
    expect(expired.status).toBe(401);
    expect(expired.body).toEqual(unauthorized(INVALID));
  });

  it('stores only the hash of a key and records when it was last used', async () => {
    const fresh = await t.createUser();
    const before = await t.dataSource
      .getRepository(ApiKeyEntity)
      .findOneByOrFail({ id: fresh.apiKeyId });
    expect(before.last_used_datetime).toBeNull();
    expect(before.key_hash).toMatch(/^[0-9a-f]{64}$/);
    const stored = await t.dataSource.query(`SELECT * FROM api_keys WHERE id = ${fresh.apiKeyId}`);
    expect(JSON.stringify(stored)).not.toContain(fresh.apiKey);

    await t.http.get('/v1/user').set('Authorization', fresh.auth).expect(200);
    const after = await t.dataSource
      .getRepository(ApiKeyEntity)
      .findOneByOrFail({ id: fresh.apiKeyId });
    expect(after.last_used_datetime).toBeInstanceOf(Date);
    expect(Math.abs(after.last_used_datetime!.getTime() - Date.now())).toBeLessThan(60_000);
  });

  it('gives every response an X-Request-Id and echoes a safe incoming one', async () => {
    const generated = await t.http.get('/v1/user').set('Authorization', user.auth);
    expect(generated.headers['x-request-id']).toMatch(/^[0-9a-f-]{36}$/);
    const echoed = await t.http.get('/v1/user').set('X-Request-Id', 'trace-abc-123456');
    expect(echoed.status).toBe(401);
    expect(echoed.headers['x-request-id']).toBe('trace-abc-123456');
    const unsafe = await t.http.get('/health').set('X-Request-Id', '<script>alert(1)</script>');
    expect(unsafe.headers['x-request-id']).toMatch(/^[0-9a-f-]{36}$/);
    const missing = await t.http.get('/nowhere/else');
    expect(missing.headers['x-request-id']).toMatch(/^[0-9a-f-]{36}$/);
  });
});
