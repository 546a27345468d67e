import { INestApplicationContext } from '@nestjs/common';
import { AppError } from '@app/common';

/** Where a command writes (the process's stdout and stderr, or a test's lines). */
export interface CliIo {
  out(line: string): void;
  err(line: string): void;
  /** Output as it comes, without a line break added (an export written to stdout). */
  write?(chunk: string): Promise<void>;
  /** The terminal stdout is, when it is one: progress bars are drawn there, and only then. */
  progress?: NodeJS.WritableStream;
}

export type Options = Record<string, string | boolean | undefined>;

export interface Command {
  usage: string;
  options: Record<string, { type: 'string' | 'boolean' }>;
  /** Names of the positional arguments, when the command takes some. */
  args?: string[];
  /** The result, printed as the last line of output (nothing for undefined). */
  run(app: INestApplicationContext, options: Options, context: CommandContext): Promise<unknown>;
}

export interface CommandContext {
  args: string[];
  io: CliIo;
}

export const str = (options: Options, name: string): string | undefined => {
  const value = options[name];
  return typeof value === 'string' ? value : undefined;
};

export function required(options: Options, name: string): string {
  const value = str(options, name);
  if (value === undefined || value.trim() === '') {
    throw new AppError('validation_failed', `--${name} is required.`, name);
  }
  return value;
}
