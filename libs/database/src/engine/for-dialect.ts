import type { BatchWriter } from './batch';
import type { MonthClose } from './close-month';
import type { Db } from './db';
import type { OutboxDispatch } from './outbox-dispatch';
import { postgresBatchWriter } from './postgres/batch';
import { closeMonthPostgres } from './postgres/close-month';
import { postgresOutboxDispatch } from './postgres/outbox-dispatch';
import { writeUpsertsPostgres } from './postgres/upsert-rows';
import { sqliteBatchWriter } from './sqlite/batch';
import { closeMonthSqlite, SQLITE_CLOSE_OWNERS } from './sqlite/close-month';
import { sqliteOutboxDispatch } from './sqlite/outbox-dispatch';
import { sqliteConnection } from './sqlite/sqlite-connection';
import type { SqliteWriteLock } from './sqlite/sqlite-write-lock';
import { sqliteUpserts } from './sqlite/upsert-rows';
import type { RowUpserts, UpsertTarget } from './upsert-rows';

/*
 * Where each mechanism that differs between the dialects is chosen: the callers (the roll-up
 * backfill, closing a month, the outbox dispatcher, the visit writer's batches) take
 * the dialect-neutral interface and never ask which database runs. The implementations are in
 * sqlite/ and postgres/, a file each (docs/architecture.md lists them).
 */

/**
 * The dialect's upserts on `q`: on SQLite prepared statements on the driver's connection (the
 * visit writer thread uses sqliteUpserts synchronously, inside its own transaction), on
 * PostgreSQL one statement per table.
 */
export function rowUpsertsFor(q: UpsertTarget): RowUpserts {
  const connection = sqliteConnection(q.connection);
  if (connection !== null) {
    const sqlite = sqliteUpserts(connection);
    return { write: (batches) => Promise.resolve(sqlite.write(batches)) };
  }
  return { write: (batches) => writeUpsertsPostgres(q, batches) };
}

/**
 * Closes a month in the caller's write (rollups/closed-months.ts): on PostgreSQL under the mark's
 * advisory lock, on SQLite `ownersPerStatement` owners a statement (SQLITE_CLOSE_OWNERS unless
 * given) with requests served in between.
 */
export function closeMonthIn(
  db: Db,
  close: MonthClose,
  ownersPerStatement = SQLITE_CLOSE_OWNERS,
): Promise<boolean> {
  return db.dialect === 'postgres'
    ? closeMonthPostgres(db, close)
    : closeMonthSqlite(db, close, ownersPerStatement);
}

/** The dispatcher's statements on the outbox (events/deliveries.repository.ts). */
export function outboxDispatchFor(db: Db): OutboxDispatch {
  return db.dialect === 'postgres' ? postgresOutboxDispatch(db) : sqliteOutboxDispatch(db);
}

/**
 * Batch writes on `db` (batch.ts; the visit writer's): on SQLite synchronous on the connection,
 * holding `lock()` (the write lock shared with the other threads, where this is one) around each;
 * on PostgreSQL in a Db.write.
 */
export function batchWriterFor(db: Db, lock: () => SqliteWriteLock | null): BatchWriter {
  const connection = sqliteConnection(db.dataSource);
  return connection === null ? postgresBatchWriter(db) : sqliteBatchWriter(connection, lock);
}
