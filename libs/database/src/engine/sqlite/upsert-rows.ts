import type BetterSqlite3 from 'better-sqlite3';
import type { UpsertRows } from '../upsert-rows';

const ROWS_PER_STATEMENT = 64;

/** Upserts written synchronously, inside the connection's open transaction. */
export interface SqliteUpserts {
  write(batches: readonly UpsertRows[]): void;
}

/**
 * Prepared statements on the better-sqlite3 connection; call `write` inside its transaction. Each
 * table's statement is prepared when it first has rows (the migration that backfills the first
 * roll-up tables runs before the month tables exist).
 */
export function sqliteUpserts(db: BetterSqlite3.Database): SqliteUpserts {
  // By table and number of rows: the SQL of a 64-row upsert is a few kilobytes, too long to build
  // and look up by its text for every chunk.
  const prepared = new Map<string, BetterSqlite3.Statement>();
  // Up to ROWS_PER_STATEMENT rows per upsert: each call into the driver costs about as much as
  // SQLite's own work for a row, so a multi-row VALUES list pays it once per chunk.
  const run = (batch: UpsertRows): void => {
    const placeholders = `(${batch.types.map(() => '?').join(', ')})`;
    for (let i = 0; i < batch.count; i += ROWS_PER_STATEMENT) {
      const count = Math.min(ROWS_PER_STATEMENT, batch.count - i);
      const key = `${batch.table} ${count}`;
      let statement = prepared.get(key);
      if (statement === undefined) {
        statement = db.prepare(
          batch.statement(`VALUES ${Array(count).fill(placeholders).join(', ')}`),
        );
        prepared.set(key, statement);
      }
      const values: unknown[] = [];
      for (let j = i; j < i + count; j += 1) batch.values(j, values);
      statement.run(values);
    }
  };
  return {
    write(batches) {
      for (const batch of batches) run(batch);
    },
  };
}
