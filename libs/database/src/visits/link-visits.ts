import type { Db } from '../engine/db';
import { subtractLinkInChunks } from '../statistics/subtract-links';

/** Whose raw visits: one link's, or those of a domain's links; always of one owner. */
export type LinkVisitsScope = { linkId: number } | { domainId: number };

/** Raw visits a statement deletes: about 3 ms of SQLite's time (bench of 500,000: 7 ms a 5,000). */
export const LINK_VISITS_CHUNK = 2000;

/**
 * On SQLite, deletes the raw visits of links that are about to be deleted, LINK_VISITS_CHUNK rows
 * a statement, with other requests and redirects served between statements. The links' deletion
 * would otherwise delete them by cascade, in one statement on the event loop: 0.9 s for a link with
 * 500,000 visits, during which nothing else was answered. Only the owner's links are touched, so a
 * call with another owner's link or domain deletes nothing. What the deletion's own cascade then
 * finds is what arrived meanwhile. The roll-ups go next (emptyLinksInChunks). PostgreSQL's cascade
 * does not hold the event loop: nothing is done there.
 * Returns the visits deleted.
 */
export async function deleteLinkVisitsInChunks(
  db: Db,
  ownerId: number,
  scope: LinkVisitsScope,
  chunk = LINK_VISITS_CHUNK,
): Promise<number> {
  if (!db.onEventLoop) return 0;
  const [column, id] = 'linkId' in scope ? ['id', scope.linkId] : ['domain_id', scope.domainId];
  // The (link_id, datetime) index finds the rows; the links' own condition checks the owner.
  const sql = `DELETE FROM "visits" WHERE "id" IN (SELECT "id" FROM "visits" WHERE "link_id" IN
      (SELECT "id" FROM "links" WHERE "${column}" = ? AND "user_id" = ?) LIMIT ?)`;
  let deleted = 0;
  for (;;) {
    // A write of its own each: other writes take their turns in between.
    const { affected } = await db.execute(sql, [id, ownerId, chunk]);
    deleted += affected;
    if (affected < chunk) return deleted;
    await new Promise((resolve) => setImmediate(resolve));
  }
}

/**
 * On SQLite, empties links that are about to be deleted, in chunks with other requests served in
 * between: their raw visits (deleteLinkVisitsInChunks), then their roll-up rows, subtracted from
 * the account's (subtractLinkInChunks). The deletion's own transaction then has only what arrived
 * meanwhile left to subtract and cascade. Nothing on PostgreSQL, nor for another owner's links.
 */
export async function emptyLinksInChunks(
  db: Db,
  ownerId: number,
  scope: LinkVisitsScope,
): Promise<void> {
  if (!db.onEventLoop) return;
  await deleteLinkVisitsInChunks(db, ownerId, scope);
  const ids =
    'linkId' in scope
      ? [scope.linkId]
      : (
          await db.manager.query<Array<{ id: number }>>(
            'SELECT "id" FROM "links" WHERE "domain_id" = ? AND "user_id" = ? ORDER BY "id"',
            [scope.domainId, ownerId],
          )
        ).map((row) => row.id);
  for (const id of ids) await subtractLinkInChunks(db, ownerId, id);
}
