import { parseArgs } from 'node:util';
import { NestFactory } from '@nestjs/core';
import type Redis from 'ioredis';
import { DataSource } from 'typeorm';
import { AppError } from '@app/common';
import { AppConfig } from '@app/config';
import { runMigrations } from '@app/database';
import { REDIS, redisReady } from '@app/redis';
import { CliModule } from './cli.module';
import { COMMANDS } from './commands';

export interface CliIo {
  out(line: string): void;
  err(line: string): void;
  /** Output as it comes, without a line break added (an export written to stdout). */
  write?(chunk: string): Promise<void>;
  /** The terminal stdout is, when it is one: progress bars are drawn there, and only then. */
  progress?: NodeJS.WritableStream;
}

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
    io.err(
      `Usage: npm run cli -- <command> [options]\n\n${Object.values(COMMANDS)
        .map((c) => `  ${c.usage}`)
        .join('\n')}`,
    );
    return name === undefined || name === 'help' || name === '--help' ? 0 : 2;
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

  const app = await NestFactory.createApplicationContext(CliModule.forRoot(config), {
    logger: ['error'],
  });
  try {
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
    if (error instanceof AppError) {
      io.err(errorLine(error));
      return 1;
    }
    throw error;
  } finally {
    await app.close();
  }
}

function errorLine(error: AppError): string {
  return JSON.stringify({ errors: error.toEntries() });
}
