import { randomBytes } from 'node:crypto';
import { existsSync, mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { createServer } from 'node:net';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import Database from 'better-sqlite3';
import { BUILT, freePort, requireBuilt, startBuilt, stopStarted, waitFor } from '@app/testing';

/**
 * The built server, started the way `npm start` starts it (npm test builds first). SQLite only:
 * the PostgreSQL project covers the same application through createTestApp.
 */
const start = (env: Record<string, string>) => startBuilt(BUILT.api, env);

describe('Starting the built server', () => {
  const dirs: string[] = [];
  afterAll(async () => {
    await stopStarted();
    dirs.forEach((d) => rmSync(d, { recursive: true, force: true }));
  });

  beforeAll(() => requireBuilt(BUILT.api));

  it('migrates, prints the URL and the first admin key once, serves, and stops cleanly on SIGTERM', async () => {
    const dataDir = mkdtempSync(join(tmpdir(), 'linkdock-boot-'));
    dirs.push(dataDir);
    const port = String(await freePort());
    const server = start({ PORT: port, HOST: '127.0.0.1', DATA_DIR: dataDir });
    await waitFor(() => server.output().includes('Linkdock is listening'), 20000, server.output);

    const key = /\b(ld_[A-Za-z0-9_-]{43})\b/.exec(server.output())?.[1];
    expect(server.output()).toContain(`Linkdock is listening on http://localhost:${port}`);
    expect(server.output()).toContain('created the admin user admin@linkdock.local');
    expect(key).toBeDefined();
    const me = await fetch(`http://127.0.0.1:${port}/v1/user`, {
      headers: { Authorization: `Bearer ${key}` },
    });
    expect(me.status).toBe(200);
    expect(await me.json()).toMatchObject({
      data: { email: 'admin@linkdock.local', is_admin: true },
    });

    server.child.kill('SIGTERM');
    const exit = await server.exited;
    expect(exit.code === 0 || exit.signal === 'SIGTERM').toBe(true);
    // better-sqlite3 checkpoints and removes the WAL file only on a clean close.
    expect(existsSync(join(dataDir, 'linkdock.sqlite-wal'))).toBe(false);

    // A second start on the same data prints no key: the admin exists already.
    const again = start({ PORT: port, HOST: '127.0.0.1', DATA_DIR: dataDir });
    await waitFor(() => again.output().includes('Linkdock is listening'), 20000, again.output);
    expect(again.output()).not.toMatch(/ld_[A-Za-z0-9_-]{43}/);
    again.child.kill('SIGTERM');
    await again.exited;
  });

  it('writes every counted visit before it exits on SIGTERM, with requests still arriving', async () => {
    const dataDir = mkdtempSync(join(tmpdir(), 'linkdock-boot-'));
    dirs.push(dataDir);
    const port = String(await freePort());
    const server = start({ PORT: port, HOST: '127.0.0.1', DATA_DIR: dataDir, LOG_LEVEL: 'info' });
    await waitFor(() => server.output().includes('Linkdock is listening'), 20000, server.output);
    const key = /\b(ld_[A-Za-z0-9_-]{43})\b/.exec(server.output())?.[1];
    const created = await fetch(`http://127.0.0.1:${port}/v1/links`, {
      method: 'POST',
      headers: { Authorization: `Bearer ${key}`, 'Content-Type': 'application/json' },
      body: JSON.stringify({ location_url: 'https://example.com/', url: 'boot-visits' }),
    });
    expect(created.status).toBe(201);

    // Keep visiting while the signal arrives: every redirect that was answered must be written.
    let answered = 0;
    let stop = false;
    const visitor = async (): Promise<void> => {
      while (!stop) {
        try {
          const res = await fetch(`http://127.0.0.1:${port}/boot-visits`, {
            redirect: 'manual',
            headers: { 'User-Agent': 'Mozilla/5.0 (X11; Linux x86_64) Firefox/133.0' },
          });
          if (res.status === 302) answered += 1;
        } catch {
          stop = true;
        }
      }
    };
    const visitors = Promise.all([visitor(), visitor(), visitor(), visitor()]);
    await waitFor(() => answered >= 200, 20000);
    server.child.kill('SIGTERM');
    await server.exited;
    stop = true;
    await visitors;

    const report = /Visits: (\d+) counted, (\d+) written, (\d+) not written/.exec(server.output());
    if (!report) {
      throw new Error(`The server did not report its visits on exit. Output:\n${server.output()}`);
    }
    const [, counted, written, left] = report.map(Number);
    expect(counted).toBeGreaterThanOrEqual(answered);
    expect(written).toBe(counted);
    expect(left).toBe(0);
    const db = new Database(join(dataDir, 'linkdock.sqlite'), { readonly: true });
    const rows = db.prepare('SELECT COUNT(*) AS n FROM visits').get() as { n: number };
    const link = db.prepare('SELECT clicks FROM links').get() as { clicks: number };
    db.close();
    expect(rows.n).toBe(counted);
    expect(link.clicks).toBe(counted);
  }, 60_000);

  it("prints only its own lines on the first start, the admin key last; Nest's chatter at debug", async () => {
    const dataDir = mkdtempSync(join(tmpdir(), 'linkdock-boot-'));
    dirs.push(dataDir);
    const port = String(await freePort());
    const server = start({ PORT: port, HOST: '127.0.0.1', DATA_DIR: dataDir, LOG_LEVEL: 'info' });
    await waitFor(() => server.stdout().includes('Try it: curl'), 20000, server.output);
    // Long enough for the background jobs' first runs and the visit writer's first flushes.
    await new Promise((resolve) => setTimeout(resolve, 1500));
    const stdout = server.stdout();
    server.child.kill('SIGTERM');
    await server.exited;

    const key = /\b(ld_[A-Za-z0-9_-]{43})\b/.exec(stdout)?.[1];
    const url = `http://localhost:${port}`;
    const jsonLines = stdout.slice(0, stdout.indexOf('\n\nLinkdock is listening')).split('\n');
    expect(jsonLines.map((line) => (JSON.parse(line) as { msg: string }).msg)).toEqual([
      expect.stringMatching(/^Applied migrations: Init1763700000000, /),
      `Listening on ${url} (bound to 127.0.0.1:${port})`,
    ]);
    expect(stdout.slice(stdout.indexOf('\nLinkdock is listening'))).toBe(
      [
        '',
        `Linkdock is listening on ${url}`,
        `  API:  ${url}/v1   Docs: ${url}/docs   Health: ${url}/health`,
        `  Database: ${join(dataDir, 'linkdock.sqlite')}`,
        `  Secrets key: SECRETS_KEY is unset, so one was generated into ${join(dataDir, 'secrets.key')} (mode 0600).`,
        '  Back it up with the database: notification-handler secrets cannot be read without it.',
        '',
        'First start: created the admin user admin@linkdock.local. Its API key, shown only this once:',
        '',
        `  ${key}`,
        '',
        `Try it: curl -H "Authorization: Bearer ${key}" ${url}/v1/user`,
        '',
        '',
      ].join('\n'),
    );
    expect(server.stderr()).toBe('');

    // Restarted at debug on the same data: the route mappings are there, and the key file named.
    const again = start({ PORT: port, HOST: '127.0.0.1', DATA_DIR: dataDir, LOG_LEVEL: 'debug' });
    await waitFor(() => again.stdout().includes('Linkdock is listening'), 20000, again.output);
    again.child.kill('SIGTERM');
    await again.exited;
    expect(again.stdout()).toContain(
      '"context":"RouterExplorer","msg":"Mapped {/v1/links, GET} route"',
    );
    expect(again.stdout()).toContain(
      `  Secrets key: ${join(dataDir, 'secrets.key')} (back it up with the database)\n`,
    );
  }, 60_000);

  describe('stops in one line naming the variable, exit code 1, no stack', () => {
    const failed = async (
      entry: string,
      env: Record<string, string>,
    ): Promise<{ code: number | null; stderr: string; stdout: string }> => {
      const run = startBuilt(entry, { SECRETS_KEY: randomBytes(32).toString('base64'), ...env });
      const exit = await run.exited;
      return { code: exit.code, stderr: run.stderr(), stdout: run.stdout() };
    };

    it('when DATABASE_URL cannot be reached (the password masked)', async () => {
      const env = { DATABASE_URL: 'postgres://linkdock:s3cret@127.0.0.1:1/linkdock' };
      const line =
        'cannot start: DATABASE_URL: cannot connect to postgres://linkdock:***@127.0.0.1:1/linkdock (ECONNREFUSED)\n';
      expect(await failed(BUILT.api, env)).toEqual({
        code: 1,
        stderr: `Linkdock ${line}`,
        stdout: '',
      });
      expect(await failed(BUILT.worker, { ...env, WORKER: 'external' })).toEqual({
        code: 1,
        stderr: `Linkdock worker ${line}`,
        stdout: '',
      });
    });

    it('when DATA_DIR is a file, or a part of its path is', async () => {
      const dir = mkdtempSync(join(tmpdir(), 'linkdock-boot-'));
      dirs.push(dir);
      const file = join(dir, 'file');
      writeFileSync(file, '');
      expect(await failed(BUILT.api, { DATA_DIR: file })).toEqual({
        code: 1,
        stderr: `Linkdock cannot start: DATA_DIR: cannot use ${file} (EEXIST: it is a file, not a directory)\n`,
        stdout: '',
      });
      expect(await failed(BUILT.api, { DATA_DIR: join(file, 'data') })).toEqual({
        code: 1,
        stderr: `Linkdock cannot start: DATA_DIR: cannot use ${join(file, 'data')} (ENOTDIR: a part of the path is a file, not a directory)\n`,
        stdout: '',
      });
    });

    it('when PORT is in use', async () => {
      const dataDir = mkdtempSync(join(tmpdir(), 'linkdock-boot-'));
      dirs.push(dataDir);
      const port = await freePort();
      const taken = createServer();
      await new Promise<void>((resolve) => taken.listen(port, '127.0.0.1', resolve));
      try {
        const result = await failed(BUILT.api, {
          PORT: String(port),
          HOST: '127.0.0.1',
          DATA_DIR: dataDir,
        });
        expect({ code: result.code, stderr: result.stderr }).toEqual({
          code: 1,
          stderr: `Linkdock cannot start: PORT ${port} is already in use on 127.0.0.1\n`,
        });
      } finally {
        await new Promise((resolve) => taken.close(resolve));
      }
    });

    it('and with LOG_LEVEL=debug adds the stack', async () => {
      const result = await failed(BUILT.api, {
        DATABASE_URL: 'postgres://linkdock:s3cret@127.0.0.1:1/linkdock',
        LOG_LEVEL: 'debug',
      });
      const [line, ...stack] = result.stderr.split('\n');
      expect(result.code).toBe(1);
      expect(line).toBe(
        'Linkdock cannot start: DATABASE_URL: cannot connect to postgres://linkdock:***@127.0.0.1:1/linkdock (ECONNREFUSED)',
      );
      expect(stack[0]).toBe('Error: connect ECONNREFUSED 127.0.0.1:1');
      expect(stack[1]).toMatch(/^ {4}at /);
    });
  });

  it('starts with REDIS_URL unreachable, answers 503 on /health, and says so once per outage', async () => {
    const dataDir = mkdtempSync(join(tmpdir(), 'linkdock-boot-'));
    dirs.push(dataDir);
    const port = String(await freePort());
    const server = start({
      PORT: port,
      HOST: '127.0.0.1',
      DATA_DIR: dataDir,
      REDIS_URL: 'redis://:s3cret@127.0.0.1:1',
    });
    await waitFor(() => server.output().includes('Linkdock is listening'), 20000, server.output);
    const health = await fetch(`http://127.0.0.1:${port}/health`);
    expect(health.status).toBe(503);
    // ioredis tries again after 0.2, 0.4, 0.6... s: several attempts, still one line.
    await new Promise((resolve) => setTimeout(resolve, 4000));
    server.child.kill('SIGTERM');
    await server.exited;
    const redisLines = server
      .output()
      .split('\n')
      .filter((line) => /redis/i.test(line) && !line.includes('"url":"/health"'));
    expect(redisLines.map((line) => (JSON.parse(line) as { msg: string }).msg)).toEqual([
      'Redis (REDIS_URL redis://:***@127.0.0.1:1) is unreachable: connect ECONNREFUSED 127.0.0.1:1',
    ]);
  }, 60_000);

  it('refuses to start with a bad variable and names it', async () => {
    const server = start({ PORT: 'eighty', REDIS_URL: 'http://cache', DATA_DIR: tmpdir() });
    const exit = await server.exited;
    expect(exit.code).toBe(1);
    expect(server.output()).toContain('PORT must be a whole number from 1 to 65535 (got "eighty")');
    expect(server.output()).toContain('REDIS_URL must start with redis:// or rediss://');
    expect(server.output()).not.toContain('    at ');
  });
});
