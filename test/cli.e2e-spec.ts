import { writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { createTestApp, TestApp } from '@app/testing';
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
