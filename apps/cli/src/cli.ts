import { parseArgs } from 'node:util';
import { NestFactory } from '@nestjs/core';
import { DataSource } from 'typeorm';
import { AppError } from '@app/common';
import { AppConfig } from '@app/config';
import { runMigrations } from '@app/database';
import { CliModule } from './cli.module';
import { COMMANDS } from './commands';

export interface CliIo {
  out(line: string): void;
  err(line: string): void;
}

/**
 * Runs one command and returns the exit code. The result is one JSON line on stdout, the last
 * line of output; a failure is one JSON line in the API's error shape on stderr.
 */
export async function runCli(argv: string[], config: AppConfig, io: CliIo): Promise<number> {
  const [name, ...rest] = argv;
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
  try {
    options = parseArgs({ args: rest, options: command.options, strict: true }).values;
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
    if (name !== 'migration:run' && name !== 'migration:revert') {
      await runMigrations(app.get(DataSource));
    }
    const result = await command.run(app, options);
    io.out(JSON.stringify(result));
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
