import { Inject, Injectable } from '@nestjs/common';
import { APP_CONFIG, type AppConfig } from '@app/config/app-config';
// Each from its own file, not the libraries' indexes: this runs in the visit writer thread, which
// should load the database code it uses and not the whole API with it (about 40 MB less).
import { DateTimeTexts } from '@app/database/db-values';
import {
  type AddTo,
  addTo,
  type Batch,
  type BatchWriter,
  holdShared,
  type InsertInto,
  insertInto,
  rowsById,
  type RowsById,
  select,
  upsert,
} from '@app/database/engine/batch';
import { Db } from '@app/database/engine/db';
import { batchWriterFor } from '@app/database/engine/for-dialect';
import type { SqliteWriteLock } from '@app/database/engine/sqlite/sqlite-write-lock';
import { outboxEventsIn } from '@app/database/events/outbox';
import { LinkEntity } from '@app/database/links/link.entity';
import { SELECT_MARK } from '@app/database/rollups/closed-months';
import { rollupUpserts } from '@app/database/rollups/rollup-writer';
import { type LinkOwner, rollUp } from '@app/database/rollups/rollups';
import {
  type NewVisit,
  VISIT_COLUMN_TYPES,
  VISIT_COLUMNS,
} from '@app/database/rollups/visit-columns';
import { CLOSED_MONTHS_LOCK } from '@app/database/statistics/stat-tables';
import {
  belowClicksLimit,
  clicksLimitEvents,
  crossedClicksLimit,
  LIMITED_LINKS,
  type LinkRow,
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

/** A link's row as the batch's clicks update returns it. */
interface ClicksRow {
  id: number | string;
  clicks: number | string;
  settings: string;
  domain_id: number | string;
  url: string;
}

/** Adds a batch's visits to its links' clicks and bot_clicks; a row: id, visitors', bots'. */
const ADD_CLICKS: AddTo = {
  table: 'links',
  keys: [{ name: 'id', type: 'int' }],
  adds: [
    { name: 'clicks', type: 'bigint' },
    { name: 'bot_clicks', type: 'bigint' },
  ],
  returning: ['id', 'clicks', 'settings', 'domain_id', 'url'],
};

/** Adds scans to a QR code of the link's owner that encodes the link; a row: code, link, owner, scans. */
const ADD_SCANS: AddTo = {
  table: 'qr_codes',
  keys: [
    { name: 'id', type: 'int' },
    { name: 'link_id', type: 'int' },
    { name: 'user_id', type: 'int' },
  ],
  adds: [{ name: 'scans', type: 'bigint' }],
  returning: ['id', 'link_id'],
};

/** The visits' rows; a row's values are VISIT_COLUMNS' (visitRow). */
const VISIT_ROWS: InsertInto = {
  table: 'visits',
  columns: VISIT_COLUMNS.map((name) => ({ name, type: VISIT_COLUMN_TYPES[name] })),
};

/**
 * A visit's values in VISIT_COLUMNS' order, datetimes as stored UTC text. One DateTimeTexts per
 * batch: its visits' datetimes mostly share their second.
 */
function visitRow(visit: NewVisit, times: DateTimeTexts): unknown[] {
  return VISIT_COLUMNS.map((column) => {
    const value = visit[column];
    return value instanceof Date ? times.dbDateTime(value) : value;
  });
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
    // Ids are 32-bit (PostgreSQL's integer): a larger one names no code, and is no scan. A scan is
    // a person's: a bot's visit is none (the enricher gives it no code either).
    if (v.qr_code_id === null || v.qr_code_id > MAX_ID || v.bot !== null || owner === undefined)
      continue;
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
 * only on a person's visit, for a code that exists, belongs to the link's owner and encodes that
 * link (`counted`: the `${code}:${link}` pairs whose code row took the scans).
 */
function withCheckedScans(visits: NewVisit[], counted: ReadonlySet<string>): NewVisit[] {
  const scan = (v: NewVisit) =>
    v.qr_code_id === null || (v.bot === null && counted.has(`${v.qr_code_id}:${v.link_id}`));
  return visits.every(scan)
    ? visits
    : visits.map((v) => (scan(v) ? v : { ...v, qr_code_id: null }));
}

/** The batch's links with their owners, each link's row locked where writers run concurrently. */
const OWNERS: RowsById = {
  select: `SELECT l."id" AS "id", l."user_id" AS "user_id", u."timezone" AS "timezone"
    FROM "links" l JOIN "users" u ON u."id" = l."user_id"`,
  id: 'l."id"',
  lock: 'l',
};

interface OwnerRow {
  id: number | string;
  user_id: number | string;
  timezone: string;
}

/**
 * Writes visits. Each batch is one transaction that inserts the rows, adds them to their links'
 * `clicks` (one row update per link, not one per visit, so a popular link's row is not a hot
 * lock), counts QR codes' scans, raises `link.clicks_limit_reached` for the links whose limit it
 * reaches, and adds the visits to the statistics roll-ups (one upsert per roll-up row the batch
 * touches). Visits of links deleted meanwhile are dropped.
 *
 * The batch is written once, as the steps of an engine batch write (engine/batch.ts): on SQLite
 * they run synchronously on the data source's connection in one better-sqlite3 transaction
 * (nothing else can interleave with it, and prepared statements skip the ORM's per-row work,
 * which at tens of thousands of visits a second costs more than SQLite itself); on PostgreSQL in
 * one write on a pooled connection, each step one statement whatever the batch's size. Used in
 * the visit writer thread (visit-writer.thread.ts, with a data source of its own) or, with
 * VISIT_WRITER=inline, in the process that counts the visits.
 */
@Injectable()
export class VisitWriter {
  private batches: BatchWriter | null = null;
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
    return this.writer().busy();
  }

  /** Returns the number of visits written. */
  async recordBatch(visits: NewVisit[]): Promise<number> {
    return (await this.writeBatch(visits)).written;
  }

  async writeBatch(visits: NewVisit[]): Promise<WrittenBatch> {
    if (visits.length === 0) {
      return { written: 0, limitedLinks: [], limitsReached: 0 };
    }
    const writer = this.writer();
    return await writer.run(() => this.batch(visits, writer.serialised));
  }

  /** Made on first use: the data source is initialised by then. */
  private writer(): BatchWriter {
    this.batches ??= batchWriterFor(this.db, () => this.writeLock);
    return this.batches;
  }

  /** `serialised`: no other write runs meanwhile, so no common order of row locks is needed. */
  private *batch(visits: NewVisit[], serialised: boolean): Batch<WrittenBatch> {
    const limitedLinks: LinkAddress[] = [];
    const counts = countByLink(visits);
    // Before any link is locked (see holdClosedMonths): no month closes until this commits.
    yield* holdShared(CLOSED_MONTHS_LOCK);
    const [mark] = yield* select<{ months_closed_through: number | string }>(SELECT_MARK);
    const closedThrough = mark === undefined ? -Infinity : Number(mark.months_closed_through);
    // The links' rows are locked next, in id order, so that concurrent writers (several
    // instances) take the locks in the same order and never deadlock.
    const rows = yield* rowsById<OwnerRow>(OWNERS, [...counts.keys()]);
    const owners = new Map<number, LinkOwner>(
      rows.map((r) => [Number(r.id), { userId: Number(r.user_id), timeZone: r.timezone }]),
    );
    const owned = visits.filter((v) => owners.has(v.link_id));
    if (owned.length === 0) {
      return { written: 0, limitedLinks, limitsReached: 0 };
    }
    // The codes' rows, in id order (scansOf): concurrent writers lock them in the same order.
    const added = yield* addTo<{ id: number | string; link_id: number | string }>(
      ADD_SCANS,
      scansOf(owned, owners).map((x) => [x.qrCodeId, x.linkId, x.userId, x.count]),
    );
    const counted = new Set(added.map((row) => `${Number(row.id)}:${Number(row.link_id)}`));
    const kept = withCheckedScans(owned, counted);
    const times = new DateTimeTexts();
    yield* insertInto(
      VISIT_ROWS,
      kept.map((visit) => visitRow(visit, times)),
    );
    const linkCounts = [...counts].filter(([linkId]) => owners.has(linkId));
    const updated = yield* addTo<ClicksRow>(
      ADD_CLICKS,
      linkCounts.map(([linkId, count]) => [linkId, count.clicks, count.bots]),
    );
    const limited: number[] = [];
    for (const after of updated.sort((a, b) => Number(a.id) - Number(b.id))) {
      const count = counts.get(Number(after.id))?.clicks ?? 0;
      if (count === 0) continue;
      if (crossedClicksLimit(after.settings, Number(after.clicks), count))
        limited.push(Number(after.id));
      if (belowClicksLimit(after.settings, Number(after.clicks) - count))
        limitedLinks.push(address(after));
    }
    const reached = yield* rowsById<LinkRow>(LIMITED_LINKS, limited);
    const events = clicksLimitEvents(reached, this.db.repository(LinkEntity), this.config.appUrl);
    yield* outboxEventsIn(this.db, events, new Date());
    // Unsorted where this is the only transaction writing (see rollUp).
    yield* upsert(rollupUpserts(rollUp(kept, owners, closedThrough, !serialised)));
    return { written: kept.length, limitedLinks, limitsReached: limited.length };
  }
}

function address(row: ClicksRow): LinkAddress {
  return { domainId: Number(row.domain_id), alias: row.url };
}
