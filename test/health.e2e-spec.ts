import { closeAfterAll, createTestApp, expectDocumented } from '@app/testing';

describe('GET /health', () => {
  const opened = closeAfterAll();
  const start = async (env: Record<string, string> = {}) =>
    opened.add(await createTestApp({ env }));

  it('answers 200 without a key when the database is up', async () => {
    const t = await start();
    const res = expectDocumented(await t.http.get('/health'));
    expect(res.status).toBe(200);
    expect(res.body).toEqual({
      status: 'ok',
      info: { database: { status: 'up' } },
      error: {},
      details: { database: { status: 'up' } },
    });
  });

  it('checks Redis too when REDIS_URL is set', async () => {
    const t = await start({ REDIS_URL: process.env.TEST_REDIS_URL ?? 'redis://127.0.0.1:6379' });
    const res = expectDocumented(await t.http.get('/health'));
    expect(res.status).toBe(200);
    expect(res.body.details).toEqual({ database: { status: 'up' }, redis: { status: 'up' } });
  });

  it('answers 503 naming Redis when Redis is down', async () => {
    const t = await start({ REDIS_URL: 'redis://127.0.0.1:1' });
    const res = expectDocumented(await t.http.get('/health'));
    expect(res.status).toBe(503);
    expect(res.body).toEqual({
      status: 'error',
      info: { database: { status: 'up' } },
      error: { redis: { status: 'down', message: expect.any(String) } },
      details: {
        database: { status: 'up' },
        redis: { status: 'down', message: expect.any(String) },
      },
    });
  });
});
