import { ChildProcess, spawn, spawnSync } from 'node:child_process';
import { freePort } from './browser';

export interface TestRedisServer {
  url: string;
  /** Kills it (SIGKILL, as a crash would) and waits for the process to end. */
  stop(): Promise<void>;
  /** Starts it again on the same port, empty. */
  start(): Promise<void>;
}

/**
 * A redis-server of a suite's own, on a free port, keeping nothing on disk: a suite that stops
 * Redis must not stop the one other suites (and other people) use. Throws a one-line message when
 * redis-server is not installed.
 */
export async function startRedisServer(): Promise<TestRedisServer> {
  if (spawnSync('redis-server', ['--version']).error) {
    throw new Error(
      'redis-server is not installed, and this suite starts and stops a Redis of its own: install it (Debian: `sudo apt-get install redis-server`).',
    );
  }
  const port = await freePort();
  let child: ChildProcess | null = null;
  const start = async (): Promise<void> => {
    const started = spawn(
      'redis-server',
      ['--port', String(port), '--bind', '127.0.0.1', '--save', '', '--appendonly', 'no'],
      { stdio: ['ignore', 'pipe', 'pipe'] },
    );
    child = started;
    let output = '';
    await new Promise<void>((resolve, reject) => {
      started.stdout?.on('data', (chunk: Buffer) => {
        output += chunk.toString();
        if (output.includes('Ready to accept connections')) resolve();
      });
      started.once('exit', (code) =>
        reject(new Error(`redis-server on port ${port} exited (${code}): ${output}`)),
      );
    });
  };
  const stop = async (): Promise<void> => {
    const running = child;
    child = null;
    if (running === null || running.exitCode !== null || running.signalCode !== null) return;
    const exited = new Promise((resolve) => running.once('exit', resolve));
    running.kill('SIGKILL');
    await exited;
  };
  await start();
  return { url: `redis://127.0.0.1:${port}`, stop, start };
}
