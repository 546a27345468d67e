import { existsSync, mkdtempSync, rmSync } from 'node:fs';
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

  it('refuses to start with a bad variable and names it', async () => {
    const server = start({ PORT: 'eighty', REDIS_URL: 'http://cache', DATA_DIR: tmpdir() });
    const exit = await server.exited;
    expect(exit.code).toBe(1);
    expect(server.output()).toContain('PORT must be a whole number from 1 to 65535 (got "eighty")');
    expect(server.output()).toContain('REDIS_URL must start with redis:// or rediss://');
    expect(server.output()).not.toContain('    at ');
  });
});
