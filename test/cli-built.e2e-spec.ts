import { spawn } from 'node:child_process';
import { once } from 'node:events';
import { join } from 'node:path';
import { BUILT, createTestApp, requireBuilt, TestApp, TestUser } from '@app/testing';
import { runBuiltCli } from './support/built-cli';
import { runCommand } from './support/cli';

/**
 * The built command line, as `npm run cli` runs it, with the environment only. On SQLite only
 * (jest.config.js): what is checked is the process, its configuration and its output, the same on
 * both databases.
 */
describe('Command line, built', () => {
  let t: TestApp;
  let user: TestUser;
  beforeAll(async () => {
    requireBuilt(BUILT.cli);
    t = await createTestApp();
    user = await t.createUser();
    const links = Array.from({ length: 2000 }, (_, i) => ({
      location_url: `https://example.com/a-rather-long-path/to/page-${i}?utm_source=newsletter`,
      url: `cli-${i}`,
    }));
    for (const half of [links.slice(0, 1000), links.slice(1000)]) {
      const res = await t.http.post('/v1/links/bulk').set('Authorization', user.auth).send(half);
      expect(res.status).toBe(201);
    }
  }, 60_000);
  afterAll(() => t?.close());

  const env = (extra: Record<string, string> = {}) => ({ DATA_DIR: t.config.dataDir, ...extra });
  const firstFullUrl = (stdout: string) =>
    (JSON.parse(stdout) as { data: { full_url: string }[] }).data.find((l) =>
      l.full_url.endsWith('/cli-0'),
    )?.full_url;

  it("export links takes its links' base URL from APP_URL, else PORT, as the server does", async () => {
    const args = ['export', 'links', '--email', user.email, '--format', 'json'];
    const appUrl = await runBuiltCli(env({ APP_URL: 'https://links.example.com' }), ...args);
    expect([appUrl.code, appUrl.stderr]).toEqual([0, '']);
    expect(firstFullUrl(appUrl.stdout)).toBe('https://links.example.com/cli-0');
    const port = await runBuiltCli(env({ PORT: '8080' }), ...args);
    expect([port.code, port.stderr]).toEqual([0, '']);
    expect(firstFullUrl(port.stdout)).toBe('http://localhost:8080/cli-0');
  }, 60_000);

  it('ends quietly with exit code 0 when the reader of stdout goes away (| head)', async () => {
    const child = spawn(
      process.execPath,
      [BUILT.cli, 'export', 'links', '--email', user.email, '--format', 'csv'],
      { env: { PATH: process.env.PATH ?? '', ...env() }, stdio: ['ignore', 'pipe', 'pipe'] },
    );
    let stderr = '';
    child.stderr.on('data', (chunk: Buffer) => (stderr += chunk.toString()));
    let first = '';
    child.stdout.once('data', (chunk: Buffer) => {
      first = chunk.toString();
      child.stdout.destroy();
    });
    const [code] = (await once(child, 'close')) as [number | null];
    expect(first).toMatch(/^location_url,url,/);
    expect(code).toBe(0);
    expect(stderr).toBe('');
  }, 60_000);

  it('a database it cannot reach is one JSON error line, no stack, exit code 1', async () => {
    const res = await runBuiltCli(
      env({
        DATABASE_URL: 'postgres://postgres@127.0.0.1:1/linkdock',
        SECRETS_KEY: Buffer.alloc(32, 1).toString('base64'),
      }),
      'user:list',
    );
    expect(res).toEqual({
      code: 1,
      stdout: '',
      stderr: `${JSON.stringify({
        errors: [
          {
            status: 500,
            title: 'The command failed: connect ECONNREFUSED 127.0.0.1:1',
            code: 'internal_error',
          },
        ],
      })}\n`,
    });
  }, 60_000);

  it('with LOG_LEVEL=debug it also prints the stack, the JSON line still last', async () => {
    const res = await runBuiltCli(
      env({ DATA_DIR: join(t.config.dataDir, 'linkdock.sqlite'), LOG_LEVEL: 'debug' }),
      'user:list',
    );
    // stdout has the framework's log lines then: debug output is not for scripts.
    expect(res.code).toBe(1);
    const lines = res.stderr.trimEnd().split('\n');
    expect(res.stderr).toContain('    at ');
    expect(JSON.parse(lines[lines.length - 1])).toEqual({
      errors: [
        {
          status: 500,
          title: expect.stringMatching(/^The command failed: /),
          code: 'internal_error',
        },
      ],
    });
  }, 60_000);

  it('a bad variable is the same JSON error line, naming it', async () => {
    const res = await runBuiltCli(env({ PORT: 'eighty' }), 'user:list');
    expect(res).toEqual({
      code: 1,
      stdout: '',
      stderr: `${JSON.stringify({
        errors: [
          {
            status: 400,
            title: 'PORT must be a whole number from 1 to 65535 (got "eighty")',
            code: 'validation_failed',
          },
        ],
      })}\n`,
    });
  });
});

describe('Command line with Redis', () => {
  const REDIS_URL = process.env.TEST_REDIS_URL ?? 'redis://127.0.0.1:6379';
  let t: TestApp;
  beforeAll(async () => {
    t = await createTestApp({ env: { REDIS_URL } });
  });
  afterAll(() => t?.close());

  it('key:revoke reaches a running server whose cache holds the key at once, not after 30 s', async () => {
    const user = await t.createUser();
    const me = () => t.http.get('/v1/user').set('Authorization', user.auth);
    // The server authenticates the key once and from then on answers it from its AuthCache.
    expect((await me()).status).toBe(200);
    expect((await me()).status).toBe(200);

    const revoked = await runCommand(t.config, 'key:revoke', '--key', user.apiKey);
    expect([revoked.code, revoked.err]).toEqual([0, []]);
    // The drop travels by Redis pub/sub: within 1 s, far less than the cache's 30 s.
    const revokedAt = Date.now();
    let res = await me();
    while (res.status === 200 && Date.now() - revokedAt < 1000) {
      await new Promise((resolve) => setTimeout(resolve, 20));
      res = await me();
    }
    expect(res.status).toBe(401);
    expect(res.body.errors[0].code).toBe('unauthorized');
  });

  it('says so on stderr, and still does the work, when Redis cannot be reached', async () => {
    const user = await t.createUser();
    const config = { ...t.config, redisUrl: 'redis://127.0.0.1:1' };
    const revoked = await runCommand(config, 'key:revoke', '--key', user.apiKey);
    expect(revoked.code).toBe(0);
    expect(revoked.err).toEqual([
      'Redis (REDIS_URL) is unreachable: running servers learn of key, user and team changes made here only when their authentication cache expires (30 s).',
    ]);
    expect((await t.http.get('/v1/user').set('Authorization', user.auth)).status).toBe(401);
  });
});
