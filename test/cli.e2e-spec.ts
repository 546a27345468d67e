import { spawn } from 'node:child_process';
import { once } from 'node:events';
import { writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { BUILT, createTestApp, currentTestDb, requireBuilt, TestApp, TestUser } from '@app/testing';
import { runBuiltCli } from './support/built-cli';
import { runCommand } from './support/cli';

describe('Command line', () => {
  let t: TestApp;
  beforeAll(async () => {
    t = await createTestApp();
  });
  afterAll(() => t?.close());

  const cli = (...argv: string[]) => runCommand(t.config, ...argv);

  const authed = (key: string) => t.http.get('/v1/user').set('Authorization', `Bearer ${key}`);

  it('user:create prints {id, email, api_key} as one JSON line, and the key works', async () => {
    const res = await cli(
      'user:create',
      '--email',
      'Grace@Example.com',
      '--name',
      'Grace',
      '--admin',
    );
    expect(res.code).toBe(0);
    expect(res.out).toHaveLength(1);
    expect(res.result).toEqual({
      id: expect.any(Number),
      email: 'grace@example.com',
      api_key: expect.stringMatching(/^ld_[A-Za-z0-9_-]{43}$/),
    });
    const me = await authed(res.result.api_key);
    expect(me.status).toBe(200);
    expect(me.body.data).toMatchObject({ id: res.result.id, name: 'Grace', is_admin: true });
  });

  it('user:create refuses a duplicate or malformed email with an error line and exit code 1', async () => {
    await cli('user:create', '--email', 'dup@example.com');
    const dup = await cli('user:create', '--email', 'DUP@example.com');
    expect(dup.code).toBe(1);
    expect(dup.out).toEqual([]);
    expect(JSON.parse(dup.error!)).toEqual({
      errors: [
        {
          status: 400,
          title: 'A user with the email dup@example.com already exists.',
          field: 'email',
          code: 'already_exists',
        },
      ],
    });
    const bad = await cli('user:create', '--email', 'not-an-email', '--timezone', 'Mars/Olympus');
    expect(bad.code).toBe(1);
    expect(JSON.parse(bad.error!).errors.map((e: { field: string }) => e.field)).toEqual([
      'email',
      'timezone',
    ]);
  });

  it('key:create issues another key for the same user; key:list shows keys without secrets', async () => {
    const user = await cli('user:create', '--email', 'keys@example.com');
    const second = await cli(
      'key:create',
      '--email',
      'keys@example.com',
      '--name',
      'ci',
      '--expires-in-days',
      '30',
    );
    expect(second.code).toBe(0);
    expect(second.result).toEqual({
      id: user.result.id,
      email: 'keys@example.com',
      api_key: expect.stringMatching(/^ld_/),
    });
    expect(second.result.api_key).not.toBe(user.result.api_key);
    expect((await authed(second.result.api_key)).status).toBe(200);

    const list = await cli('key:list', '--email', 'keys@example.com');
    expect(list.code).toBe(0);
    expect(list.result).toEqual([
      expect.objectContaining({
        name: 'default',
        prefix: user.result.api_key.slice(0, 10),
        expiration_datetime: null,
      }),
      expect.objectContaining({
        name: 'ci',
        prefix: second.result.api_key.slice(0, 10),
        expiration_datetime: expect.stringMatching(/^\d{4}-\d{2}-\d{2} \d{2}:\d{2}:\d{2}$/),
        revocation_datetime: null,
      }),
    ]);
    expect(JSON.stringify(list.result)).not.toContain(second.result.api_key);
    expect(JSON.stringify(list.result)).not.toMatch(/hash/);
  });

  it('key:revoke by value or by id makes the key fail with 401', async () => {
    const user = await cli('user:create', '--email', 'revoke@example.com');
    const byValue = await cli('key:revoke', '--key', user.result.api_key);
    expect(byValue.code).toBe(0);
    expect(byValue.result).toEqual({
      id: expect.any(Number),
      revocation_datetime: expect.stringMatching(/^\d{4}-\d{2}-\d{2} \d{2}:\d{2}:\d{2}$/),
    });
    expect((await authed(user.result.api_key)).status).toBe(401);

    const other = await cli('key:create', '--email', 'revoke@example.com');
    const keys = await cli('key:list', '--email', 'revoke@example.com');
    const id = String(keys.result[1].id);
    expect((await cli('key:revoke', '--email', 'revoke@example.com', '--id', id)).code).toBe(0);
    expect((await authed(other.result.api_key)).status).toBe(401);

    const foreign = await cli('key:revoke', '--email', 'keys@example.com', '--id', id);
    expect(foreign.code).toBe(1);
    expect(JSON.parse(foreign.error!).errors[0].code).toBe('api_key_not_found');
  });

  it('user:list prints every user as one JSON line', async () => {
    const res = await cli('user:list');
    expect(res.code).toBe(0);
    expect(res.result).toEqual(
      expect.arrayContaining([
        {
          id: expect.any(Number),
          email: 'grace@example.com',
          name: 'Grace',
          is_admin: true,
          timezone: 'UTC',
          datetime: expect.any(String),
        },
      ]),
    );
  });

  it('migration:run reports that nothing is pending on a migrated database', async () => {
    const res = await cli('migration:run');
    expect(res).toMatchObject({ code: 0, result: { applied: [] } });
  });

  it('rejects unknown commands, unknown options and missing values', async () => {
    const unknown = await cli('user:delete');
    expect(unknown.code).toBe(2);
    expect(unknown.out).toEqual([]);
    expect(unknown.err).toEqual([
      'Unknown command "user:delete".',
      expect.stringMatching(
        /^Usage: npm run cli -- <command> \[options\]\n\n {2}user:create --email E/,
      ),
    ]);
    const twoWords = await cli('export', 'users', '--email', 'keys@example.com');
    expect([twoWords.code, twoWords.err[0]]).toEqual([2, 'Unknown command "export users".']);
    const help = await cli('help');
    expect([help.code, help.err.length]).toEqual([0, 1]);
    expect(help.error).toMatch(/^Usage: /);
    const option = await cli('user:list', '--force');
    expect(option.code).toBe(2);
    expect(JSON.parse(option.error!).errors[0].title).toContain("Unknown option '--force'");
    const missing = await cli('key:create');
    expect(missing.code).toBe(1);
    expect(JSON.parse(missing.error!).errors[0]).toMatchObject({
      field: 'email',
      title: '--email is required.',
    });
    const past = await cli(
      'key:create',
      '--email',
      'keys@example.com',
      '--expires',
      '2001-01-01 00:00:00',
    );
    expect(past.code).toBe(1);
    expect(JSON.parse(past.error!).errors[0].title).toBe('The expiry must be in the future.');
  });
});

describe('Command line failures', () => {
  let t: TestApp;
  beforeAll(async () => {
    t = await createTestApp();
  });
  afterAll(() => t?.close());

  it('a database that cannot be opened is one JSON error line and exit code 1', async () => {
    // Its folder cannot be made: a file of that name is in the way.
    const file = join(t.config.dataDir, 'not-a-folder');
    writeFileSync(file, '');
    const config = { ...t.config, database: { type: 'sqlite' as const, path: join(file, 'x.db') } };
    const res = await runCommand(config, 'user:list');
    expect(res.code).toBe(1);
    expect(res.out).toEqual([]);
    expect(res.err).toEqual([
      JSON.stringify({
        errors: [
          {
            status: 500,
            title: `The command failed: EEXIST: file already exists, mkdir '${file}'`,
            code: 'internal_error',
          },
        ],
      }),
    ]);
  });
});

/**
 * The built command line, as `npm run cli` runs it, with the environment only (SQLite: what is
 * checked is the process, its configuration and its output, the same on both databases).
 */
(currentTestDb() === 'sqlite' ? describe : describe.skip)('Command line, built', () => {
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
