import type { Db } from '../engine/db';
import { ACCOUNT_DIMENSION_TABLES, dimensionKey } from './stat-tables';

/**
 * PostgreSQL: locks the account-wide rows the links add to, in key order, the order in which a
 * visit flush upserts them (rollUp sorts its rows), so that a delete and a flush never wait on
 * each other's rows in a cycle.
 */
async function lockUserRows(
  db: Db,
  links: string,
  userParameter: string,
  parameters: unknown[],
): Promise<void> {
  await db.manager.query(
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
    await db.manager.query(
      `SELECT 1 FROM "${user.name}" WHERE "user_id" = ${userParameter} AND (${key}) IN
        (SELECT ${key} FROM "${link.name}" WHERE "link_id" IN (${links}))
      ORDER BY ${order} FOR UPDATE`,
      parameters,
    );
  }
}

/**
 * Takes links' statistics out of their user's account-wide rows, before the links are deleted, in
 * the caller's transaction. On PostgreSQL the caller first holds the closed-months lock
 * (holdClosedMonths, its first statement) and then locks the links' rows (rowLock), so that a
 * month being closed and a visit flush writing them finish first and later ones find them gone.
 * Driven by the links' own rows, so it costs what those links have. Rows can be left at zero;
 * readers skip them.
 */
export async function subtractLinksFromUser(
  db: Db,
  userId: number,
  linkIds: readonly number[],
): Promise<void> {
  for (let i = 0; i < linkIds.length; i += SUBTRACT_CHUNK) {
    await subtractChunk(db, userId, linkIds.slice(i, i + SUBTRACT_CHUNK));
  }
}

/** Links per statement, well under both drivers' parameter limits. */
const SUBTRACT_CHUNK = 500;

async function subtractChunk(db: Db, userId: number, linkIds: readonly number[]): Promise<void> {
  const links = linkIds.map((_, i) => db.placeholder(i + 1)).join(', ');
  const userParameter = db.placeholder(linkIds.length + 1);
  const parameters = [...linkIds, userId];
  if (db.concurrentWrites) {
    await lockUserRows(db, links, userParameter, parameters);
  }
  await db.manager.query(
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
    await db.manager.query(
      `UPDATE "${user.name}" SET
        "pageviews" = "${user.name}"."pageviews" - d."pageviews"
      FROM (SELECT ${key}, SUM("pageviews") AS "pageviews"
        FROM "${link.name}" WHERE "link_id" IN (${links}) GROUP BY ${key}) d
      WHERE "${user.name}"."user_id" = ${userParameter} AND ${match}`,
      parameters,
    );
  }
}

/** Roll-up rows of one table a transaction subtracts and deletes (subtractLinkInChunks). */
export const SUBTRACT_ROWS_CHUNK = 2000;

/**
 * On SQLite, takes a link's roll-up rows out of its owner's account-wide rows and deletes them,
 * `chunk` rows of a table per transaction, with other requests served between transactions: the
 * link's deletion would otherwise subtract and delete them all in one transaction on the event
 * loop (a link with 112,000 visits had 206,000 day rows: together with its visits, every request
 * waited 1.1 s). Each transaction subtracts exactly the rows it deletes, so the account's rows stay
 * the sum of its links' rows after each one, whatever visit flushes and month closes run between
 * them; what they add meanwhile is left to the deletion, as are tables where the link has fewer
 * rows than a chunk. Nothing happens unless the link is the owner's, and nothing on PostgreSQL,
 * whose statements do not hold the event loop. Returns the rows deleted.
 */
export async function subtractLinkInChunks(
  db: Db,
  ownerId: number,
  linkId: number,
  chunk = SUBTRACT_ROWS_CHUNK,
): Promise<number> {
  if (!db.onEventLoop) return 0;
  const tables: Array<{ user: string; link: string; key: string[]; sums: string[] }> = [
    {
      user: 'stats_user_quarters',
      link: 'stats_link_quarters',
      key: ['bucket'],
      sums: ['pageviews', 'visitors'],
    },
    ...ACCOUNT_DIMENSION_TABLES.map(([user, link]) => ({
      user: user.name,
      link: link.name,
      key: dimensionKey(user),
      sums: ['pageviews'],
    })),
  ];
  let deleted = 0;
  for (const { user, link, key, sums } of tables) {
    const columns = key.map((c) => `"${c}"`).join(', ');
    const match = key.map((c) => `"${user}"."${c}" = d."${c}"`).join(' AND ');
    const set = sums.map((c) => `"${c}" = "${user}"."${c}" - d."${c}"`).join(', ');
    // Fewer rows than a chunk are left to the deletion's own transaction: a domain of many small
    // links is deleted without a transaction per link and table.
    const [{ n }] = await db.manager.query<Array<{ n: unknown }>>(
      `SELECT COUNT(*) AS "n" FROM (SELECT 1 FROM "${link}" WHERE "link_id" = ? LIMIT ?)`,
      [linkId, chunk],
    );
    if (Number(n) < chunk) continue;
    for (;;) {
      const done = await db.write(async () => {
        const tx = db.manager;
        const owned = await tx.query<unknown[]>(
          'SELECT 1 FROM "links" WHERE "id" = ? AND "user_id" = ?',
          [linkId, ownerId],
        );
        if (owned.length === 0) return true;
        // The chunk: the link's first `chunk` rows in key order, up to the last one's key.
        const last = await tx.query<Array<Record<string, unknown>>>(
          `SELECT ${columns} FROM "${link}" WHERE "link_id" = ? ORDER BY ${columns} LIMIT 1 OFFSET ?`,
          [linkId, chunk - 1],
        );
        const within =
          last.length === 0 ? '' : ` AND (${columns}) <= (${key.map(() => '?').join(', ')})`;
        const bound = last.length === 0 ? [] : key.map((c) => last[0][c]);
        await tx.query(
          `UPDATE "${user}" SET ${set}
            FROM (SELECT ${columns}, ${sums.map((c) => `"${c}"`).join(', ')} FROM "${link}"
              WHERE "link_id" = ?${within}) d
            WHERE "${user}"."user_id" = ? AND ${match}`,
          [linkId, ...bound, ownerId],
        );
        const removed = await db.execute(`DELETE FROM "${link}" WHERE "link_id" = ?${within}`, [
          linkId,
          ...bound,
        ]);
        deleted += removed.affected;
        return last.length === 0;
      });
      if (done) break;
      await new Promise((resolve) => setImmediate(resolve));
    }
  }
  return deleted;
}
