import { randomBytes } from 'node:crypto';
import { existsSync, mkdirSync, mkdtempSync, rmSync, utimesSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import Database from 'better-sqlite3';
import { BUILT, requireBuilt, startBuilt, stopStarted, waitFor } from '@app/testing';

/**
 * The built worker, started the way `npm run worker` starts it (npm test builds first). SQLite
 * only: the PostgreSQL project covers the jobs and their locks in worker-jobs.e2e-spec.ts.
 */
// The worker decrypts notification-handler settings with the same key as the API.
const start = (env: Record<string, string>) =>
  startBuilt(BUILT.worker, { SECRETS_KEY: randomBytes(32).toString('base64'), ...env });

describe('Starting the built worker', () => {
  const dirs: string[] = [];
  afterAll(async () => {
    await stopStarted();
    dirs.forEach((d) => rmSync(d, { recursive: true, force: true }));
  });

  beforeAll(() => requireBuilt(BUILT.worker));

  it('migrates, names its jobs, runs them, and exits with 0 on SIGTERM', async () => {
    const dataDir = mkdtempSync(join(tmpdir(), 'linkdock-worker-'));
    dirs.push(dataDir);
    // A version of a site no link points at, retired two hours ago: the first sweep removes it.
    const orphan = join(dataDir, 'sites', 'orphan-site', 'old-version');
    mkdirSync(orphan, { recursive: true });
    writeFileSync(join(orphan, 'index.html'), '<p>old');
    const twoHoursAgo = new Date(Date.now() - 2 * 60 * 60 * 1000);
    utimesSync(orphan, twoHoursAgo, twoHoursAgo);

    const worker = start({ WORKER: 'external', DATA_DIR: dataDir });
    await waitFor(
      () => worker.output().includes('Linkdock worker is running'),
      20000,
      worker.output,
    );
    expect(worker.output()).toBe(
      'Linkdock worker is running jobs: site-sweep every 6 h, link-expiry every 1 min, domain-reverification every 24 h, account-logs-retention every 24 h, statistics-months every 1 h, destination-checks every 10 min; off: visits-retention (VISITS_RETENTION_DAYS is unset)\n',
    );
    await waitFor(() => !existsSync(orphan), 20000, worker.output);
    const db = new Database(join(dataDir, 'linkdock.sqlite'), { readonly: true });
    const migrations = db.prepare('SELECT COUNT(*) AS n FROM migrations').get() as { n: number };
    db.close();
    expect(migrations.n).toBeGreaterThan(0);

    worker.child.kill('SIGTERM');
    expect(await worker.exited).toEqual({ code: 0, signal: null });
    expect(worker.output()).toMatch(/\nLinkdock worker stopped\n$/);
  });

  it('lists retention among its jobs once VISITS_RETENTION_DAYS is set', async () => {
    const dataDir = mkdtempSync(join(tmpdir(), 'linkdock-worker-'));
    dirs.push(dataDir);
    const worker = start({ WORKER: 'external', DATA_DIR: dataDir, VISITS_RETENTION_DAYS: '30' });
    await waitFor(
      () => worker.output().includes('Linkdock worker is running'),
      20000,
      worker.output,
    );
    expect(worker.output()).toBe(
      'Linkdock worker is running jobs: visits-retention every 1 h, site-sweep every 6 h, link-expiry every 1 min, domain-reverification every 24 h, account-logs-retention every 24 h, statistics-months every 1 h, destination-checks every 10 min\n',
    );
    worker.child.kill('SIGINT');
    expect(await worker.exited).toEqual({ code: 0, signal: null });
  });

  it('refuses to start unless WORKER=external, and names the variable', async () => {
    const dataDir = mkdtempSync(join(tmpdir(), 'linkdock-worker-'));
    dirs.push(dataDir);
    const internal = start({ DATA_DIR: dataDir });
    expect(await internal.exited).toEqual({ code: 1, signal: null });
    expect(internal.output()).toBe(
      'Invalid configuration:\n  - WORKER must be external to run jobs in a worker process (got "internal": the API process runs them)\n',
    );

    const bad = start({ DATA_DIR: dataDir, WORKER: 'sometimes' });
    expect(await bad.exited).toEqual({ code: 1, signal: null });
    expect(bad.output()).toBe(
      'Invalid configuration:\n  - WORKER must be one of internal, external (got "sometimes")\n',
    );
  });
});
