import type BetterSqlite3 from 'better-sqlite3';
import {
  type AddTo,
  type Batch,
  type BatchStep,
  type BatchWriter,
  type InsertInto,
  type RowsById,
  runSteps,
} from '../batch';
import { prepared, sqliteBindable } from './sqlite-connection';
import type { SqliteWriteLock } from './sqlite-write-lock';
import { sqliteUpserts } from './upsert-rows';

/**
 * Batches on SQLite (engine/batch.ts): each runs synchronously in one better-sqlite3 transaction
 * (BEGIN IMMEDIATE) on the connection, its steps as prepared statements a row at a time (each call
 * into the driver costs about as much as SQLite's work for a short row, and no statement text
 * grows with the batch). Nothing can interleave with it on this thread; `lock()`, the write lock
 * shared with the other threads on the same file (the visit writer thread's), is held around it.
 */
export function sqliteBatchWriter(
  db: BetterSqlite3.Database,
  lock: () => SqliteWriteLock | null,
): BatchWriter {
  const upserts = sqliteUpserts(db);
  const run = (step: BatchStep): unknown => {
    switch (step.kind) {
      case 'hold-shared':
      case 'notify':
        return undefined;
      case 'select':
        return prepared(db, step.sql).all();
      case 'rows-by-id':
        return rowsById(db, step.query, step.ids);
      case 'add-to':
        return addTo(db, step.update, step.rows);
      case 'insert':
        return insertInto(db, step.into, step.rows);
      case 'upsert':
        return upserts.write(step.batches);
    }
  };
  // better-sqlite3's own synchronous transaction: the engine is where transactions are opened.
  const transaction = db.transaction(<T>(work: () => Batch<T>): T => runSteps(work(), run));
  return {
    serialised: true,
    busy: () => db.inTransaction,
    // Async only so that an error is a rejection, as on PostgreSQL: nothing in it awaits.
    // eslint-disable-next-line @typescript-eslint/require-await
    async run<T>(work: () => Batch<T>): Promise<T> {
      const held = lock();
      held?.acquireBlocking();
      try {
        return transaction.immediate(work) as T;
      } finally {
        held?.release();
      }
    },
  };
}

function rowsById(db: BetterSqlite3.Database, query: RowsById, ids: readonly number[]): unknown[] {
  const statement = prepared(db, `${query.select} WHERE ${query.id} = ?`);
  const rows: unknown[] = [];
  for (const id of [...new Set(ids)].sort((a, b) => a - b)) {
    const row: unknown = statement.get(id);
    if (row !== undefined) rows.push(row);
  }
  return rows;
}

function addTo(
  db: BetterSqlite3.Database,
  update: AddTo,
  rows: readonly (readonly unknown[])[],
): unknown[] {
  const set = update.adds.map((c) => `"${c.name}" = "${c.name}" + ?`).join(', ');
  const where = update.keys.map((c) => `"${c.name}" = ?`).join(' AND ');
  const returning = update.returning.map((c) => `"${c}"`).join(', ');
  // The added values come first in the statement, the keys' after.
  const statement = prepared(
    db,
    `UPDATE "${update.table}" SET ${set} WHERE ${where} RETURNING ${returning}`,
  );
  const keys = update.keys.length;
  const updated: unknown[] = [];
  for (const row of rows) {
    const found: unknown = statement.get(...row.slice(keys), ...row.slice(0, keys));
    if (found !== undefined) updated.push(found);
  }
  return updated;
}

function insertInto(
  db: BetterSqlite3.Database,
  into: InsertInto,
  rows: readonly (readonly unknown[])[],
): void {
  const columns = into.columns.map((c) => `"${c.name}"`).join(', ');
  const statement = prepared(
    db,
    `INSERT INTO "${into.table}" (${columns}) VALUES (${into.columns.map(() => '?').join(', ')})`,
  );
  // One array for every row.
  const values = new Array<unknown>(into.columns.length);
  for (const row of rows) {
    for (let i = 0; i < values.length; i += 1) values[i] = sqliteBindable(row[i]);
    statement.run(values);
  }
}
