import type BetterSqlite3 from 'better-sqlite3';
import {
  DIMENSION_TABLES,
  type DimensionTable,
  dimensionKey,
  QUARTER_TABLES,
  type Table,
} from '../statistics/stat-tables';
import type { DimensionRow, QuarterRow, Rollups } from './rollups';

/* Adds roll-up rows to the tables, inside the caller's transaction: an upsert per row. */

/** The roll-up rows of each dimension table. */
const DIMENSION_ROWS = [
  [DIMENSION_TABLES.link, (r: Rollups) => r.linkDimensions],
  [DIMENSION_TABLES.user, (r: Rollups) => r.userDimensions],
  [DIMENSION_TABLES.linkMonth, (r: Rollups) => r.linkMonths],
  [DIMENSION_TABLES.userMonth, (r: Rollups) => r.userMonths],
] as const;

function quarterUpsert(table: Table, values: string): string {
  return `INSERT INTO "${table.name}" ("${table.scope}", "bucket", "pageviews", "visitors") ${values}
    ON CONFLICT ("${table.scope}", "bucket") DO UPDATE SET
      "pageviews" = "${table.name}"."pageviews" + excluded."pageviews",
      "visitors" = "${table.name}"."visitors" + excluded."visitors"`;
}

function dimensionUpsert(table: DimensionTable, values: string): string {
  const key = [table.scope, ...dimensionKey(table)].map((c) => `"${c}"`).join(', ');
  return `INSERT INTO "${table.name}" (${key}, "pageviews") ${values}
    ON CONFLICT (${key}) DO UPDATE SET
      "pageviews" = "${table.name}"."pageviews" + excluded."pageviews"`;
}

const ROWS_PER_STATEMENT = 64;

export interface SqliteRollupWriter {
  write(rollups: Rollups): void;
}

/**
 * Prepared statements on the better-sqlite3 connection; call `write` inside its transaction. Each
 * table's statement is prepared when it first has rows (the migration that backfills the first
 * roll-up tables runs before the month tables exist).
 */
export function sqliteRollupWriter(db: BetterSqlite3.Database): SqliteRollupWriter {
  // By table and number of rows: the SQL of a 64-row upsert is a few kilobytes, too long to build
  // and look up by its text for every chunk.
  const prepared = new Map<string, BetterSqlite3.Statement>();
  // Up to ROWS_PER_STATEMENT rows per upsert: each call into the driver costs about as much as
  // SQLite's own work for a row, so a multi-row VALUES list pays it once per chunk.
  const run = <R>(
    table: Table | DimensionTable,
    rows: R[],
    sql: (values: string) => string,
    placeholders: string,
    params: (row: R, into: unknown[]) => void,
  ): void => {
    for (let i = 0; i < rows.length; i += ROWS_PER_STATEMENT) {
      const count = Math.min(ROWS_PER_STATEMENT, rows.length - i);
      const key = `${table.name} ${count}`;
      let statement = prepared.get(key);
      if (statement === undefined) {
        statement = db.prepare(sql(`VALUES ${Array(count).fill(placeholders).join(', ')}`));
        prepared.set(key, statement);
      }
      const values: unknown[] = [];
      for (let j = i; j < i + count; j += 1) params(rows[j], values);
      statement.run(values);
    }
  };
  const quarterRun = (table: Table, rows: QuarterRow[]): void =>
    run(
      table,
      rows,
      (values) => quarterUpsert(table, values),
      '(?, ?, ?, ?)',
      (r, into) => into.push(r.scope, r.bucket, r.pageviews, r.visitors),
    );
  const dimensionRun = (table: DimensionTable, rows: DimensionRow[]): void =>
    run(
      table,
      rows,
      (values) => dimensionUpsert(table, values),
      '(?, ?, ?, ?, ?, ?, ?)',
      (r, into) =>
        into.push(r.scope, r.dimension, r.period, r.value1, r.value2, r.value3, r.pageviews),
    );
  return {
    write(rollups) {
      quarterRun(QUARTER_TABLES.link, rollups.linkQuarters);
      quarterRun(QUARTER_TABLES.user, rollups.userQuarters);
      for (const [table, rows] of DIMENSION_ROWS) {
        dimensionRun(table, rows(rollups));
      }
    },
  };
}

// The counters as bigint, the type of their columns.
const UNNEST_QUARTERS = 'SELECT * FROM unnest($1::int[], $2::int[], $3::bigint[], $4::bigint[])';
const UNNEST_DIMENSIONS =
  'SELECT * FROM unnest($1::int[], $2::varchar[], $3::int[], $4::varchar[], $5::varchar[], $6::varchar[], $7::bigint[])';

/** What runs a statement: the open write's manager, or a migration's query runner. */
export interface Queryable {
  query(sql: string, parameters?: unknown[]): Promise<unknown>;
}

/** One INSERT … SELECT FROM unnest() … ON CONFLICT per table, inside the caller's transaction. */
export async function writeRollupsPostgres(q: Queryable, rollups: Rollups): Promise<void> {
  const quarters = async (table: Table, rows: QuarterRow[]): Promise<void> => {
    if (rows.length > 0) {
      await q.query(quarterUpsert(table, UNNEST_QUARTERS), [
        rows.map((r) => r.scope),
        rows.map((r) => r.bucket),
        rows.map((r) => r.pageviews),
        rows.map((r) => r.visitors),
      ]);
    }
  };
  const dimensions = async (table: DimensionTable, rows: DimensionRow[]): Promise<void> => {
    if (rows.length > 0) {
      await q.query(dimensionUpsert(table, UNNEST_DIMENSIONS), [
        rows.map((r) => r.scope),
        rows.map((r) => r.dimension),
        rows.map((r) => r.period),
        rows.map((r) => r.value1),
        rows.map((r) => r.value2),
        rows.map((r) => r.value3),
        rows.map((r) => r.pageviews),
      ]);
    }
  };
  await quarters(QUARTER_TABLES.link, rollups.linkQuarters);
  await quarters(QUARTER_TABLES.user, rollups.userQuarters);
  for (const [table, rows] of DIMENSION_ROWS) {
    await dimensions(table, rows(rollups));
  }
}
