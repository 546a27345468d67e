import { parseArgs } from 'node:util';
import type { INestApplicationContext } from '@nestjs/common';
import { NestFactory } from '@nestjs/core';
import type Redis from 'ioredis';
import { DataSource } from 'typeorm';
import { AppError } from '@app/common';
import { AppConfig, ConfigError } from '@app/config';
import { runMigrations } from '@app/database';
import { REDIS, redisReady } from '@app/redis';
import { CliModule } from './cli.module';
import type { CliIo } from './command';
import { COMMANDS } from './commands';

/** How long a command waits for Redis before it goes on without telling the running servers. */
const REDIS_WAIT_MS = 3000;

/**
 * Runs one command and returns the exit code. The result is one JSON line on stdout, the last
 * line of output; a failure is one JSON line in the API's error shape on stderr.
 */
export async function runCli(argv: string[], config: AppConfig, io: CliIo): Promise<number> {
  // Two-word commands (`export links`) first.
  const twoWords = argv.length > 1 ? `${argv[0]} ${argv[1]}` : '';
  const [name, ...rest] = COMMANDS[twoWords] ? [twoWords, ...argv.slice(2)] : argv;
  const command = name === undefined ? undefined : COMMANDS[name];
  if (!command) {
    const help = name === undefined || name === 'help' || name === '--help';
    if (!help) {
      // `export users`: name both words when the first begins a two-word command.
      const twoWordStart = Object.keys(COMMANDS).some((c) => c.startsWith(`${name} `));
      io.err(`Unknown command "${twoWordStart && twoWords !== '' ? twoWords : name}".`);
    }
    io.err(
      `Usage: npm run cli -- <command> [options]\n\n${Object.values(COMMANDS)
        .map((c) => `  ${c.usage}`)
        .join('\n')}`,
    );
    return help ? 0 : 2;
  }

  let options: Record<string, string | boolean | undefined>;
  let args: string[];
  try {
    const parsed = parseArgs({
      args: rest,
      options: command.options,
      strict: true,
      allowPositionals: command.args !== undefined,
    });
    options = parsed.values;
    args = parsed.positionals;
    if (args.length !== (command.args?.length ?? 0)) {
      throw new Error(`Expected ${command.args?.join(' ') || 'no arguments'}.`);
    }
  } catch (error) {
    io.err(
      errorLine(
        new AppError('validation_failed', `${(error as Error).message} Usage: ${command.usage}`),
      ),
    );
    return 2;
  }

  const debug = config.logLevel === 'debug';
  let app: INestApplicationContext | undefined;
  try {
    app = await NestFactory.createApplicationContext(CliModule.forRoot(config), {
      // Failures reach the catch below, which prints them as one line (Nest would print a stack).
      logger: debug ? undefined : false,
      abortOnError: false,
    });
    const redis = app.get<Redis | null>(REDIS);
    if (redis && !(await redisReady(redis, REDIS_WAIT_MS))) {
      io.err(
        'Redis (REDIS_URL) is unreachable: running servers learn of key, user and team changes made here only when their authentication cache expires (30 s).',
      );
    }
    if (name !== 'migration:run' && name !== 'migration:revert') {
      await runMigrations(app.get(DataSource));
    }
    const result = await command.run(app, options, { args, io });
    if (result !== undefined) {
      io.out(JSON.stringify(result));
    }
    return 0;
  } catch (error) {
    if (error instanceof OutputClosedError) {
      // The reader went away (`export links | head`): what it wanted, it has.
      return 0;
    }
    const stack = (error as { stack?: unknown } | null)?.stack;
    if (debug && !(error instanceof AppError) && typeof stack === 'string') {
      io.err(stack);
    }
    io.err(errorLine(toAppError(error)));
    return 1;
  } finally {
    await app?.close().catch(() => undefined);
  }
}

/** stdout was closed by its reader (EPIPE): the command stops, and that is no failure. */
export class OutputClosedError extends Error {
  constructor() {
    super('stdout was closed');
    this.name = 'OutputClosedError';
  }
}

/** Every failure in the API's error shape: a configuration problem is the user's to fix, 400. */
export function toAppError(error: unknown): AppError {
  if (error instanceof AppError) {
    return error;
  }
  if (error instanceof ConfigError) {
    return new AppError(
      'validation_failed',
      error.problems.map((title) => ({ title })),
    );
  }
  return new AppError('internal_error', `The command failed: ${failureText(error)}`);
}

/**
 * The error's message; node's connection errors to several addresses have none, only a code.
 * Read by shape: an error from another realm (a VM context) is no `instanceof Error` here.
 */
function failureText(error: unknown): string {
  if (typeof error === 'object' && error !== null) {
    const { message, code, name } = error as Record<string, unknown>;
    for (const text of [message, code, name]) {
      if (typeof text === 'string' && text !== '') return text;
    }
  }
  return String(error);
}

export function errorLine(error: AppError): string {
  return JSON.stringify({ errors: error.toEntries() });
}
