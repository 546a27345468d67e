import type BetterSqlite3 from 'better-sqlite3';
import type { EntityManager } from 'typeorm';
import type { DimensionRow, QuarterRow, Rollups } from './rollups';

/* Adds roll-up rows to the tables, inside the caller's transaction: an upsert per row. */

interface Table {
  name: string;
  scope: 'link_id' | 'user_id';
}

const QUARTER_TABLES = {
  link: { name: 'stats_link_quarters', scope: 'link_id' },
  user: { name: 'stats_user_quarters', scope: 'user_id' },
} as const satisfies Record<string, Table>;

interface DimensionTable extends Table {
  period: 'day' | 'month';
}

const DIMENSION_TABLES = {
  link: { name: 'stats_link_dimensions', scope: 'link_id', period: 'day' },
  user: { name: 'stats_user_dimensions', scope: 'user_id', period: 'day' },
  linkMonth: { name: 'stats_link_dimension_months', scope: 'link_id', period: 'month' },
  userMonth: { name: 'stats_user_dimension_months', scope: 'user_id', period: 'month' },
} as const satisfies Record<string, DimensionTable>;

/** Each account-wide dimension table with the per-link table it is the sum of. */
const ACCOUNT_DIMENSION_TABLES = [
  [DIMENSION_TABLES.user, DIMENSION_TABLES.link],
  [DIMENSION_TABLES.userMonth, DIMENSION_TABLES.linkMonth],
] as const;

/** The roll-up rows of each dimension table. */
const DIMENSION_ROWS = [
  [DIMENSION_TABLES.link, (r: Rollups) => r.linkDimensions],
  [DIMENSION_TABLES.user, (r: Rollups) => r.userDimensions],
  [DIMENSION_TABLES.linkMonth, (r: Rollups) => r.linkMonths],
  [DIMENSION_TABLES.userMonth, (r: Rollups) => r.userMonths],
] as const;

const dimensionKey = (table: DimensionTable): string[] => [
  'dimension',
  table.period,
  'value1',
  'value2',
  'value3',
];

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

export interface SqliteRollupWriter {
  write(rollups: Rollups): void;
}

/**
 * Prepared statements on the better-sqlite3 connection; call `write` inside its transaction. Each
 * table's statement is prepared when it first has rows (the migration that backfills the first
 * roll-up tables runs before the month tables exist).
 */
export function sqliteRollupWriter(db: BetterSqlite3.Database): SqliteRollupWriter {
  const prepared = new Map<string, BetterSqlite3.Statement>();
  const statement = (sql: string): BetterSqlite3.Statement => {
    let found = prepared.get(sql);
    if (found === undefined) {
      found = db.prepare(sql);
      prepared.set(sql, found);
    }
    return found;
  };
  const quarterRun = (table: Table, rows: QuarterRow[]): void => {
    if (rows.length === 0) {
      return;
    }
    const insert = statement(quarterUpsert(table, 'VALUES (?, ?, ?, ?)'));
    for (const r of rows) {
      insert.run(r.scope, r.bucket, r.pageviews, r.visitors);
    }
  };
  const dimensionRun = (table: DimensionTable, rows: DimensionRow[]): void => {
    if (rows.length === 0) {
      return;
    }
    const insert = statement(dimensionUpsert(table, 'VALUES (?, ?, ?, ?, ?, ?, ?)'));
    for (const r of rows) {
      insert.run(r.scope, r.dimension, r.period, r.value1, r.value2, r.value3, r.pageviews);
    }
  };
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

/** One INSERT … SELECT FROM unnest() … ON CONFLICT per table, inside the caller's transaction. */
export async function writeRollupsPostgres(em: EntityManager, rollups: Rollups): Promise<void> {
  const quarters = async (table: Table, rows: QuarterRow[]): Promise<void> => {
    if (rows.length > 0) {
      await em.query(quarterUpsert(table, UNNEST_QUARTERS), [
        rows.map((r) => r.scope),
        rows.map((r) => r.bucket),
        rows.map((r) => r.pageviews),
        rows.map((r) => r.visitors),
      ]);
    }
  };
  const dimensions = async (table: DimensionTable, rows: DimensionRow[]): Promise<void> => {
    if (rows.length > 0) {
      await em.query(dimensionUpsert(table, UNNEST_DIMENSIONS), [
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

/**
 * PostgreSQL: locks the account-wide rows the links add to, in key order, the order in which a
 * visit flush upserts them (rollUp sorts its rows), so that a delete and a flush never wait on
 * each other's rows in a cycle.
 */
async function lockUserRows(
  em: EntityManager,
  links: string,
  userParameter: string,
  parameters: unknown[],
): Promise<void> {
  await em.query(
    `SELECT 1 FROM "stats_user_quarters" WHERE "user_id" = ${userParameter} AND "bucket" IN
      (SELECT "bucket" FROM "stats_link_quarters" WHERE "link_id" IN (${links}))
    ORDER BY "bucket" FOR UPDATE`,
    parameters,
  );
  for (const [user, link] of ACCOUNT_DIMENSION_TABLES) {
    const key = dimensionKey(user)
      .map((c) => `"${c}"`)
      .join(', ');
    const order = dimensionKey(user)
      .map((c) => (c === user.period ? `"${c}"` : `"${c}" COLLATE "C"`))
      .join(', ');
    await em.query(
      `SELECT 1 FROM "${user.name}" WHERE "user_id" = ${userParameter} AND (${key}) IN
        (SELECT ${key} FROM "${link.name}" WHERE "link_id" IN (${links}))
      ORDER BY ${order} FOR UPDATE`,
      parameters,
    );
  }
}

/**
 * Takes links' statistics out of their user's account-wide rows, before the links are deleted, in
 * the caller's transaction. On PostgreSQL the caller first locks the links' rows (rowLock), so
 * that a visit flush writing them finishes first and later ones find them gone. Driven by the links' own rows, so it costs what those links have.
 * Rows can be left at zero; readers skip them.
 */
export async function subtractLinksFromUser(
  em: EntityManager,
  userId: number,
  linkIds: readonly number[],
): Promise<void> {
  for (let i = 0; i < linkIds.length; i += SUBTRACT_CHUNK) {
    await subtractChunk(em, userId, linkIds.slice(i, i + SUBTRACT_CHUNK));
  }
}

/** Links per statement, well under both drivers' parameter limits. */
const SUBTRACT_CHUNK = 500;

async function subtractChunk(
  em: EntityManager,
  userId: number,
  linkIds: readonly number[],
): Promise<void> {
  const postgres = em.connection.options.type === 'postgres';
  const links = linkIds.map((_, i) => (postgres ? `$${i + 1}` : '?')).join(', ');
  const userParameter = postgres ? `$${linkIds.length + 1}` : '?';
  const parameters = [...linkIds, userId];
  if (postgres) {
    await lockUserRows(em, links, userParameter, parameters);
  }
  await em.query(
    `UPDATE "stats_user_quarters" SET
      "pageviews" = "stats_user_quarters"."pageviews" - q."pageviews",
      "visitors" = "stats_user_quarters"."visitors" - q."visitors"
    FROM (SELECT "bucket", SUM("pageviews") AS "pageviews", SUM("visitors") AS "visitors"
      FROM "stats_link_quarters" WHERE "link_id" IN (${links}) GROUP BY "bucket") q
    WHERE "stats_user_quarters"."user_id" = ${userParameter} AND "stats_user_quarters"."bucket" = q."bucket"`,
    parameters,
  );
  for (const [user, link] of ACCOUNT_DIMENSION_TABLES) {
    const columns = dimensionKey(user);
    const key = columns.map((c) => `"${c}"`).join(', ');
    const match = columns.map((c) => `"${user.name}"."${c}" = d."${c}"`).join(' AND ');
    await em.query(
      `UPDATE "${user.name}" SET
        "pageviews" = "${user.name}"."pageviews" - d."pageviews"
      FROM (SELECT ${key}, SUM("pageviews") AS "pageviews"
        FROM "${link.name}" WHERE "link_id" IN (${links}) GROUP BY ${key}) d
      WHERE "${user.name}"."user_id" = ${userParameter} AND ${match}`,
      parameters,
    );
  }
}
