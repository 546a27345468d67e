import { randomBytes } from 'node:crypto';
import type { Response } from 'supertest';
import { ApiKeysService } from '@app/auth';
import { ApiKeyEntity } from '@app/database';
import { closeAfterAll, createTestApp, createTestDatabase, TestApp } from '@app/testing';

const REDIS_URL = process.env.TEST_REDIS_URL ?? 'redis://127.0.0.1:6379';

function expectRateHeaders(res: Response, limit: number, remaining: number): void {
  expect(res.headers['x-ratelimit-limit']).toBe(String(limit));
  expect(res.headers['x-ratelimit-remaining']).toBe(String(remaining));
  expect(Number(res.headers['x-ratelimit-reset'])).toBeGreaterThan(0);
  expect(Number(res.headers['x-ratelimit-reset'])).toBeLessThanOrEqual(60);
}

/** A 429 in the contract's shape, with Retry-After and the three rate-limit headers. */
function expectLimited(res: Response, limit?: number): void {
  expect(res.status).toBe(429);
  const retry = Number(res.headers['retry-after']);
  expect(retry).toBeGreaterThan(0);
  expect(retry).toBeLessThanOrEqual(60);
  expect(res.headers['content-type']).toMatch(/^application\/json/);
  if (limit !== undefined) {
    expectRateHeaders(res, limit, 0);
  }
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
    expectLimited(await t.http.get('/v1/user').set('Authorization', user.auth), 3);
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
    expectLimited(await t.http.get('/v1/user'), 3);
  });

  it('does not limit /health', async () => {
    for (let i = 0; i < 5; i += 1) {
      const res = await t.http.get('/health');
      expect(res.status).toBe(200);
      expect(res.headers['x-ratelimit-limit']).toBeUndefined();
    }
  });
});

function randomKey(): string {
  return `Bearer ld_${randomBytes(32).toString('base64url')}`;
}

const UNAUTHORIZED_BODY = {
  errors: [
    {
      status: 401,
      title: 'The API key is not valid: it is unknown, revoked or expired.',
      code: 'unauthorized',
    },
  ],
};

describe('Rate limit of requests without a valid key, per client address', () => {
  let t: TestApp;
  beforeAll(async () => {
    // The test client connects from loopback, which is trusted to name the client address.
    t = await createTestApp({
      env: { API_RATE_LIMIT: '3', TRUSTED_PROXIES: '127.0.0.1,::1' },
    });
  });
  afterAll(() => t?.close());

  function from(address: string, auth?: string) {
    const req = t.http.get('/v1/user').set('X-Forwarded-For', address);
    return auth === undefined ? req : req.set('Authorization', auth);
  }

  it('counts random keys against the address budget and answers 429 once it is spent', async () => {
    const answers: Response[] = [];
    for (let i = 0; i < 20; i += 1) {
      answers.push(await from('203.0.113.1', randomKey()));
    }
    for (const [i, res] of answers.slice(0, 3).entries()) {
      expect(res.status).toBe(401);
      expect(res.body).toEqual(UNAUTHORIZED_BODY);
      expectRateHeaders(res, 3, 2 - i);
    }
    for (const res of answers.slice(3)) {
      expectLimited(res, 3);
    }
  });

  it('names the Bearer scheme on every 401', async () => {
    const res = await from('203.0.113.7', randomKey());
    expect(res.status).toBe(401);
    expect(res.headers['www-authenticate']).toBe('Bearer realm="Linkdock"');
  });

  it('counts requests that fail before authentication (unknown routes, bodies that do not parse) by address', async () => {
    const user = await t.createUser();
    const address = '203.0.113.8';
    const unknown = await t.http
      .get('/v1/no-such-route')
      .set('Authorization', user.auth)
      .set('X-Forwarded-For', address);
    expect(unknown.status).toBe(404);
    expect(unknown.body).toEqual({
      errors: [
        {
          status: 404,
          title: 'No route matches GET /v1/no-such-route.',
          code: 'route_not_found',
        },
      ],
    });
    expectRateHeaders(unknown, 3, 2);
    const malformed = await t.http
      .post('/api/projects')
      .set('Authorization', user.auth)
      .set('X-Forwarded-For', address)
      .set('Content-Type', 'application/json')
      .send('{"name":');
    expect(malformed.status).toBe(400);
    expect(malformed.body).toEqual({
      errors: [
        { status: 400, title: 'The request body is not valid JSON.', code: 'malformed_body' },
      ],
    });
    expectRateHeaders(malformed, 3, 1);
    await t.http.get('/v1/nope').set('X-Forwarded-For', address).expect(404);
    expectLimited(await t.http.get('/v1/nope').set('X-Forwarded-For', address), 3);
    // Outside the API nothing is counted.
    const outside = await t.http.get('/no/such/page').set('X-Forwarded-For', address);
    expect(outside.headers['x-ratelimit-limit']).toBeUndefined();
  });

  it('counts missing and random keys from one address against the same budget', async () => {
    await from('203.0.113.2').expect(401);
    await from('203.0.113.2', randomKey()).expect(401);
    await from('203.0.113.2').expect(401);
    expectLimited(await from('203.0.113.2', randomKey()), 3);
  });

  it('serves a valid key after a flood of bad keys, from another address or the same', async () => {
    const user = await t.createUser();
    for (let i = 0; i < 5; i += 1) {
      await from('203.0.113.3', randomKey());
    }
    expectLimited(await from('203.0.113.3', randomKey()), 3);

    const elsewhere = await from('203.0.113.4', user.auth);
    expect(elsewhere.status).toBe(200);
    expectRateHeaders(elsewhere, 3, 2);
    // A valid key has its own budget, which the address's bad requests do not spend.
    const same = await from('203.0.113.3', user.auth);
    expect(same.status).toBe(200);
    expectRateHeaders(same, 3, 1);
  });

  it('counts revoked and expired keys per address, not per key', async () => {
    const revoked = await t.createUser();
    await t.app.get(ApiKeysService).revoke({ key: revoked.apiKey });
    const expired = await t.createUser();
    await t.dataSource
      .getRepository(ApiKeyEntity)
      .update({ id: expired.apiKeyId }, { expiration_datetime: new Date(Date.now() - 1000) });

    const first = await from('203.0.113.5', revoked.auth);
    expect(first.status).toBe(401);
    expect(first.body).toEqual(UNAUTHORIZED_BODY);
    expectRateHeaders(first, 3, 2);
    expectRateHeaders(await from('203.0.113.5', expired.auth).expect(401), 3, 1);
    expectRateHeaders(await from('203.0.113.5', revoked.auth).expect(401), 3, 0);
    expectLimited(await from('203.0.113.5', expired.auth), 3);
    // Another address still has its whole budget for the same keys.
    expectRateHeaders(await from('203.0.113.6', revoked.auth).expect(401), 3, 2);
  });
});

describe('Rate limit shared through Redis', () => {
  let a: TestApp;
  let b: TestApp;
  const opened = closeAfterAll();

  beforeAll(async () => {
    const database = opened.add(await createTestDatabase(), (db) => db.drop());
    const env = { API_RATE_LIMIT: '3', REDIS_URL, TRUSTED_PROXIES: '127.0.0.1,::1' };
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
    expectLimited(await b.http.get('/v1/user').set('Authorization', user.auth), 3);
  });

  it('lets two instances share one budget per address for bad keys', async () => {
    // Redis outlives the test run: an address of its own keeps runs from sharing a budget.
    const address = `198.18.${randomBytes(1)[0]}.${randomBytes(1)[0]}`;
    const bad = (app: TestApp) =>
      app.http.get('/v1/user').set('X-Forwarded-For', address).set('Authorization', randomKey());
    await bad(a).expect(401);
    await bad(b).expect(401);
    await bad(a).expect(401);
    expectLimited(await bad(b), 3);
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
