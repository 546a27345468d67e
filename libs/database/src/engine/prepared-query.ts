import { type DataSource, type EntityManager, QueryFailedError } from 'typeorm';
import { prepared, sqliteConnection } from './sqlite/sqlite-connection';

/** A row as the driver returns it. */
export type Row = Record<string, unknown>;

/** A statement whose SQL text never changes, run with new values each time (`Db.prepared`). */
export interface PreparedQuery {
  /** Runs the statement; the rows it returns (none for a write without RETURNING). */
  all(values?: readonly unknown[]): Promise<Row[]>;
}

/** A pg pool or pooled client, as far as it is used here. */
interface PgQueryable {
  query(config: { name: string; text: string; values: readonly unknown[] }): Promise<{
    rows: Row[];
  }>;
}

/** One statement name per SQL text, for the process's lifetime. */
const names = new Map<string, string>();

function statementName(text: string): string {
  let name = names.get(text);
  if (name === undefined) {
    name = `linkdock_${names.size + 1}`;
    names.set(text, name);
  }
  return name;
}

/**
 * Runs statements whose SQL text never changes (the reads and writes of nearly every API request).
 * On PostgreSQL each goes as a named prepared statement, to the pool outside a write and to the
 * write's own connection inside one: each connection parses and plans it once, and then only
 * executes it. GET /v1/user's usage query (ten counts) took 540 µs a call unnamed and 256 µs
 * prepared, most of it planning. On SQLite the statement runs at once on the driver's one
 * connection, where a write's transaction is open when there is one: TypeORM's path to the same
 * statement (data source, entity manager, query runner, statement cache, logger and broadcaster)
 * made about a dozen promises and cost more than SQLite's own work for these lookups by key.
 *
 * Behind PgBouncer this needs session pooling, or PgBouncer 1.21 or later with
 * `max_prepared_statements` set (docs/scaling.md).
 */
export function runPrepared(
  dataSource: DataSource,
  em: EntityManager,
  text: string,
  values: readonly unknown[],
): Promise<Row[]> {
  const type = dataSource.options.type;
  if (type === 'better-sqlite3') return runSqlite(dataSource, em, text, values);
  if (type === 'postgres') {
    const pg = (em.queryRunner ?? dataSource.driver) as unknown as {
      databaseConnection?: PgQueryable;
      master?: PgQueryable;
    };
    const target = em.queryRunner ? pg.databaseConnection : pg.master;
    if (target !== undefined) return runPostgres(target, text, values);
  }
  return em.query(text, [...values]);
}

async function runPostgres(
  target: PgQueryable,
  text: string,
  values: readonly unknown[],
): Promise<Row[]> {
  try {
    return (await target.query({ name: statementName(text), text, values })).rows;
  } catch (error) {
    // As em.query reports a failed statement, so that callers see the same error either way.
    throw new QueryFailedError(text, [...values], error as Error);
  }
}

async function runSqlite(
  dataSource: DataSource,
  em: EntityManager,
  text: string,
  values: readonly unknown[],
): Promise<Row[]> {
  const connection = sqliteConnection(dataSource);
  if (connection === null) return em.query(text, [...values]);
  // A statement that does not compile fails with SQLite's own error, as in TypeORM's runner.
  const statement = prepared(connection, text);
  try {
    if (statement.reader) return statement.all(...values) as Row[];
    statement.run(...values);
    return [];
  } catch (error) {
    // As em.query reports a statement that failed to run, so that callers see the same error.
    throw new QueryFailedError(text, [...values], error as Error);
  }
}

/** Whether `text` only reads (SQLite: as the statement says of itself; PostgreSQL: its verb). */
export function readsOnly(dataSource: DataSource, text: string): boolean {
  const connection = sqliteConnection(dataSource);
  if (connection !== null) return prepared(connection, text).readonly;
  return /^\s*SELECT\b/i.test(text);
}
