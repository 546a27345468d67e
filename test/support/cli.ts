import type { AppConfig } from '@app/config';
import { runCli } from '../../apps/cli/src/cli';

/** What one command printed: its exit code, its lines, the last stdout line parsed (the result). */
export interface CliRun {
  code: number;
  out: string[];
  err: string[];
  // eslint-disable-next-line @typescript-eslint/no-explicit-any -- each test reads its own shape
  result: any;
  /** The last stderr line as printed (the error in the API's shape, as JSON text). */
  error: string | undefined;
}

/** Runs a command of `npm run cli` in process, with the app's configuration. */
export async function runCommand(config: AppConfig, ...argv: string[]): Promise<CliRun> {
  const out: string[] = [];
  const err: string[] = [];
  const code = await runCli(argv, config, {
    out: (line) => out.push(line),
    err: (line) => err.push(line),
  });
  return {
    code,
    out,
    err,
    result: out.length ? (JSON.parse(out[out.length - 1]) as unknown) : undefined,
    error: err.length ? err[err.length - 1] : undefined,
  };
}
