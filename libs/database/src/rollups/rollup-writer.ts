import type { ColumnType, UpsertRows } from '../engine/upsert-rows';
import {
  DIMENSION_TABLES,
  type DimensionTable,
  dimensionKey,
  QUARTER_TABLES,
  type Table,
} from '../statistics/stat-tables';
import type { DimensionRow, QuarterRow, Rollups } from './rollups';

/*
 * Adds roll-up rows to the tables, inside the caller's transaction: an upsert per row. The rows go
 * as the dialect sends them (the engine's upserts: engine/for-dialect.ts, rowUpsertsFor).
 */

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

// The counters as bigint, the type of their columns.
const QUARTER_TYPES: readonly ColumnType[] = ['int', 'int', 'bigint', 'bigint'];
const DIMENSION_TYPES: readonly ColumnType[] = [
  'int',
  'varchar',
  'int',
  'varchar',
  'varchar',
  'varchar',
  'bigint',
];

function quarterRows(table: Table, rows: QuarterRow[]): UpsertRows {
  return {
    table: table.name,
    types: QUARTER_TYPES,
    statement: (values) => quarterUpsert(table, values),
    count: rows.length,
    values: (i, into) => {
      const r = rows[i];
      into.push(r.scope, r.bucket, r.pageviews, r.visitors);
    },
  };
}

function dimensionRows(table: DimensionTable, rows: DimensionRow[]): UpsertRows {
  return {
    table: table.name,
    types: DIMENSION_TYPES,
    statement: (values) => dimensionUpsert(table, values),
    count: rows.length,
    values: (i, into) => {
      const r = rows[i];
      into.push(r.scope, r.dimension, r.period, r.value1, r.value2, r.value3, r.pageviews);
    },
  };
}

/** The upserts of the roll-up rows, a table each, in the order they are written. */
export function rollupUpserts(rollups: Rollups): UpsertRows[] {
  return [
    quarterRows(QUARTER_TABLES.link, rollups.linkQuarters),
    quarterRows(QUARTER_TABLES.user, rollups.userQuarters),
    ...DIMENSION_ROWS.map(([table, rows]) => dimensionRows(table, rows(rollups))),
  ];
}
