import type { Db } from '../engine/db';
import type { LimitedResource } from './plan-settings';

/** Tables whose rows count against a limit, each row owned through `user_id`. */
const OWNED_TABLES: Record<
  Exclude<LimitedResource, 'team_members' | 'static_storage_bytes'>,
  string
> = {
  links: 'links',
  biolink_blocks: 'biolink_blocks',
  qr_codes: 'qr_codes',
  domains: 'domains',
  projects: 'projects',
  splash_pages: 'splash_pages',
  signatures: 'signatures',
  notification_handlers: 'notification_handlers',
};

/**
 * How much of a resource an owner uses now, in the open write (the one that is about to add more):
 * rows for counted resources, members and pending invitations of all the owner's teams, and the
 * bytes of all the owner's static sites (the current version of each).
 */
export async function countUsage(
  db: Db,
  ownerId: number,
  resource: LimitedResource,
): Promise<number> {
  const p = db.placeholder(1);
  if (resource === 'team_members') {
    const rows = await db
      .prepared(
        `SELECT COUNT(*) AS n FROM "team_members" m JOIN "teams" t ON t."id" = m."team_id" WHERE t."user_id" = ${p}`,
      )
      .all([ownerId]);
    return Number(rows[0]?.n ?? 0);
  }
  if (resource === 'static_storage_bytes') {
    const rows = await db
      .prepared(`SELECT "settings" FROM "links" WHERE "user_id" = ${p} AND "type" = 'static'`)
      .all([ownerId]);
    return rows.reduce((sum, row) => sum + siteBytes(String(row.settings)), 0);
  }
  // One text per table and dialect: prepared, as it runs in every limited create's write.
  const rows = await db
    .prepared(`SELECT COUNT(*) AS n FROM "${OWNED_TABLES[resource]}" WHERE "user_id" = ${p}`)
    .all([ownerId]);
  return Number(rows[0]?.n ?? 0);
}

/**
 * Joins the settings of an owner's static links into one text. The separator, the control
 * character RS, never occurs in JSON text (JSON escapes control characters inside strings).
 */
const SETTINGS_SEPARATOR = '\u001e';

/** Every limited resource's usage of an owner, in one query (GET /v1/user shows them all). */
export async function countAllUsage(
  db: Db,
  ownerId: number,
): Promise<Record<LimitedResource, number>> {
  const p = db.placeholder(1);
  const postgres = db.dialect === 'postgres';
  const columns = Object.entries(OWNED_TABLES).map(
    ([name, table]) => `(SELECT COUNT(*) FROM "${table}" WHERE "user_id" = ${p}) AS "${name}"`,
  );
  columns.push(
    `(SELECT COUNT(*) FROM "team_members" m JOIN "teams" t ON t."id" = m."team_id" WHERE t."user_id" = ${p}) AS "team_members"`,
  );
  // The bytes are in each site's JSON settings: they are summed here, as countUsage does.
  const joined = postgres
    ? 'string_agg("settings", chr(30))'
    : 'group_concat("settings", char(30))';
  columns.push(
    `(SELECT ${joined} FROM "links" WHERE "user_id" = ${p} AND "type" = 'static') AS "static_settings"`,
  );
  // PostgreSQL numbers its parameters; SQLite takes one value per `?`.
  const params = postgres ? [ownerId] : columns.map(() => ownerId);
  // The same text on every call: prepared on PostgreSQL, where planning the ten counts cost more
  // than running them.
  const rows = (await db.prepared(`SELECT ${columns.join(', ')}`).all(params)) as Array<
    Record<string, number | string | null>
  >;
  const row = rows[0] ?? {};
  const result = Object.fromEntries(
    [...Object.keys(OWNED_TABLES), 'team_members'].map((name) => [name, Number(row[name] ?? 0)]),
  ) as Record<LimitedResource, number>;
  const settings = row.static_settings;
  result.static_storage_bytes =
    typeof settings === 'string'
      ? settings.split(SETTINGS_SEPARATOR).reduce((sum, one) => sum + siteBytes(one), 0)
      : 0;
  return result;
}

/** The bytes of a static link's current site version, from its stored settings. */
export function siteBytes(settings: string): number {
  try {
    const parsed = JSON.parse(settings) as { static_site?: { bytes?: unknown } };
    const bytes = parsed.static_site?.bytes;
    return typeof bytes === 'number' && Number.isFinite(bytes) ? bytes : 0;
  } catch {
    return 0;
  }
}

/**
 * Locks the owner's user row until the transaction ends, so that creates of one owner check their
 * limits one after another (PostgreSQL, across instances). SQLite needs no lock: its transactions
 * take turns process-wide (Db.write).
 */
export async function lockOwner(db: Db, ownerId: number): Promise<void> {
  if (db.concurrentWrites) {
    await db.prepared(`SELECT "id" FROM "users" WHERE "id" = $1 FOR UPDATE`).all([ownerId]);
  }
}
