import { DAY_MS } from '@app/common/time/time-zone';
import type { Db } from '../engine/db';
import { closeMonthIn } from '../engine/for-dialect';
// The time helpers' own file, not @app/common's index: the visit writer thread loads this.
import { CLOSED_MONTHS_LOCK } from '../statistics/stat-tables';
import { MONTH_TABLES } from './month-rollups-migration';
import { DIMENSIONS, firstDayOfMonth, monthOfDay } from './rollups';

/*
 * Closed months. The month tables (stats_*_dimension_months) hold, per month, the sum of the day
 * rows (stats_*_dimensions) of that month, so that a long breakdown reads a row per month and
 * value instead of one per day. Writing both on every visit flush cost about a fifth of the visit
 * writer's time. Instead, a month's rows are written once, when the month is over:
 *
 * - `stats_closed_months.months_closed_through` (one row) is the last month whose month rows are
 *   complete. The visit writer adds to month rows only for visits of a month at or before it (a
 *   visit arriving late, after an outage); for later months it writes day rows only.
 * - StatisticsMonthsJob closes the month after it once that month has ended in every time zone:
 *   in one transaction it replaces the month's rows with the sums of its day rows and advances the
 *   mark (closeMonth). Day rows are always written, so the sums are complete, and a visit written
 *   after the close sees the new mark and adds to both.
 * - Readers take whole months from the month tables only up to the mark, and every other day from
 *   the day tables. The mark only grows, so a reader that read an older mark reads more day rows
 *   for the same answer.
 *
 * On PostgreSQL the mark and the rows change together under an advisory lock: the visit writer
 * and a link's deletion (which subtracts the link's rows from its account's) hold it shared, as
 * their first statement, before they lock any link; closeMonth holds it exclusively. On SQLite
 * the database's single writer already serialises them. There the statements of a close run on
 * the event loop, so it sums a few hundred owners a statement and lets other requests be served
 * between them; reads on that connection see the open transaction's rows, so the mark moves last.
 */

export const CLOSED_MONTHS_TABLE = 'stats_closed_months';

const HOUR_MS = 60 * 60 * 1000;
/** The furthest any zone is ahead of UTC (UTC+14) and behind it (UTC−12). */
const MOST_AHEAD_MS = 14 * HOUR_MS;
const MOST_BEHIND_MS = 12 * HOUR_MS;

/** The latest month a visit at `nowMs` can be counted in, in any zone. */
export function latestMonth(nowMs: number): number {
  return monthOfDay(Math.floor((nowMs + MOST_AHEAD_MS) / DAY_MS));
}

/**
 * The last month that had ended in every zone `marginMs` before `nowMs`: no visit counted at that
 * time or later can fall in it.
 */
export function endedMonth(nowMs: number, marginMs: number): number {
  return monthOfDay(Math.floor((nowMs - MOST_BEHIND_MS - marginMs) / DAY_MS)) - 1;
}

/** The statement that reads the mark (the SQLite visit writer prepares it on its connection). */
export const SELECT_MARK = `SELECT "months_closed_through" FROM "${CLOSED_MONTHS_TABLE}" WHERE "id" = 1`;

/**
 * The last closed month (months since January 1970), or -Infinity when none is. `db` is an entity
 * manager, or what reads the statistics (readCommitted).
 */
export async function monthsClosedThrough(db: {
  query<T>(sql: string, parameters?: unknown[]): Promise<T>;
}): Promise<number> {
  const rows = await db.query<Array<{ months_closed_through: unknown }>>(SELECT_MARK);
  return rows.length === 0 ? Number.NEGATIVE_INFINITY : Number(rows[0].months_closed_through);
}

type MonthTable = (typeof MONTH_TABLES)[number];

/** The table a month table's scope column refers to. */
function ownersOf(table: MonthTable): 'links' | 'users' {
  return table.scope === 'link_id' ? 'links' : 'users';
}

/**
 * Closes `month`, the month after the mark, in the caller's transaction: its month rows become the
 * sums of its day rows and the mark moves to it. Returns false, changing nothing, when the mark is
 * not the month before (another worker closed it meanwhile). How the statements run is the
 * dialect's (engine/sqlite/close-month.ts, engine/postgres/close-month.ts); `ownersPerStatement`
 * overrides how many owners one statement of a chunked close sums.
 */
export function closeMonth(db: Db, month: number, ownersPerStatement?: number): Promise<boolean> {
  const tables = MONTH_TABLES.map((table) => ({
    owners: ownersOf(table),
    monthDays: (firstDay: string, lastDay: string) => monthDays(table, firstDay, lastDay),
    sumInto: (params: [string, string, string], owners?: string) => sumInto(table, params, owners),
  }));
  const close = {
    month,
    firstDay: firstDayOfMonth(month),
    lastDay: firstDayOfMonth(month + 1) - 1,
    markTable: CLOSED_MONTHS_TABLE,
    lock: CLOSED_MONTHS_LOCK,
    tables,
  };
  return closeMonthIn(db, close, ownersPerStatement);
}

const DIMENSION_LIST = DIMENSIONS.map((d) => `'${d}'`).join(', ');

/**
 * Each link's (or user's) day rows of the month, found through the primary key (scope, dimension,
 * day, ...): the work is the month's rows, not a scan of every day ever counted.
 */
function monthDays(table: MonthTable, firstDay: string, lastDay: string): string {
  return `"${ownersOf(table)}" o CROSS JOIN "${table.days}" d
      WHERE d."${table.scope}" = o."id" AND d."dimension" IN (${DIMENSION_LIST})
      AND d."day" >= ${firstDay} AND d."day" <= ${lastDay}`;
}

/**
 * The statement that sets a month's rows to the sums of its day rows; parameters: the month, its
 * first and last day (`params` their placeholders), then those of `owners`. Month rows a month
 * can already have (written by an older version while it was open) are day rows' keys too: the
 * sums replace them.
 */
function sumInto(table: MonthTable, params: [string, string, string], owners = ''): string {
  const key = `"${table.scope}", "dimension", "month", "value1", "value2", "value3"`;
  return `INSERT INTO "${table.months}" (${key}, "pageviews")
        SELECT d."${table.scope}", d."dimension", CAST(${params[0]} AS integer), d."value1", d."value2", d."value3", SUM(d."pageviews")
        FROM ${monthDays(table, params[1], params[2])} ${owners}
        GROUP BY d."${table.scope}", d."dimension", d."value1", d."value2", d."value3"
        ON CONFLICT (${key}) DO UPDATE SET "pageviews" = excluded."pageviews"`;
}
