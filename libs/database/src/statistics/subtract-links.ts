import type { EntityManager } from 'typeorm';
import { ACCOUNT_DIMENSION_TABLES, dimensionKey } from './stat-tables';

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
 * the caller's transaction. On PostgreSQL the caller first holds the closed-months lock
 * (holdClosedMonths, its first statement) and then locks the links' rows (rowLock), so that a
 * month being closed and a visit flush writing them finish first and later ones find them gone.
 * Driven by the links' own rows, so it costs what those links have. Rows can be left at zero;
 * readers skip them.
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
