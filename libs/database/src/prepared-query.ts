import { type EntityManager, QueryFailedError } from 'typeorm';

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
 * took 540 µs a call unnamed and 256 µs prepared, most of it planning. In a transaction, and on
 * SQLite (whose driver caches its prepared statements itself), it is `em.query`.
 *
 * Behind PgBouncer this needs session pooling, or PgBouncer 1.21 or later with
 * `max_prepared_statements` set (docs/scaling.md).
 */
export async function queryPrepared(
  em: EntityManager,
  text: string,
  values: readonly unknown[],
): Promise<Array<Record<string, unknown>>> {
  if (em.connection.options.type !== 'postgres' || em.queryRunner !== undefined) {
    return em.query(text, [...values]);
  }
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
