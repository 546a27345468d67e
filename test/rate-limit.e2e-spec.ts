import { closeAfterAll, createTestApp, createTestDatabase, TestApp } from '@app/testing';
import type { Response } from 'supertest';

const REDIS_URL = process.env.TEST_REDIS_URL ?? 'redis://127.0.0.1:6379';

function expectRateHeaders(res: Response, limit: number, remaining: number): void {
  expect(res.headers['x-ratelimit-limit']).toBe(String(limit));
  expect(res.headers['x-ratelimit-remaining']).toBe(String(remaining));
  expect(Number(res.headers['x-ratelimit-reset'])).toBeGreaterThan(0);
  expect(Number(res.headers['x-ratelimit-reset'])).toBeLessThanOrEqual(60);
}

function expectLimited(res: Response): void {
  expect(res.status).toBe(429);
  const retry = Number(res.headers['retry-after']);
  expect(retry).toBeGreaterThan(0);
  expect(retry).toBeLessThanOrEqual(60);
  expect(res.body).toEqual({
    errors: [
      {
        status: 429,
        title: `You reached the limit of API requests per minute. Retry in ${retry} seconds.`,
        code: 'rate_limited',
      },
    ],
  });
}

describe('Rate limit per API key, in memory', () => {
  let t: TestApp;
  beforeAll(async () => {
    t = await createTestApp({ env: { API_RATE_LIMIT: '3' } });
  });
  afterAll(() => t?.close());

  it('counts every route against one budget per key and answers 429 with Retry-After', async () => {
    const user = await t.createUser();
    const a = await t.http.get('/v1/user').set('Authorization', user.auth);
    expectRateHeaders(a, 3, 2);
    const b = await t.http.get('/v1/projects').set('Authorization', user.auth);
    expectRateHeaders(b, 3, 1);
    const c = await t.http.post('/v1/projects').set('Authorization', user.auth).send({ name: 'x' });
    expect(c.status).toBe(201);
    expectRateHeaders(c, 3, 0);
    expectLimited(await t.http.get('/v1/user').set('Authorization', user.auth));
  });

  it('keeps separate budgets for separate keys', async () => {
    const first = await t.createUser();
    const second = await t.createUser();
    for (let i = 0; i < 3; i += 1) {
      await t.http.get('/v1/user').set('Authorization', first.auth).expect(200);
    }
    expectLimited(await t.http.get('/v1/user').set('Authorization', first.auth));
    const other = await t.http.get('/v1/user').set('Authorization', second.auth);
    expect(other.status).toBe(200);
    expectRateHeaders(other, 3, 2);
  });

  it('limits requests without a key by client address, and 401s carry the headers', async () => {
    const first = await t.http.get('/v1/user');
    expect(first.status).toBe(401);
    expect(first.headers['x-ratelimit-limit']).toBe('3');
    await t.http.get('/v1/user').expect(401);
    await t.http.get('/v1/user').expect(401);
    expectLimited(await t.http.get('/v1/user'));
  });

  it('does not limit /health', async () => {
    for (let i = 0; i < 5; i += 1) {
      const res = await t.http.get('/health');
      expect(res.status).toBe(200);
      expect(res.headers['x-ratelimit-limit']).toBeUndefined();
    }
  });
});

describe('Rate limit shared through Redis', () => {
  let a: TestApp;
  let b: TestApp;
  const opened = closeAfterAll();

  beforeAll(async () => {
    const database = opened.add(await createTestDatabase(), (db) => db.drop());
    const env = { API_RATE_LIMIT: '3', REDIS_URL };
    a = opened.add(await createTestApp({ env, database }));
    b = opened.add(await createTestApp({ env, database }));
    // Wait until both clients are connected, so the counts go to Redis rather than the fallback.
    await a.http.get('/health').expect(200);
    await b.http.get('/health').expect(200);
  });

  it('lets two instances share one budget per key', async () => {
    const user = await a.createUser();
    await a.http.get('/v1/user').set('Authorization', user.auth).expect(200);
    await b.http.get('/v1/user').set('Authorization', user.auth).expect(200);
    const third = await a.http.get('/v1/user').set('Authorization', user.auth);
    expect(third.status).toBe(200);
    expectRateHeaders(third, 3, 0);
    expectLimited(await b.http.get('/v1/user').set('Authorization', user.auth));
  });
});

describe('Rate limit when Redis is unreachable', () => {
  let t: TestApp;
  beforeAll(async () => {
    t = await createTestApp({ env: { API_RATE_LIMIT: '2', REDIS_URL: 'redis://127.0.0.1:1' } });
  });
  afterAll(() => t?.close());

  it('keeps serving and counts in-process instead of failing the request', async () => {
    const user = await t.createUser();
    await t.http.get('/v1/user').set('Authorization', user.auth).expect(200);
    await t.http.get('/v1/user').set('Authorization', user.auth).expect(200);
    expectLimited(await t.http.get('/v1/user').set('Authorization', user.auth));
  });
});
