import 'reflect-metadata';
import { loadConfig } from '@app/config';
import { errorLine, OutputClosedError, runCli, toAppError } from './cli';

/** Set once stdout's reader has gone (`export links | head`): nothing more is written to it. */
let stdoutClosed = false;
let stdoutError: Error | null = null;
// Without a listener, EPIPE would end the process with a stack trace.
process.stdout.on('error', (error: NodeJS.ErrnoException) => {
  if (error.code === 'EPIPE') {
    stdoutClosed = true;
  } else {
    stdoutError = error;
  }
});

function writeOut(chunk: string): Promise<void> {
  if (stdoutClosed) {
    return Promise.reject(new OutputClosedError());
  }
  if (stdoutError) {
    return Promise.reject(stdoutError);
  }
  return new Promise((resolve, reject) =>
    process.stdout.write(chunk, (error) => {
      if (!error) {
        resolve();
      } else if (stdoutClosed || (error as NodeJS.ErrnoException).code === 'EPIPE') {
        stdoutClosed = true;
        reject(new OutputClosedError());
      } else {
        reject(error);
      }
    }),
  );
}

async function main(): Promise<number> {
  const loaded = loadConfig();
  // Only the command's own lines, unless LOG_LEVEL=debug asks for the framework's and stacks.
  const config = loaded.logLevel === 'debug' ? loaded : { ...loaded, logLevel: 'error' as const };
  return runCli(process.argv.slice(2), config, {
    out: (line) => {
      if (!stdoutClosed) process.stdout.write(`${line}\n`);
    },
    err: (line) => process.stderr.write(`${line}\n`),
    write: writeOut,
    progress: process.stdout.isTTY ? process.stdout : undefined,
  });
}

main().then(
  (code) => process.exit(code),
  (error: unknown) => {
    // A bad variable (loadConfig), or a fault outside any command: the same one JSON line.
    process.stderr.write(`${errorLine(toAppError(error))}\n`);
    process.exit(1);
  },
);
