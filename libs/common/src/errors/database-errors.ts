import { QueryFailedError } from 'typeorm';
import { AppError } from './app-error';

interface DriverError {
  code?: unknown;
  message?: unknown;
  detail?: unknown;
  column?: unknown;
}

/**
 * Translates constraint violations from SQLite and PostgreSQL into client errors. Services check
 * the common cases first; this is the safety net for races and anything they did not foresee.
 * Returns null for anything that is a server fault.
 */
export function translateDatabaseError(error: unknown): AppError | null {
  if (!(error instanceof QueryFailedError)) {
    return null;
  }
  const driver = (error as QueryFailedError & { driverError?: DriverError }).driverError ?? {};
  const code = typeof driver.code === 'string' ? driver.code : '';
  const message = typeof driver.message === 'string' ? driver.message : '';
  const detail = typeof driver.detail === 'string' ? driver.detail : '';

  if (
    code === 'SQLITE_CONSTRAINT_UNIQUE' ||
    code === 'SQLITE_CONSTRAINT_PRIMARYKEY' ||
    code === '23505'
  ) {
    const field = uniqueField(message, detail);
    return new AppError(
      'already_exists',
      field ? `The ${field} is already taken; choose another.` : 'This value is already taken.',
      field,
    );
  }
  if (code === 'SQLITE_CONSTRAINT_FOREIGNKEY' || code === '23503') {
    const field = /Key \(([^)]+)\)/.exec(detail)?.[1];
    return new AppError('invalid_reference', 'A referenced resource does not exist.', field);
  }
  if (code === 'SQLITE_CONSTRAINT_NOTNULL' || code === '23502') {
    const field =
      /NOT NULL constraint failed: \w+\.(\w+)/.exec(message)?.[1] ??
      (typeof driver.column === 'string' ? driver.column : undefined);
    return new AppError('validation_failed', `${field ?? 'A required field'} is required.`, field);
  }
  if (code === '22021' || code === '22P05') {
    // PostgreSQL: a NUL or a character the database encoding lacks. Input is checked first; this
    // is the safety net.
    return new AppError('validation_failed', 'A value has a character that cannot be stored.');
  }
  if (code === '22001') {
    return new AppError('validation_failed', 'A value is longer than its field allows.');
  }
  return null;
}

function uniqueField(message: string, detail: string): string | undefined {
  // SQLite: "UNIQUE constraint failed: users.email" (last column of a composite key wins)
  const sqlite = /UNIQUE constraint failed: (.+)$/.exec(message)?.[1];
  if (sqlite) {
    return sqlite.split(',').pop()?.trim().split('.').pop();
  }
  // PostgreSQL: 'Key (domain_id, url)=(0, abc) already exists.'
  const pg = /Key \(([^)]+)\)=/.exec(detail)?.[1];
  return pg?.split(',').pop()?.trim().replace(/"/g, '');
}

/**
 * Whether a failed write is the data's fault (it would fail again the same way), not the
 * database's: SQLSTATE classes 21 (cardinality), 22 (data) and 23 (integrity) on PostgreSQL, and
 * SQLite's constraint, type and size errors.
 */
export function isDataError(error: unknown): boolean {
  const own = (error as { code?: unknown } | null)?.code;
  const driver = (error as { driverError?: { code?: unknown } } | null)?.driverError?.code;
  const code = typeof driver === 'string' ? driver : typeof own === 'string' ? own : '';
  return (
    /^2[123][0-9A-Z]{3}$/.test(code) || /^SQLITE_(CONSTRAINT|MISMATCH|TOOBIG|RANGE)/.test(code)
  );
}

/** Seconds a client is asked to wait while the database is unreachable. */
export const DATABASE_RETRY_AFTER_SECONDS = 5;

/** Socket failures of reaching the database server. */
const NETWORK_CODES = new Set([
  'ECONNREFUSED',
  'ECONNRESET',
  'ECONNABORTED',
  'EPIPE',
  'ETIMEDOUT',
  'EHOSTUNREACH',
  'ENETUNREACH',
  'ENOTFOUND',
  'EAI_AGAIN',
]);

/**
 * PostgreSQL SQLSTATEs of a server that is going away or not taking connections: class 08
 * (connection exception), 57P01-57P03 (admin or crash shutdown, cannot connect now), 53300 (too
 * many connections). SQLite's busy database (another process holds the write lock past the busy
 * timeout) and a file it cannot open are the same for a client: try again shortly.
 */
const UNAVAILABLE_CODE =
  /^(08[0-9A-Z]{3}|57P0[123]|53300|SQLITE_BUSY(_\w+)?|SQLITE_CANTOPEN(_\w+)?)$/;

/** Messages of pg and pg-pool for a connection lost or never made (they carry no code). */
const UNAVAILABLE_MESSAGE =
  /^(Connection terminated|timeout exceeded when trying to connect|Client has encountered a connection error|Cannot use a pool after calling end)/;

/**
 * Whether the failure is the database being unreachable (down, restarting, its connections cut),
 * not anything about the request: then the answer is a 503 with Retry-After. Looks through
 * TypeORM's QueryFailedError to the driver's error, and into an AggregateError (a host name that
 * resolves to several addresses, each refused).
 */
export function isDatabaseUnavailable(error: unknown, depth = 0): boolean {
  if (typeof error !== 'object' || error === null || depth > 3) {
    return false;
  }
  const { code, message, driverError, errors } = error as {
    code?: unknown;
    message?: unknown;
    driverError?: unknown;
    errors?: unknown;
  };
  if (typeof code === 'string' && (NETWORK_CODES.has(code) || UNAVAILABLE_CODE.test(code))) {
    return true;
  }
  if (typeof message === 'string' && UNAVAILABLE_MESSAGE.test(message)) {
    return true;
  }
  if (driverError !== undefined && isDatabaseUnavailable(driverError, depth + 1)) {
    return true;
  }
  return Array.isArray(errors) && errors.some((inner) => isDatabaseUnavailable(inner, depth + 1));
}
