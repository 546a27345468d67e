import type { UpsertRows } from './upsert-rows';

/*
 * A batch write: one transaction of many rows whose statements must not wait on the event loop on
 * SQLite (the visit writer's batches, tens of thousands of visits a second: awaiting each
 * statement would cost more than SQLite's own work, and nothing may interleave on the one
 * connection), and are awaited on PostgreSQL. The caller writes its work once, as a generator that
 * yields each step below and receives its result; the dialect's runner executes the steps
 * (sqlite/batch.ts: synchronously, in one better-sqlite3 transaction; postgres/batch.ts: each
 * awaited in a Db.write). The steps say what to do with which rows; how (a prepared statement per
 * row or unnest() arrays, row locks, advisory locks, NOTIFY) is the runner's.
 */

/** A column of a step's rows: its name and PostgreSQL's type for it (unnest()'s arrays are cast to it). */
export interface BatchColumn {
  name: string;
  type: 'int' | 'bigint' | 'varchar' | 'text' | 'timestamp' | 'boolean';
}

/** Rows to insert into `table`, their values in the order of `columns`. */
export interface InsertInto {
  table: string;
  columns: readonly BatchColumn[];
}

/**
 * Adds values to columns of existing rows: `SET add = add + value` on the row whose `keys` have the
 * given values (the keys name at most one row: they include its primary key). Each row's values
 * are the keys', then the added ones. Returns the `returning` columns of each row updated, in no
 * particular order. Rows are updated in the order given: give them in the order concurrent
 * writers lock them in.
 */
export interface AddTo {
  table: string;
  keys: readonly BatchColumn[];
  adds: readonly BatchColumn[];
  returning: readonly string[];
}

/**
 * Rows read by their integer id: `select` is a SELECT … FROM … without a WHERE, `id` the id column
 * as the select names it. `lock`, the select's alias of a table, locks that table's rows until the
 * batch commits (FOR UPDATE OF, in id order), where writers can run concurrently.
 */
export interface RowsById {
  select: string;
  id: string;
  lock?: string;
}

/** One step of a batch, as the generator yields it. */
export type BatchStep =
  | { kind: 'hold-shared'; lock: number }
  | { kind: 'select'; sql: string }
  | { kind: 'rows-by-id'; query: RowsById; ids: readonly number[] }
  | { kind: 'add-to'; update: AddTo; rows: readonly (readonly unknown[])[] }
  | { kind: 'insert'; into: InsertInto; rows: readonly (readonly unknown[])[] }
  | { kind: 'upsert'; batches: readonly UpsertRows[] }
  | { kind: 'notify'; channel: string };

/** A batch's work: yields steps, gets each one's result back, returns the batch's result. */
export type Batch<T> = Generator<BatchStep, T, unknown>;

/** Runs batches in the dialect's way (for-dialect.ts batchWriterFor). */
export interface BatchWriter {
  /**
   * Whether batches never run concurrently with another write (SQLite's one writer): rows need
   * no common order to be locked in.
   */
  readonly serialised: boolean;
  /** Whether `run` would have to wait: another transaction holds SQLite's connection. */
  busy(): boolean;
  /** Runs `work` as one transaction, all or nothing. */
  run<T>(work: () => Batch<T>): Promise<T>;
}

/*
 * The steps, for `yield*` in a batch: each yields one step and returns its result typed.
 */

/**
 * Holds an advisory lock shared until the batch commits (PostgreSQL; SQLite's batches take turns
 * with every other write, which holds it as well).
 */
export function* holdShared(lock: number): Batch<void> {
  yield { kind: 'hold-shared', lock };
}

/*
 * Rows come as the driver gives them (on PostgreSQL bigint columns as text): `R` is the caller's
 * description of them, not checked.
 */

/** A read without parameters, the same SQL on both dialects. */
export function* select<R>(sql: string): Batch<R[]> {
  return (yield { kind: 'select', sql }) as R[];
}

/** The rows of these ids (each once), in id order. */
export function* rowsById<R>(query: RowsById, ids: readonly number[]): Batch<R[]> {
  if (ids.length === 0) return [];
  return (yield { kind: 'rows-by-id', query, ids }) as R[];
}

/** Adds to existing rows (see AddTo); the rows updated. */
export function* addTo<R>(update: AddTo, rows: readonly (readonly unknown[])[]): Batch<R[]> {
  if (rows.length === 0) return [];
  return (yield { kind: 'add-to', update, rows }) as R[];
}

/** Inserts rows. Values are as both drivers bind them (datetimes as db-values' text); booleans too. */
export function* insertInto(into: InsertInto, rows: readonly (readonly unknown[])[]): Batch<void> {
  if (rows.length === 0) return;
  yield { kind: 'insert', into, rows };
}

/** Writes roll-up upserts (upsert-rows.ts). */
export function* upsert(batches: readonly UpsertRows[]): Batch<void> {
  yield { kind: 'upsert', batches };
}

/** Notifies `channel` when the batch commits (PostgreSQL's LISTEN; nothing on SQLite). */
export function* notify(channel: string): Batch<void> {
  yield { kind: 'notify', channel };
}

/** Runs a batch's steps one after the other with `run`, synchronously. */
export function runSteps<T>(batch: Batch<T>, run: (step: BatchStep) => unknown): T {
  let next = batch.next();
  while (next.done !== true) next = batch.next(run(next.value));
  return next.value;
}

/** Runs a batch's steps one after the other with `run`, each awaited. */
export async function runStepsAsync<T>(
  batch: Batch<T>,
  run: (step: BatchStep) => Promise<unknown>,
): Promise<T> {
  let next = batch.next();
  while (next.done !== true) next = batch.next(await run(next.value));
  return next.value;
}
