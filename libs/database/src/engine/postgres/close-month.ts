import type { MonthClose } from '../close-month';
import type { Db } from '../db';

/**
 * Closes the month in the caller's transaction, under the mark's advisory lock held exclusively:
 * the mark moves first (false, changing nothing, when it is not the month before), then the
 * month's rows.
 */
export async function closeMonthPostgres(db: Db, close: MonthClose): Promise<boolean> {
  const { month } = close;
  await db.manager.query('SELECT pg_advisory_xact_lock($1)', [close.lock]);
  const moved = await db.manager.query<[unknown[], number]>(
    `UPDATE "${close.markTable}" SET "months_closed_through" = $1
      WHERE "id" = 1 AND "months_closed_through" = $2 RETURNING "id"`,
    [month, month - 1],
  );
  if (moved[0].length === 0) {
    return false;
  }
  const first = close.firstDay;
  const last = close.lastDay;
  // The rows written below check their user's or link's key. Those locks are all taken before
  // anything is written: users, then links, each in id order, the order in which deleting an
  // account locks them. A deletion holding one makes this transaction wait before it holds any
  // row the deletion needs; one that comes later waits for this transaction.
  const users = close.tables.filter((t) => t.owners === 'users');
  for (const table of [...users, ...close.tables.filter((t) => t.owners === 'links')]) {
    await db.manager.query(
      `SELECT 1 FROM "${table.owners}" WHERE "id" IN (SELECT o."id" FROM ${table.monthDays('$1', '$2')})
        ORDER BY "id" FOR KEY SHARE`,
      [first, last],
    );
  }
  for (const table of close.tables) {
    await db.manager.query(table.sumInto(['$1', '$2', '$3']), [month, first, last]);
  }
  return true;
}
