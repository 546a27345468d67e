import 'reflect-metadata';
import { ConfigError, loadConfig } from '@app/config';
import { runCli } from './cli';

async function main(): Promise<number> {
  const config = { ...loadConfig(), logLevel: 'error' as const };
  return runCli(process.argv.slice(2), config, {
    out: (line) => process.stdout.write(`${line}\n`),
    err: (line) => process.stderr.write(`${line}\n`),
    write: (chunk) =>
      new Promise((resolve, reject) =>
        process.stdout.write(chunk, (error) => (error ? reject(error) : resolve())),
      ),
    progress: process.stdout.isTTY ? process.stdout : undefined,
  });
}

main().then(
  (code) => process.exit(code),
  (error: unknown) => {
    process.stderr.write(
      error instanceof ConfigError
        ? `${error.message}\n`
        : `${error instanceof Error ? error.stack : String(error)}\n`,
    );
    process.exit(1);
  },
);
