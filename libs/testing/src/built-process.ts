import { ChildProcess, spawn } from 'node:child_process';
import { existsSync } from 'node:fs';
import { join } from 'node:path';

const DIST = join(__dirname, '..', '..', '..', 'dist', 'apps');

/**
 * The built entry points, as `npm start`, `npm run worker` and `npm run cli` start them (npm test
 * builds first).
 */
export const BUILT = {
  api: join(DIST, 'api', 'src', 'main.js'),
  worker: join(DIST, 'worker', 'src', 'main.js'),
  cli: join(DIST, 'cli', 'src', 'main.js'),
} as const;

export interface StartedProcess {
  child: ChildProcess;
  /** Everything it printed so far, stdout and stderr together. */
  output: () => string;
  /** What it printed so far on stdout alone, and on stderr alone. */
  stdout: () => string;
  stderr: () => string;
  exited: Promise<{ code: number | null; signal: NodeJS.Signals | null }>;
}

/** Processes started and not yet exited: a test that fails part way leaves them to stopStarted. */
const running = new Set<StartedProcess>();

/** Throws a clear message when the build is missing (a suite's beforeAll calls this first). */
export function requireBuilt(entry: string): void {
  if (!existsSync(entry)) {
    throw new Error(`${entry} is missing: run \`npm run build\` (npm test does it first).`);
  }
}

/** Starts a built entry point with only PATH and `env` (LOG_LEVEL warn unless `env` sets it). */
export function startBuilt(entry: string, env: Record<string, string>): StartedProcess {
  // The server as npm start, start:prod and the Dockerfile run it (the young generation's size).
  const nodeOptions = entry === BUILT.api ? ['--max-semi-space-size=16'] : [];
  const child = spawn(process.execPath, [...nodeOptions, entry], {
    env: { PATH: process.env.PATH ?? '', LOG_LEVEL: 'warn', ...env },
    stdio: ['ignore', 'pipe', 'pipe'],
  });
  let output = '';
  let stdout = '';
  let stderr = '';
  child.stdout?.on('data', (chunk: Buffer) => {
    output += chunk.toString();
    stdout += chunk.toString();
  });
  child.stderr?.on('data', (chunk: Buffer) => {
    output += chunk.toString();
    stderr += chunk.toString();
  });
  const exited = new Promise<{ code: number | null; signal: NodeJS.Signals | null }>((resolve) =>
    child.on('exit', (code, signal) => {
      running.delete(started);
      resolve({ code, signal });
    }),
  );
  const started: StartedProcess = {
    child,
    output: () => output,
    stdout: () => stdout,
    stderr: () => stderr,
    exited,
  };
  running.add(started);
  return started;
}

/** Kills (SIGKILL) every started process still running; for a suite's afterAll. */
export async function stopStarted(): Promise<void> {
  await Promise.all(
    [...running].map((started) => {
      started.child.kill('SIGKILL');
      return started.exited;
    }),
  );
}

/** Polls `check` every 50 ms; after `ms`, fails with the process output when one is given. */
export async function waitFor(
  check: () => boolean,
  ms: number,
  output?: () => string,
): Promise<void> {
  const until = Date.now() + ms;
  while (!check()) {
    if (Date.now() > until) {
      throw new Error(`timed out${output ? `; process output:\n${output()}` : ''}`);
    }
    await new Promise((r) => setTimeout(r, 50));
  }
}
