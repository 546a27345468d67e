import type { LoggerService } from '@nestjs/common';

/** Nest's own start-up chatter: each module loaded, each route mapped, "started". */
const BOOT_CONTEXTS: ReadonlySet<string> = new Set([
  'NestFactory',
  'InstanceLoader',
  'RoutesResolver',
  'RouterExplorer',
  'NestApplication',
]);

/**
 * The logger Nest writes through (nestjs-pino's, given as `inner`), with Nest's start-up lines,
 * some 150 on each start of the API, at debug instead of info: at the default level a start then
 * prints the application's own lines only. So is Nest's line for a failed listen, which the entry
 * point reports itself. Every other line passes through unchanged.
 */
export class NestLogger implements LoggerService {
  constructor(private readonly inner: Required<Omit<LoggerService, 'setLogLevels'>>) {}

  log(message: unknown, ...optionalParams: unknown[]): void {
    const context = optionalParams[optionalParams.length - 1];
    if (typeof context === 'string' && BOOT_CONTEXTS.has(context)) {
      this.inner.debug(message, ...optionalParams);
    } else {
      this.inner.log(message, ...optionalParams);
    }
  }

  error(message: unknown, ...optionalParams: unknown[]): void {
    const context = optionalParams[optionalParams.length - 1];
    // Nest logs a failed listen before it rejects app.listen(), whose caller reports the failure
    // in one line naming PORT: a second line saying the same would be noise.
    if (
      context === 'NestApplication' &&
      typeof message === 'string' &&
      /^Error: listen /.test(message)
    ) {
      this.inner.debug(message, ...optionalParams);
    } else {
      this.inner.error(message, ...optionalParams);
    }
  }

  warn(message: unknown, ...optionalParams: unknown[]): void {
    this.inner.warn(message, ...optionalParams);
  }

  debug(message: unknown, ...optionalParams: unknown[]): void {
    this.inner.debug(message, ...optionalParams);
  }

  verbose(message: unknown, ...optionalParams: unknown[]): void {
    this.inner.verbose(message, ...optionalParams);
  }

  fatal(message: unknown, ...optionalParams: unknown[]): void {
    this.inner.fatal(message, ...optionalParams);
  }
}
