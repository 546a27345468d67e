import { Inject, Injectable } from '@nestjs/common';
import type BetterSqlite3 from 'better-sqlite3';
import { APP_CONFIG, type AppConfig } from '@app/config/app-config';
// Each from its own file, not the libraries' indexes: this runs in the visit writer thread, which
// should load the database code it uses and not the whole API with it (about 40 MB less).
import { DateTimeTexts } from '@app/database/db-values';
import { Db } from '@app/database/engine/db';
import { rowUpsertsFor } from '@app/database/engine/for-dialect';
import { sqliteConnection } from '@app/database/engine/sqlite/sqlite-connection';
import type { SqliteWriteLock } from '@app/database/engine/sqlite/sqlite-write-lock';
import { sqliteUpserts } from '@app/database/engine/sqlite/upsert-rows';
import { monthsClosedThrough, SELECT_MARK } from '@app/database/rollups/closed-months';
import { rollupUpserts } from '@app/database/rollups/rollup-writer';
import { type LinkOwner, rollUp } from '@app/database/rollups/rollups';
import {
  type NewVisit,
  POSTGRES_ARRAY_TYPES,
  VISIT_COLUMNS,
} from '@app/database/rollups/visit-columns';
import { holdClosedMonths } from '@app/database/statistics/stat-tables';
import {
  belowClicksLimit,
  crossedClicksLimit,
  raiseClicksLimitPostgres,
  raiseClicksLimitSqlite,
} from './clicks-limit-events';

/** Where a link answers: its domain (0 for the app's own) and alias. */
export interface LinkAddress {
  domainId: number;
  alias: string;
}

/** What writing one batch did. */
export interface WrittenBatch {
  /** Visits written (those of links deleted meanwhile are not). */
  written: number;
  /**
   * Links the batch wrote visits of that have a clicks limit not reached before it: the other
   * instances must learn their new counts (each instance counts its own visits at once, but the
   * others' only once they are written).
   */
  limitedLinks: LinkAddress[];
  /** Links whose clicks limit this batch reached; a `link.clicks_limit_reached` event was written for each. */
  limitsReached: number;
}

/** The `links` columns each batch's clicks update returns. */
interface ClicksRow {
  clicks: number | string;
  settings: string;
  domain_id: number | string;
  url: string;
}
const CLICKS_RETURNING = 'RETURNING "clicks", "settings", "domain_id", "url"';

const COLUMN_LIST = VISIT_COLUMNS.map((c) => `"${c}"`).join(', ');

/**
 * Values as each driver binds them: datetimes as stored UTC text, booleans as 0/1 on SQLite. One
 * DateTimeTexts per batch: its visits' datetimes mostly share their second.
 */
function dbParam(
  value: NewVisit[keyof NewVisit],
  postgres: boolean,
  times: DateTimeTexts,
): string | number | boolean | null {
  if (value instanceof Date) {
    return times.dbDateTime(value);
  }
  if (typeof value === 'boolean') {
    return postgres ? value : value ? 1 : 0;
  }
  return value;
}

/** A link's visits in a batch: visitors' (its clicks) and bots' (its bot_clicks). */
export interface LinkCounts {
  clicks: number;
  bots: number;
}

/** How many of the visits belong to each link, visitors' and bots' apart. */
export function countByLink(
  visits: readonly Pick<NewVisit, 'link_id' | 'bot'>[],
): Map<number, LinkCounts> {
  const counts = new Map<number, LinkCounts>();
  for (const v of visits) {
    let count = counts.get(v.link_id);
    if (count === undefined) {
      count = { clicks: 0, bots: 0 };
      counts.set(v.link_id, count);
    }
    if (v.bot === null) count.clicks += 1;
    else count.bots += 1;
  }
  return counts;
}

/** A QR code's scans in a batch: the code, the link its marker was read on, how many. */
interface Scans {
  qrCodeId: number;
  linkId: number;
  userId: number;
  count: number;
}

const MAX_ID = 2_147_483_647;

/** The batch's scans per code and link, in code id order (the order their rows are locked in). */
function scansOf(visits: readonly NewVisit[], owners: ReadonlyMap<number, LinkOwner>): Scans[] {
  const scans = new Map<string, Scans>();
  for (const v of visits) {
    const owner = owners.get(v.link_id);
    // Ids are 32-bit (PostgreSQL's integer): a larger one names no code, and is no scan.
    if (v.qr_code_id === null || v.qr_code_id > MAX_ID || owner === undefined) continue;
    const key = `${v.qr_code_id}:${v.link_id}`;
    const known = scans.get(key);
    if (known) known.count += 1;
    else
      scans.set(key, {
        qrCodeId: v.qr_code_id,
        linkId: v.link_id,
        userId: owner.userId,
        count: 1,
      });
  }
  return [...scans.values()].sort((a, b) => a.qrCodeId - b.qrCodeId || a.linkId - b.linkId);
}

/**
 * The visits with the scans that named no code of theirs made ordinary visits: a marker counts
 * only for a code that exists, belongs to the link's owner and encodes that link (`counted`:
 * the `${code}:${link}` pairs whose code row took the scans).
 */
function withCheckedScans(visits: NewVisit[], counted: ReadonlySet<string>): NewVisit[] {
  if (visits.every((v) => v.qr_code_id === null || counted.has(`${v.qr_code_id}:${v.link_id}`))) {
    return visits;
  }
  return visits.map((v) =>
    v.qr_code_id === null || counted.has(`${v.qr_code_id}:${v.link_id}`)
      ? v
      : { ...v, qr_code_id: null },
  );
}

const ADD_SCANS_SQLITE = `UPDATE "qr_codes" SET "scans" = "scans" + ?
  WHERE "id" = ? AND "link_id" = ? AND "user_id" = ? RETURNING "id"`;

interface SqliteStatements {
  db: BetterSqlite3.Database;
  write: BetterSqlite3.Transaction<
    (visits: NewVisit[], touched: LinkAddress[]) => { written: number; reached: number }
  >;
}

const OWNER_SELECT = `SELECT l."id" AS "id", l."user_id" AS "user_id", u."timezone" AS "timezone"
  FROM "links" l JOIN "users" u ON u."id" = l."user_id"`;

interface OwnerRow {
  id: number;
  user_id: number;
  timezone: string;
}

/**
 * Writes visits. Each batch is one transaction that inserts the rows, adds them to their links'
 * `clicks` with one UPDATE per link (not one per visit, so a popular link's row is not a hot
 * lock), and adds them to the statistics roll-ups (one upsert per roll-up row the batch touches).
 * Visits of links deleted meanwhile are dropped.
 *
 * On SQLite the batch runs synchronously on the data source's connection through better-sqlite3's
 * own transaction: nothing else can interleave with it, and prepared statements skip the ORM's
 * per-row work, which at tens of thousands of visits a second costs more than SQLite itself. On
 * PostgreSQL it is an ordinary transaction on a pooled connection. Used in the visit writer thread
 * (visit-writer.thread.ts, with a data source of its own) or, with VISIT_WRITER=inline, in the
 * process that counts the visits.
 */
@Injectable()
export class VisitWriter {
  private sqlite: SqliteStatements | null = null;
  /**
   * In the writer thread: the lock shared with the API's transactions on the same SQLite file,
   * held around each batch (see SqliteWriteLock).
   */
  writeLock: SqliteWriteLock | null = null;

  constructor(
    private readonly db: Db,
    @Inject(APP_CONFIG) private readonly config: AppConfig,
  ) {}

  /** Whether `recordBatch` would have to wait: another transaction holds the SQLite connection. */
  isBusy(): boolean {
    const statements = this.sqliteStatements();
    return statements !== null && statements.db.inTransaction;
  }

  /** Returns the number of visits written. */
  async recordBatch(visits: NewVisit[]): Promise<number> {
    return (await this.writeBatch(visits)).written;
  }

  async writeBatch(visits: NewVisit[]): Promise<WrittenBatch> {
    const limitedLinks: LinkAddress[] = [];
    if (visits.length === 0) {
      return { written: 0, limitedLinks, limitsReached: 0 };
    }
    const statements = this.sqliteStatements();
    if (statements) {
      this.writeLock?.acquireBlocking();
      try {
        const { written, reached } = statements.write.immediate(visits, limitedLinks);
        return { written, limitedLinks, limitsReached: reached };
      } finally {
        this.writeLock?.release();
      }
    }
    return this.db.write(() => this.writePostgres(visits, limitedLinks));
  }

  private sqliteStatements(): SqliteStatements | null {
    const db = this.sqlite ? null : sqliteConnection(this.db.dataSource);
    if (db === null) {
      return this.sqlite;
    }
    const insert = db.prepare(
      `INSERT INTO "visits" (${COLUMN_LIST}) VALUES (${VISIT_COLUMNS.map(() => '?').join(', ')})`,
    );
    const owner = db.prepare(`${OWNER_SELECT} WHERE l."id" = ?`);
    const addClicks = db.prepare(
      `UPDATE "links" SET "clicks" = "clicks" + ?, "bot_clicks" = "bot_clicks" + ? WHERE "id" = ? ${CLICKS_RETURNING}`,
    );
    const addScans = db.prepare(ADD_SCANS_SQLITE);
    const upserts = sqliteUpserts(db);
    const closedMonths = db.prepare(SELECT_MARK).pluck();
    // better-sqlite3's own synchronous transaction on this thread's connection: nothing can
    // interleave with it (the main thread's inline writer checks isBusy first).
    // eslint-disable-next-line no-restricted-syntax
    const write = db.transaction((given: NewVisit[], touched: LinkAddress[]) => {
      const times = new DateTimeTexts();
      const owners = new Map<number, LinkOwner>();
      const limited: number[] = [];
      let written = 0;
      for (const [linkId, { clicks: count, bots }] of countByLink(given)) {
        const row = owner.get(linkId) as OwnerRow | undefined;
        if (row === undefined) {
          continue;
        }
        owners.set(linkId, { userId: row.user_id, timeZone: row.timezone });
        const after = addClicks.get(count, bots, linkId) as ClicksRow;
        if (count > 0) {
          if (crossedClicksLimit(after.settings, Number(after.clicks), count)) limited.push(linkId);
          if (belowClicksLimit(after.settings, Number(after.clicks) - count))
            touched.push(address(after));
        }
        written += count + bots;
      }
      raiseClicksLimitSqlite(db, limited, this.config.appUrl, new Date());
      const counted = new Set<string>();
      for (const scan of scansOf(given, owners)) {
        if (addScans.get(scan.count, scan.qrCodeId, scan.linkId, scan.userId) !== undefined) {
          counted.add(`${scan.qrCodeId}:${scan.linkId}`);
        }
      }
      const batch = withCheckedScans(given, counted);
      for (const visit of batch) {
        if (owners.has(visit.link_id)) {
          insert.run(VISIT_COLUMNS.map((c) => dbParam(visit[c], false, times)));
        }
      }
      // Read in this transaction, which holds the write lock: no month closes meanwhile.
      const monthsClosedThrough = (closedMonths.get() as number | undefined) ?? -Infinity;
      // Unsorted: this is the only transaction writing (see rollUp).
      upserts.write(rollupUpserts(rollUp(batch, owners, monthsClosedThrough, false)));
      return { written, reached: limited.length };
    });
    this.sqlite = { db, write };
    return this.sqlite;
  }

  private async writePostgres(visits: NewVisit[], touched: LinkAddress[]): Promise<WrittenBatch> {
    const em = this.db.manager;
    const counts = countByLink(visits);
    // Before any link is locked (see holdClosedMonths): no month closes until this commits.
    await holdClosedMonths(this.db);
    const closedThrough = await monthsClosedThrough(em);
    // The links' rows are locked next, in id order, so that concurrent writers (several
    // instances) take the locks in the same order and never deadlock.
    const rows: OwnerRow[] = await em.query(
      `${OWNER_SELECT} WHERE l."id" = ANY($1::int[]) ORDER BY l."id" FOR UPDATE OF l`,
      [[...counts.keys()]],
    );
    const owners = new Map<number, LinkOwner>(
      rows.map((r) => [Number(r.id), { userId: Number(r.user_id), timeZone: r.timezone }]),
    );
    const ownedVisits = visits.filter((v) => owners.has(v.link_id));
    if (ownedVisits.length === 0) {
      return { written: 0, limitedLinks: touched, limitsReached: 0 };
    }
    // The codes' rows, in id order (scansOf): concurrent writers lock them in the same order.
    const scans = scansOf(ownedVisits, owners);
    const counted = new Set<string>();
    if (scans.length > 0) {
      const [added] = await em.query<
        [Array<{ id: number | string; link_id: number | string }>, number]
      >(
        `UPDATE "qr_codes" q SET "scans" = q."scans" + a."n"
          FROM unnest($1::int[], $2::int[], $3::int[], $4::bigint[]) AS a("id", "link_id", "user_id", "n")
          WHERE q."id" = a."id" AND q."link_id" = a."link_id" AND q."user_id" = a."user_id"
          RETURNING q."id", q."link_id"`,
        [
          scans.map((x) => x.qrCodeId),
          scans.map((x) => x.linkId),
          scans.map((x) => x.userId),
          scans.map((x) => x.count),
        ],
      );
      for (const row of added) counted.add(`${Number(row.id)}:${Number(row.link_id)}`);
    }
    const kept = withCheckedScans(ownedVisits, counted);
    // One array per column and unnest(): 18 parameters whatever the batch size, instead of one
    // per value, which costs the driver far less.
    const times = new DateTimeTexts();
    const columns = VISIT_COLUMNS.map((column) =>
      kept.map((visit) => dbParam(visit[column], true, times)),
    );
    const arrays = VISIT_COLUMNS.map((column, i) => `$${i + 1}::${POSTGRES_ARRAY_TYPES[column]}`);
    await em.query(
      `INSERT INTO "visits" (${COLUMN_LIST}) SELECT * FROM unnest(${arrays.join(', ')})`,
      columns,
    );
    // Every link's clicks in one statement (a batch of a busy minute touches a thousand links).
    const added = [...counts].filter(([linkId]) => owners.has(linkId));
    const [updated] = await em.query<[Array<ClicksRow & { id: number | string }>, number]>(
      `UPDATE "links" l SET "clicks" = l."clicks" + a."n", "bot_clicks" = l."bot_clicks" + a."b"
        FROM unnest($1::int[], $2::bigint[], $3::bigint[]) AS a("id", "n", "b") WHERE l."id" = a."id"
        RETURNING l."id", l."clicks", l."settings", l."domain_id", l."url"`,
      [
        added.map(([linkId]) => linkId),
        added.map(([, count]) => count.clicks),
        added.map(([, count]) => count.bots),
      ],
    );
    const limited: number[] = [];
    for (const after of updated.sort((a, b) => Number(a.id) - Number(b.id))) {
      const count = counts.get(Number(after.id))?.clicks ?? 0;
      if (count === 0) continue;
      if (crossedClicksLimit(after.settings, Number(after.clicks), count))
        limited.push(Number(after.id));
      if (belowClicksLimit(after.settings, Number(after.clicks) - count))
        touched.push(address(after));
    }
    await raiseClicksLimitPostgres(this.db, limited, this.config.appUrl, new Date());
    await rowUpsertsFor(em).write(rollupUpserts(rollUp(kept, owners, closedThrough)));
    return { written: kept.length, limitedLinks: touched, limitsReached: limited.length };
  }
}

function address(row: ClicksRow): LinkAddress {
  return { domainId: Number(row.domain_id), alias: row.url };
}
