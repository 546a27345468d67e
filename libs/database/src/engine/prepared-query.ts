import { type EntityManager, QueryFailedError } from 'typeorm';
import { prepared, sqliteConnection } from '../db-values';

/** The pg pool under TypeORM's PostgreSQL driver, as far as it is used here. */
interface PgPool {
  query(config: {
    name: string;
    text: string;
    values: readonly unknown[];
  }): Promise<{ rows: Array<Record<string, unknown>> }>;
}

/** One statement name per SQL text, for the process's lifetime. */
const names = new Map<string, string>();

/**
 * Runs a read whose SQL text never changes (the reads of nearly every API request). On PostgreSQL,
 * outside a transaction, it goes to the pool as a named prepared statement: each pooled connection
 * parses and plans it once, and then only executes it. GET /v1/user's usage query (ten counts)
 * took 540 µs a call unnamed and 256 µs prepared, most of it planning. On SQLite, outside a
 * transaction, the statement runs at once on the driver's one connection (where `em.query` runs
 * it too, so it sees what that would see): TypeORM's path to the same statement (data source,
 * entity manager, query runner, statement cache, logger and broadcaster) made about a dozen
 * promises and cost more than SQLite's own work for these lookups by key. In a transaction it is
 * `em.query`.
 *
 * Behind PgBouncer this needs session pooling, or PgBouncer 1.21 or later with
 * `max_prepared_statements` set (docs/scaling.md).
 */
export function queryPrepared(
  em: EntityManager,
  text: string,
  values: readonly unknown[],
): Promise<Array<Record<string, unknown>>> {
  if (em.queryRunner === undefined) {
    if (em.connection.options.type === 'better-sqlite3') return querySqlite(em, text, values);
    if (em.connection.options.type === 'postgres') return queryPostgres(em, text, values);
  }
  return em.query(text, [...values]);
}

async function queryPostgres(
  em: EntityManager,
  text: string,
  values: readonly unknown[],
): Promise<Array<Record<string, unknown>>> {
  let name = names.get(text);
  if (name === undefined) {
    name = `linkdock_${names.size + 1}`;
    names.set(text, name);
  }
  const pool = (em.connection.driver as unknown as { master: PgPool }).master;
  try {
    return (await pool.query({ name, text, values })).rows;
  } catch (error) {
    // As em.query reports a failed statement, so that callers see the same error either way.
    throw new QueryFailedError(text, [...values], error as Error);
  }
}

async function querySqlite(
  em: EntityManager,
  text: string,
  values: readonly unknown[],
): Promise<Array<Record<string, unknown>>> {
  const connection = sqliteConnection(em.connection);
  if (connection === null) return em.query(text, [...values]);
  // A statement that does not compile fails with SQLite's own error, as in TypeORM's runner.
  const statement = prepared(connection, text);
  // Reads only: anything else takes TypeORM's path (and the write lock, sqlite-transactions).
  if (!statement.reader) return em.query(text, [...values]);
  try {
    return statement.all(...values) as Array<Record<string, unknown>>;
  } catch (error) {
    // As em.query reports a statement that failed to run, so that callers see the same error.
    throw new QueryFailedError(text, [...values], error as Error);
  }
}
