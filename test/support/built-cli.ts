import { spawn } from 'node:child_process';
import { BUILT } from '@app/testing';

export interface BuiltCliRun {
  code: number | null;
  stdout: string;
  stderr: string;
}

/** Runs the built command line (`npm run cli -- …`) with only PATH and `env`, to its exit. */
export function runBuiltCli(env: Record<string, string>, ...argv: string[]): Promise<BuiltCliRun> {
  const child = spawn(process.execPath, [BUILT.cli, ...argv], {
    env: { PATH: process.env.PATH ?? '', ...env },
    stdio: ['ignore', 'pipe', 'pipe'],
  });
  let stdout = '';
  let stderr = '';
  child.stdout.on('data', (chunk: Buffer) => (stdout += chunk.toString()));
  child.stderr.on('data', (chunk: Buffer) => (stderr += chunk.toString()));
  return new Promise((resolve, reject) => {
    child.on('error', reject);
    child.on('close', (code) => resolve({ code, stdout, stderr }));
  });
}
