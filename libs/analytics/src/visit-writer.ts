import { Inject, Injectable } from '@nestjs/common';
import type BetterSqlite3 from 'better-sqlite3';
import { APP_CONFIG, type AppConfig } from '@app/config/app-config';
// Each from its own file, not the libraries' indexes: this runs in the visit writer thread, which
// should load the database code it uses and not the whole API with it (about 40 MB less).
import { DateTimeTexts } from '@app/database/db-values';
import { Db } from '@app/database/engine/db';
import { sqliteConnection } from '@app/database/engine/sqlite/sqlite-connection';
import type { SqliteWriteLock } from '@app/database/engine/sqlite/sqlite-write-lock';
import { monthsClosedThrough, SELECT_MARK } from '@app/database/rollups/closed-months';
import { sqliteRollupWriter, writeRollupsPostgres } from '@app/database/rollups/rollup-writer';
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

/** How many of the visits belong to each link. */
export function countByLink(visits: readonly Pick<NewVisit, 'link_id'>[]): Map<number, number> {
  const counts = new Map<number, number>();
  for (const v of visits) {
    counts.set(v.link_id, (counts.get(v.link_id) ?? 0) + 1);
  }
  return counts;
}

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
      `UPDATE "links" SET "clicks" = "clicks" + ? WHERE "id" = ? ${CLICKS_RETURNING}`,
    );
    const rollups = sqliteRollupWriter(db);
    const closedMonths = db.prepare(SELECT_MARK).pluck();
    // better-sqlite3's own synchronous transaction on this thread's connection: nothing can
    // interleave with it (the main thread's inline writer checks isBusy first).
    // eslint-disable-next-line no-restricted-syntax
    const write = db.transaction((batch: NewVisit[], touched: LinkAddress[]) => {
      const times = new DateTimeTexts();
      const owners = new Map<number, LinkOwner>();
      const limited: number[] = [];
      let written = 0;
      for (const [linkId, count] of countByLink(batch)) {
        const row = owner.get(linkId) as OwnerRow | undefined;
        if (row === undefined) {
          continue;
        }
        owners.set(linkId, { userId: row.user_id, timeZone: row.timezone });
        const after = addClicks.get(count, linkId) as ClicksRow;
        if (crossedClicksLimit(after.settings, Number(after.clicks), count)) limited.push(linkId);
        if (belowClicksLimit(after.settings, Number(after.clicks) - count))
          touched.push(address(after));
        written += count;
      }
      raiseClicksLimitSqlite(db, limited, this.config.appUrl, new Date());
      for (const visit of batch) {
        if (owners.has(visit.link_id)) {
          insert.run(VISIT_COLUMNS.map((c) => dbParam(visit[c], false, times)));
        }
      }
      // Read in this transaction, which holds the write lock: no month closes meanwhile.
      const monthsClosedThrough = (closedMonths.get() as number | undefined) ?? -Infinity;
      // Unsorted: this is the only transaction writing (see rollUp).
      rollups.write(rollUp(batch, owners, monthsClosedThrough, false));
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
    const kept = visits.filter((v) => owners.has(v.link_id));
    if (kept.length === 0) {
      return { written: 0, limitedLinks: touched, limitsReached: 0 };
    }
    // One array per column and unnest(): 16 parameters whatever the batch size, instead of one
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
      `UPDATE "links" l SET "clicks" = l."clicks" + a."n"
        FROM unnest($1::int[], $2::bigint[]) AS a("id", "n") WHERE l."id" = a."id"
        RETURNING l."id", l."clicks", l."settings", l."domain_id", l."url"`,
      [added.map(([linkId]) => linkId), added.map(([, count]) => count)],
    );
    const limited: number[] = [];
    for (const after of updated.sort((a, b) => Number(a.id) - Number(b.id))) {
      const count = counts.get(Number(after.id)) ?? 0;
      if (crossedClicksLimit(after.settings, Number(after.clicks), count))
        limited.push(Number(after.id));
      if (belowClicksLimit(after.settings, Number(after.clicks) - count))
        touched.push(address(after));
    }
    await raiseClicksLimitPostgres(this.db, limited, this.config.appUrl, new Date());
    await writeRollupsPostgres(em, rollUp(kept, owners, closedThrough));
    return { written: kept.length, limitedLinks: touched, limitsReached: limited.length };
  }
}

function address(row: ClicksRow): LinkAddress {
  return { domainId: Number(row.domain_id), alias: row.url };
}
