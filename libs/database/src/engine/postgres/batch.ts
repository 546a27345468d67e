import {
  type AddTo,
  type Batch,
  type BatchColumn,
  type BatchStep,
  type BatchWriter,
  type InsertInto,
  type RowsById,
  runStepsAsync,
} from '../batch';
import type { Db } from '../db';
import { writeUpsertsPostgres } from './upsert-rows';

/**
 * Batches on PostgreSQL (engine/batch.ts): each step awaited in one Db.write on a pooled
 * connection, as one statement whatever the number of rows (one array per column and unnest():
 * as many parameters as columns, which costs the driver far less than one per value). Several
 * instances write concurrently: rows are locked in id order.
 */
export function postgresBatchWriter(db: Db): BatchWriter {
  const run = (step: BatchStep): Promise<unknown> => {
    const q = db.manager;
    switch (step.kind) {
      case 'hold-shared':
        return q.query('SELECT pg_advisory_xact_lock_shared($1)', [step.lock]);
      case 'notify':
        return q.query(`NOTIFY ${step.channel}`);
      case 'select':
        return q.query(step.sql);
      case 'rows-by-id':
        return q.query(rowsById(step.query), [[...step.ids]]);
      case 'add-to': {
        const columns = [...step.update.keys, ...step.update.adds];
        return q
          .query<[unknown[], number]>(addTo(step.update), arrays(columns, step.rows))
          .then(([rows]) => rows);
      }
      case 'insert':
        return q.query(insertInto(step.into), arrays(step.into.columns, step.rows));
      case 'upsert':
        return writeUpsertsPostgres(q, step.batches);
    }
  };
  return {
    serialised: false,
    busy: () => false,
    run: <T>(work: () => Batch<T>) => db.write(() => runStepsAsync(work(), run)),
  };
}

function rowsById(query: RowsById): string {
  const lock = query.lock === undefined ? '' : ` FOR UPDATE OF ${query.lock}`;
  return `${query.select} WHERE ${query.id} = ANY($1::int[]) ORDER BY ${query.id}${lock}`;
}

/** One UPDATE … FROM unnest() for all the rows, given in the order they are to be locked in. */
function addTo(update: AddTo): string {
  const columns = [...update.keys, ...update.adds];
  const names = columns.map((c) => `"${c.name}"`).join(', ');
  const set = update.adds.map((c) => `"${c.name}" = t."${c.name}" + v."${c.name}"`).join(', ');
  const where = update.keys.map((c) => `t."${c.name}" = v."${c.name}"`).join(' AND ');
  const returning = update.returning.map((c) => `t."${c}"`).join(', ');
  return `UPDATE "${update.table}" t SET ${set} FROM ${unnest(columns)} AS v(${names})
    WHERE ${where} RETURNING ${returning}`;
}

function insertInto(into: InsertInto): string {
  const names = into.columns.map((c) => `"${c.name}"`).join(', ');
  return `INSERT INTO "${into.table}" (${names}) SELECT * FROM ${unnest(into.columns)}`;
}

function unnest(columns: readonly BatchColumn[]): string {
  return `unnest(${columns.map((c, i) => `$${i + 1}::${c.type}[]`).join(', ')})`;
}

/** The rows' values as one array per column. */
function arrays(
  columns: readonly BatchColumn[],
  rows: readonly (readonly unknown[])[],
): unknown[][] {
  return columns.map((_, c) => rows.map((row) => row[c]));
}
