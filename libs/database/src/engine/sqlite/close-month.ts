import type { MonthClose } from '../close-month';
import type { Db } from '../db';

/**
 * How many links (or users), by id, one statement of a close sums. A month of 20,000 links seen
 * every day holds 1.8 million day rows: summed in one statement a table, that stopped every
 * request and redirect for 0.7-0.9 s; 500 owners a statement, for 24 ms at most, and the close
 * took no longer.
 */
export const SQLITE_CLOSE_OWNERS = 500;

/**
 * Closes the month in the caller's transaction, `owners` owners a statement with other requests
 * served in between; the mark moves last (reads on this connection see the open transaction's
 * rows). False, changing nothing, when the mark is not the month before.
 */
export async function closeMonthSqlite(
  db: Db,
  close: MonthClose,
  owners: number,
): Promise<boolean> {
  const { month } = close;
  // A write that changes nothing: the transaction holds the database's write lock from here on,
  // and the mark is checked under it.
  const checked = await db.manager.query<unknown[]>(
    `UPDATE "${close.markTable}" SET "months_closed_through" = "months_closed_through"
      WHERE "id" = 1 AND "months_closed_through" = ? RETURNING "id"`,
    [month - 1],
  );
  if (checked.length === 0) {
    return false;
  }
  const first = close.firstDay;
  const last = close.lastDay;
  for (const table of close.tables) {
    const [ids] = await db.manager.query<Array<{ low: number | null; high: number | null }>>(
      `SELECT MIN("id") AS "low", MAX("id") AS "high" FROM "${table.owners}"`,
    );
    if (ids.low === null || ids.high === null) continue;
    for (let low = ids.low; low <= ids.high; low += owners) {
      await db.manager.query(table.sumInto(['?', '?', '?'], 'AND o."id" >= ? AND o."id" < ?'), [
        month,
        first,
        last,
        low,
        low + owners,
      ]);
      // Other requests are served between two statements. Reads see the rows written so far but
      // not yet the mark, so they still read this month from its day rows.
      await new Promise((resolve) => setImmediate(resolve));
    }
  }
  await db.manager.query(
    `UPDATE "${close.markTable}" SET "months_closed_through" = ? WHERE "id" = 1`,
    [month],
  );
  return true;
}
