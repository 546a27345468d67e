import { dirname, isAbsolute, join, relative, resolve } from 'node:path';
import type { AppConfig } from './app-config';
import { ConfigError } from './load-config';

/** Codes of a file system that refuses a path. */
const PATH_CODES: Record<string, string> = {
  ENOTDIR: 'a part of the path is a file, not a directory',
  EEXIST: 'it is a file, not a directory',
  EACCES: 'permission denied',
  EPERM: 'operation not permitted',
  EROFS: 'the file system is read-only',
  ENOSPC: 'no space left on the device',
  EISDIR: 'a directory is in the way',
};

/** Codes of a connection that could not be made. */
const NETWORK_CODES = new Set([
  'ECONNREFUSED',
  'ECONNRESET',
  'ETIMEDOUT',
  'EHOSTUNREACH',
  'ENETUNREACH',
  'ENOTFOUND',
  'EAI_AGAIN',
]);

interface SystemError {
  code?: unknown;
  syscall?: unknown;
  path?: unknown;
  port?: unknown;
  address?: unknown;
  message?: unknown;
}

/** A URL with its password replaced by `***`, for messages and logs. */
export function maskUrl(url: string): string {
  try {
    const parsed = new URL(url);
    if (parsed.password === '') return url;
    parsed.password = '***';
    return parsed.toString();
  } catch {
    return url.replace(/\/\/([^:/@]*):[^@/]*@/, '//$1:***@');
  }
}

/**
 * The one line that says why a start failed and which variable to change, without the process's
 * name (`Linkdock cannot start: ` goes before it). `config` is undefined when loading it failed.
 */
export function describeStartupFailure(error: unknown, config?: AppConfig): string {
  if (error instanceof ConfigError) {
    return error.message;
  }
  const system = (typeof error === 'object' && error !== null ? error : {}) as SystemError;
  const code = typeof system.code === 'string' ? system.code : undefined;
  const message = firstLine(error);
  if (config && code) {
    const listening = describeListenFailure(system, code, config);
    if (listening) return listening;
    const path = typeof system.path === 'string' ? system.path : undefined;
    const variable = path && code in PATH_CODES ? pathVariable(path, config) : undefined;
    if (path && variable) {
      return `${variable}: cannot use ${path} (${code}: ${PATH_CODES[code]})`;
    }
    if (code === 'SQLITE_CANTOPEN' && config.database.type === 'sqlite') {
      const file = config.database.path;
      return `${pathVariable(file, config) ?? 'DATA_DIR'}: cannot open the SQLite database ${file}`;
    }
    if (config.database.type === 'postgres' && (NETWORK_CODES.has(code) || isPostgresError(code))) {
      const why = NETWORK_CODES.has(code) ? code : message;
      return `DATABASE_URL: cannot connect to ${maskUrl(config.database.url)} (${why})`;
    }
  }
  return message;
}

/**
 * Writes the start's failure to stderr: one line, and the stack only with LOG_LEVEL debug or
 * trace. A configuration error keeps its own words ("Invalid configuration:" and a line a problem).
 */
export function reportStartupFailure(name: string, error: unknown, config?: AppConfig): void {
  const level = config?.logLevel ?? process.env.LOG_LEVEL;
  const described = describeStartupFailure(error, config);
  const line = `${error instanceof ConfigError ? described : `${name} cannot start: ${described}`}\n`;
  const stack =
    (level === 'debug' || level === 'trace') && error instanceof Error && error.stack
      ? `${error.stack}\n`
      : '';
  process.stderr.write(line + stack);
}

function describeListenFailure(
  error: SystemError,
  code: string,
  config: AppConfig,
): string | undefined {
  if (error.syscall !== 'listen' || typeof error.port !== 'number') {
    return undefined;
  }
  const variable = error.port === config.metrics.port ? 'METRICS_PORT' : 'PORT';
  const on = typeof error.address === 'string' ? error.address : config.host;
  switch (code) {
    case 'EADDRINUSE':
      return `${variable} ${error.port} is already in use on ${on}`;
    case 'EACCES':
      return `${variable} ${error.port} cannot be bound on ${on}: permission denied (ports below 1024 need privileges)`;
    case 'EADDRNOTAVAIL':
      return `HOST ${on} is not an address of this machine`;
    default:
      return undefined;
  }
}

/** DATA_DIR for paths in it, DATABASE_URL for those of a SQLite file it puts elsewhere. */
function pathVariable(path: string, config: AppConfig): string | undefined {
  const within = (dir: string) => {
    const rest = relative(resolve(dir), resolve(path));
    return rest === '' || (!rest.startsWith('..') && !isAbsolute(rest));
  };
  const database = config.database;
  if (database.type === 'sqlite' && database.path !== join(config.dataDir, 'linkdock.sqlite')) {
    if (within(dirname(database.path))) return 'DATABASE_URL';
  }
  return within(config.dataDir) ? 'DATA_DIR' : undefined;
}

/** PostgreSQL's own refusals (SQLSTATE classes 08 connection, 28 authorisation, 3D no database). */
function isPostgresError(code: string): boolean {
  return /^(08|28|3D)[0-9A-Z]{3}$/.test(code);
}

function firstLine(error: unknown): string {
  const text = error instanceof Error ? error.message : String(error);
  return text.split('\n')[0];
}
