import { ChildProcess, spawn } from 'node:child_process';
import { randomBytes } from 'node:crypto';
import { existsSync, mkdtempSync, readFileSync, rmSync, statSync } from 'node:fs';
import { createServer } from 'node:net';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { BUILT, freePort, requireBuilt, waitFor } from '@app/testing';

/**
 * `npm start` and `npm run worker` as a service manager runs them: SIGTERM to npm stops the
 * server or worker underneath, frees the port and leaves no process behind; with the build up to
 * date, no build runs. SQLite only (npm test builds first, so the build is up to date).
 */
const ROOT = join(__dirname, '..');

interface NpmProcess {
  child: ChildProcess;
  output: () => string;
  exited: Promise<{ code: number | null; signal: NodeJS.Signals | null }>;
}

const started = new Set<number>();

function npm(args: string[], env: Record<string, string>): NpmProcess {
  const child = spawn('npm', args, {
    cwd: ROOT,
    env: { PATH: process.env.PATH ?? '', HOME: process.env.HOME ?? '', LOG_LEVEL: 'warn', ...env },
    stdio: ['ignore', 'pipe', 'pipe'],
  });
  let output = '';
  child.stdout?.on('data', (chunk: Buffer) => (output += chunk.toString()));
  child.stderr?.on('data', (chunk: Buffer) => (output += chunk.toString()));
  const exited = new Promise<{ code: number | null; signal: NodeJS.Signals | null }>((resolve) =>
    child.on('exit', (code, signal) => resolve({ code, signal })),
  );
  return { child, output: () => output, exited };
}

/** The process's children, their children and so on (Linux). */
function descendants(pid: number): number[] {
  const file = `/proc/${pid}/task/${pid}/children`;
  if (!existsSync(file)) return [];
  const children = readFileSync(file, 'utf8').trim().split(/\s+/).filter(Boolean).map(Number);
  return children.flatMap((child) => [child, ...descendants(child)]);
}

function alive(pid: number): boolean {
  try {
    process.kill(pid, 0);
    return true;
  } catch {
    return false;
  }
}

/** Whether a new server can listen on the port (the old one let it go). */
function portIsFree(port: number): Promise<boolean> {
  return new Promise((resolve) => {
    const probe = createServer();
    probe.once('error', () => resolve(false));
    probe.listen(port, '127.0.0.1', () => probe.close(() => resolve(true)));
  });
}

async function waitForHealth(port: number, process: NpmProcess, ms: number): Promise<void> {
  const until = Date.now() + ms;
  for (;;) {
    const status = await fetch(`http://127.0.0.1:${port}/health`).then(
      (res) => res.status,
      () => 0,
    );
    if (status === 200) return;
    if (Date.now() > until) {
      throw new Error(`no healthy server after ${ms} ms; output:\n${process.output()}`);
    }
    await new Promise((resolve) => setTimeout(resolve, 100));
  }
}

/** Sends SIGTERM to npm; resolves with how it ended and how long that took. */
async function stop(process: NpmProcess): Promise<{ code: number | null; ms: number }> {
  const sent = Date.now();
  process.child.kill('SIGTERM');
  const exit = await Promise.race([
    process.exited,
    new Promise<null>((resolve) => setTimeout(() => resolve(null), 10_000)),
  ]);
  if (exit === null) throw new Error(`npm still runs 10 s after SIGTERM:\n${process.output()}`);
  return { code: exit.code, ms: Date.now() - sent };
}

describe('npm start and npm run worker under a service manager', () => {
  const dirs: string[] = [];
  afterAll(() => {
    started.forEach((pid) => alive(pid) && process.kill(pid, 'SIGKILL'));
    dirs.forEach((d) => rmSync(d, { recursive: true, force: true }));
  });
  beforeAll(() => requireBuilt(BUILT.api));

  it('stops the server on SIGTERM to npm: the port is free and no process is left', async () => {
    const dataDir = mkdtempSync(join(tmpdir(), 'linkdock-start-'));
    dirs.push(dataDir);
    const port = await freePort();
    const built = statSync(BUILT.api).mtimeMs;
    const server = npm(['start'], { PORT: String(port), HOST: '127.0.0.1', DATA_DIR: dataDir });
    await waitForHealth(port, server, 30_000);
    const tree = descendants(server.child.pid!);
    tree.forEach((pid) => started.add(pid));
    // Under npm: scripts/run-built.js (the script's sh execs it), then the server.
    expect(tree).toHaveLength(2);

    const { code, ms } = await stop(server);
    expect(code).toBe(0);
    expect(ms).toBeLessThan(10_000);
    expect(await portIsFree(port)).toBe(true);
    expect(tree.filter(alive)).toEqual([]);
    // The build was up to date: none ran.
    expect(statSync(BUILT.api).mtimeMs).toBe(built);
    expect(server.output()).not.toMatch(/Building|nest build/);
  }, 60_000);

  it('starts again at once on the same port and data, without building', async () => {
    const dataDir = mkdtempSync(join(tmpdir(), 'linkdock-start-'));
    dirs.push(dataDir);
    const port = await freePort();
    const env = { PORT: String(port), HOST: '127.0.0.1', DATA_DIR: dataDir };
    const first = npm(['start'], env);
    await waitForHealth(port, first, 30_000);
    expect((await stop(first)).code).toBe(0);

    const built = statSync(BUILT.api).mtimeMs;
    const second = npm(['start'], env);
    await waitForHealth(port, second, 30_000);
    descendants(second.child.pid!).forEach((pid) => started.add(pid));
    expect((await stop(second)).code).toBe(0);
    expect(statSync(BUILT.api).mtimeMs).toBe(built);
    expect(second.output()).not.toMatch(/Building|nest build|EADDRINUSE/);
  }, 90_000);

  it('stops the worker on SIGTERM to npm, letting it finish, and leaves no process', async () => {
    const dataDir = mkdtempSync(join(tmpdir(), 'linkdock-start-'));
    dirs.push(dataDir);
    const worker = npm(['run', 'worker'], {
      WORKER: 'external',
      DATA_DIR: dataDir,
      SECRETS_KEY: randomBytes(32).toString('base64'),
    });
    await waitFor(
      () => worker.output().includes('Linkdock worker is running'),
      30_000,
      worker.output,
    );
    const tree = descendants(worker.child.pid!);
    tree.forEach((pid) => started.add(pid));
    expect(tree).toHaveLength(2);

    const { code } = await stop(worker);
    expect(code).toBe(0);
    expect(worker.output()).toContain('Linkdock worker stopped\n');
    expect(tree.filter(alive)).toEqual([]);
  }, 60_000);
});
