import type { QueryRunner } from 'typeorm';
import { fromDbDateTime } from '../db-values';
import { rowUpsertsFor } from '../engine/for-dialect';
import { rollupUpserts } from './rollup-writer';
import { LinkOwner, rollUp } from './rollups';
import type { NewVisit } from './visit-columns';

const CHUNK = 5000;

/**
 * Rolls up the visits already stored when the roll-up tables are created (a migration step), in
 * chunks of raw visits read in id order. Uses the same rollUp as the live writer. The month tables
 * come with a later migration (1764500000000), which fills them from the day tables.
 */
export async function backfillRollups(q: QueryRunner, postgres: boolean): Promise<void> {
  const owners = new Map<number, LinkOwner>();
  const ownerRows = (await q.query(
    'SELECT l."id" AS "id", l."user_id" AS "user_id", u."timezone" AS "timezone" FROM "links" l JOIN "users" u ON u."id" = l."user_id"',
  )) as Array<{ id: unknown; user_id: unknown; timezone: string }>;
  for (const r of ownerRows) {
    owners.set(Number(r.id), { userId: Number(r.user_id), timeZone: r.timezone });
  }
  // The live flush's upserts, in the migration's transaction: SQLite's prepared statements on the
  // same connection, PostgreSQL's one statement per table.
  const upserts = rowUpsertsFor(q);
  let after = 0;
  for (;;) {
    const rows = (await q.query(
      `SELECT * FROM "visits" WHERE "id" > ${postgres ? '$1' : '?'} ORDER BY "id" LIMIT ${CHUNK}`,
      [after],
    )) as Array<Record<string, unknown>>;
    if (rows.length === 0) {
      return;
    }
    after = Number(rows[rows.length - 1].id);
    const visits = rows.map((r) => toVisit(r));
    const rollups = rollUp(visits, owners, Number.NEGATIVE_INFINITY);
    await upserts.write(rollupUpserts(rollups));
  }
}

function text(value: unknown): string | null {
  return typeof value === 'string' ? value : null;
}

function toVisit(r: Record<string, unknown>): NewVisit {
  return {
    link_id: Number(r.link_id),
    datetime: r.datetime instanceof Date ? r.datetime : fromDbDateTime(text(r.datetime) ?? ''),
    referrer_host: text(r.referrer_host),
    referrer_path: text(r.referrer_path),
    utm_source: text(r.utm_source),
    utm_medium: text(r.utm_medium),
    utm_campaign: text(r.utm_campaign),
    continent_code: text(r.continent_code),
    country_code: text(r.country_code),
    city_name: text(r.city_name),
    os_name: text(r.os_name),
    browser_name: text(r.browser_name),
    device_type: text(r.device_type),
    browser_language: text(r.browser_language),
    is_unique: r.is_unique === true || r.is_unique === 1 || r.is_unique === '1',
    visitor_hash: text(r.visitor_hash) ?? '',
    // Visits stored before bots and scans were recorded apart (1765720000000) were visitors'.
    bot: null,
    qr_code_id: null,
  };
}
