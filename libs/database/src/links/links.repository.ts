import { Injectable } from '@nestjs/common';
import { InjectRepository } from '@nestjs/typeorm';
import { In, Repository } from 'typeorm';
import type { ListQuery } from '@app/common';
import { toDbDateTime } from '../db-values';
import { Db } from '../engine/db';
import { insertRow } from '../engine/insert-row';
import { RowReader } from '../engine/row-reader';
import { Outbox, type RowEvents } from '../events/outbox';
import { applyListFilters, IN_CHUNK, OwnedRepository, rowLock } from '../owned.repository';
import { holdClosedMonths } from '../statistics/stat-tables';
import { subtractLinksFromUser } from '../statistics/subtract-links';
import { emptyLinksInChunks } from '../visits/link-visits';
import { LinkEntity } from './link.entity';

/** A link as it is found by its address: enough to tell whether an import already made it. */
export type LinkFoundByAddress = Pick<
  LinkEntity,
  'id' | 'user_id' | 'url' | 'location_url' | 'datetime'
>;

/** A new row; `clicks` may start above 0 (imported visit counts). */
export type NewLinkRow = Omit<LinkEntity, 'id' | 'user' | 'project' | 'splash_page'>;

/** Rows of one multi-row INSERT: 15 columns each, far under both drivers' parameter limits. */
const INSERT_CHUNK = 100;

const INSERT_COLUMNS = [
  'user_id',
  'project_id',
  'domain_id',
  'splash_page_id',
  'type',
  'url',
  'location_url',
  'settings',
  'password_hash',
  'clicks',
  'is_enabled',
  'start_date',
  'end_date',
  'datetime',
  'last_datetime',
] as const satisfies ReadonlyArray<keyof NewLinkRow>;

/** A value as TypeORM writes it: datetimes as UTC text, booleans as the driver binds them. */
function dbValue(db: Db, value: NewLinkRow[keyof NewLinkRow]): unknown {
  return value instanceof Date ? toDbDateTime(value) : db.bindable(value);
}

/** The columns an API update may write: never `clicks`, which only the visit recorder changes. */
export type LinkChanges = Partial<
  Pick<
    LinkEntity,
    | 'project_id'
    | 'domain_id'
    | 'splash_page_id'
    | 'url'
    | 'location_url'
    | 'settings'
    | 'password_hash'
    | 'is_enabled'
    | 'start_date'
    | 'end_date'
    | 'last_datetime'
    | 'preview_title'
    | 'preview_description'
    | 'preview_image'
  >
>;

/** The outbox events a link write raises. */
export type LinkEvents = RowEvents<LinkEntity>;

@Injectable()
export class LinksRepository extends OwnedRepository<LinkEntity> {
  private readonly rows: RowReader<LinkEntity>;

  constructor(
    @InjectRepository(LinkEntity) repo: Repository<LinkEntity>,
    db: Db,
    private readonly outbox: Outbox,
  ) {
    super(repo, db);
    this.rows = new RowReader(db, repo);
  }

  /**
   * Deletes the link with its visits and statistics (they cascade), and takes its statistics out of
   * the account-wide totals, in one transaction. On SQLite the link is emptied first, in chunks
   * (emptyLinksInChunks).
   */
  override async deleteOwned(ownerId: number, id: number, events?: LinkEvents): Promise<boolean> {
    await emptyLinksInChunks(this.db, ownerId, { linkId: id });
    return this.db.write(async () => {
      // Before the link's row lock (see holdClosedMonths).
      await holdClosedMonths(this.db);
      const link = await this.writing.findOne({
        where: { id, user_id: ownerId },
        ...(events ? {} : { select: { id: true } }),
        ...rowLock(this.db),
      });
      if (!link) {
        return false;
      }
      await subtractLinksFromUser(this.db, ownerId, [id]);
      await this.writing.delete({ id, user_id: ownerId });
      if (events) {
        await this.outbox.write(events.of([link]), events.now);
      }
      return true;
    });
  }

  /** Inserts a link and, in the same write (the caller's when it has one), the events it raises. */
  async insertWithEvents(values: Omit<LinkEntity, 'id'>, events: LinkEvents): Promise<number> {
    return this.db.write(async () => {
      // The row as written is these values (the columns left out take their defaults), its new id.
      const link = Object.assign(new LinkEntity(), values);
      link.id = await insertRow(this.db, LinkEntity, link);
      await this.outbox.write(events.of([link]), events.now);
      return link.id;
    });
  }

  /** The link answering `alias` on a domain (0 = main), whoever owns it: the visitor edge's lookup. */
  findByAlias(domainId: number, alias: string): Promise<LinkEntity | null> {
    return this.repo.findOneBy({ domain_id: domainId, url: alias });
  }

  /** The settings of every static link, whoever owns it: which site versions are in use. */
  async staticSettings(): Promise<string[]> {
    const rows = await this.repo.find({ where: { type: 'static' }, select: { settings: true } });
    return rows.map((row) => row.settings);
  }

  async aliasTaken(domainId: number, alias: string, exceptId?: number): Promise<boolean> {
    // Asked once for every link created (the random alias, or the one chosen).
    const found = await this.rows.firstId('"domain_id" = ? AND "url" = ?', [domainId, alias]);
    return found !== null && found !== exceptId;
  }

  /** The links answering any of `aliases` on a domain, whoever owns them. */
  async findByAliases(domainId: number, aliases: readonly string[]): Promise<LinkFoundByAddress[]> {
    const found: LinkFoundByAddress[] = [];
    for (let i = 0; i < aliases.length; i += IN_CHUNK) {
      found.push(
        ...(await this.repo.find({
          where: { domain_id: domainId, url: In(aliases.slice(i, i + IN_CHUNK)) },
          select: { id: true, user_id: true, url: true, location_url: true, datetime: true },
        })),
      );
    }
    return found;
  }

  /** The id of the owner's link answering `alias` on a domain (0: the main domain), or null. */
  async findOwnedIdByAlias(
    ownerId: number,
    domainId: number,
    alias: string,
  ): Promise<number | null> {
    const found = await this.repo.findOne({
      where: { user_id: ownerId, domain_id: domainId, url: alias },
      select: { id: true },
    });
    return found === null ? null : found.id;
  }

  /** The owner's links on a domain whose destination is one of `locations`. */
  async findOwnedByLocations(
    ownerId: number,
    domainId: number,
    locations: readonly string[],
  ): Promise<LinkFoundByAddress[]> {
    const found: LinkFoundByAddress[] = [];
    for (let i = 0; i < locations.length; i += IN_CHUNK) {
      found.push(
        ...(await this.repo.find({
          where: {
            user_id: ownerId,
            domain_id: domainId,
            location_url: In(locations.slice(i, i + IN_CHUNK)),
          },
          select: { id: true, user_id: true, url: true, location_url: true, datetime: true },
        })),
      );
    }
    return found;
  }

  /**
   * Inserts the rows in one transaction (all or none) with multi-row INSERTs, and returns their
   * ids in the order of `rows`. Plain SQL with RETURNING (SQLite 3.35+, PostgreSQL): TypeORM
   * returns no ids of a multi-row INSERT on SQLite, and its builder costs more than the write.
   * RETURNING's row order is not guaranteed, so ids are matched by address (domain_id, url).
   */
  async insertMany(rows: readonly NewLinkRow[], events?: LinkEvents): Promise<number[]> {
    return this.db.write(async () => {
      const ids: number[] = [];
      for (let i = 0; i < rows.length; i += INSERT_CHUNK) {
        // No turn of the event loop between chunks: this runs inside a transaction, and on SQLite a
        // write another request makes meanwhile on the one connection would join it (and a second
        // app on the same file would wait in SQLite's busy handler, holding this process).
        const chunk = rows.slice(i, i + INSERT_CHUNK);
        const params: unknown[] = [];
        const tuples = chunk.map((row) => {
          const values = INSERT_COLUMNS.map((column) => dbValue(this.db, row[column]));
          const marks = values.map((value) => {
            params.push(value);
            return this.db.placeholder(params.length);
          });
          return `(${marks.join(', ')})`;
        });
        const inserted = await this.db.manager.query<
          Array<{ id: number; domain_id: number; url: string }>
        >(
          `INSERT INTO "links" (${INSERT_COLUMNS.map((c) => `"${c}"`).join(', ')}) VALUES ${tuples.join(', ')} RETURNING "id", "domain_id", "url"`,
          params,
        );
        const byAddress = new Map(inserted.map((r) => [`${r.domain_id}/${r.url}`, Number(r.id)]));
        ids.push(...chunk.map((row) => byAddress.get(`${row.domain_id}/${row.url}`)!));
      }
      if (events && ids.length > 0) {
        const saved = rows.map((row, i) => Object.assign(new LinkEntity(), row, { id: ids[i] }));
        await this.outbox.write(events.of(saved), events.now);
      }
      return ids;
    });
  }

  /**
   * One page of the owner's links for an export: the list's filters, ordered by id, after the
   * id of the previous page's last link (keyset paging: every page costs the same).
   */
  exportPage(
    ownerId: number,
    query: Pick<ListQuery, 'filters' | 'search' | 'datetime'>,
    direction: 'ASC' | 'DESC',
    afterId: number | null,
    limit: number,
  ): Promise<LinkEntity[]> {
    const qb = this.repo.createQueryBuilder('r').where('r.user_id = :ownerId', { ownerId });
    applyListFilters(qb, query);
    if (afterId !== null) {
      qb.andWhere(direction === 'ASC' ? 'r.id > :afterId' : 'r.id < :afterId', { afterId });
    }
    return qb.orderBy('r.id', direction).limit(limit).getMany();
  }

  /**
   * Writes only the given columns (so a concurrent visit flush's `clicks` increment is kept), and
   * only while the row still has the `settings` it had when the caller read it: an update computed
   * from an earlier read must not undo a concurrent one (a static site's replaced version above
   * all). False when no row was written: the link changed meanwhile, or is gone.
   */
  async updateOwnedIf(
    ownerId: number,
    id: number,
    readSettings: string,
    changes: LinkChanges,
    events?: LinkEvents,
  ): Promise<boolean> {
    return this.db.write(async () => {
      const result = await this.writing.update(
        { id, user_id: ownerId, settings: readSettings },
        changes,
      );
      if ((result.affected ?? 0) === 0) {
        return false;
      }
      if (events) {
        const updated = await this.writing.findOneByOrFail({ id, user_id: ownerId });
        await this.outbox.write(events.of([updated]), events.now);
      }
      return true;
    });
  }

  /** Links whose schedule ended by `now` and whose end was not announced yet (oldest end first). */
  expiredUnannounced(now: Date, limit: number): Promise<LinkEntity[]> {
    return this.repo
      .createQueryBuilder('l')
      .where('l.end_date IS NOT NULL AND l.end_date <= :now', { now: toDbDateTime(now) })
      .andWhere('(l.expired_event_end_date IS NULL OR l.expired_event_end_date <> l.end_date)')
      .orderBy('l.end_date', 'ASC')
      .addOrderBy('l.id', 'ASC')
      .take(limit)
      .getMany();
  }

  /**
   * Marks the link's current end as announced and writes its events, in one transaction; false
   * when another worker announced it first or the end date changed meanwhile.
   */
  async announceExpiry(link: LinkEntity, events: LinkEvents): Promise<boolean> {
    return this.db.write(async () => {
      const result = await this.db.manager
        .createQueryBuilder()
        .update(LinkEntity)
        .set({ expired_event_end_date: link.end_date })
        .where('id = :id AND end_date = :end', {
          id: link.id,
          end: link.end_date === null ? null : toDbDateTime(link.end_date),
        })
        .andWhere('(expired_event_end_date IS NULL OR expired_event_end_date <> end_date)')
        .execute();
      if ((result.affected ?? 0) === 0) return false;
      await this.outbox.write(events.of([link]), events.now);
      return true;
    });
  }

  /**
   * Enabled links with a destination whose last check is older than `checkedBefore` (null: all,
   * the command line's run at once), oldest check first; optionally one owner's or one link.
   */
  dueForDestinationCheck(
    checkedBefore: Date | null,
    limit: number,
    only: { userId?: number; linkId?: number } = {},
  ): Promise<LinkEntity[]> {
    const q = this.repo
      .createQueryBuilder('l')
      .where('l.is_enabled = :enabled', { enabled: true })
      .andWhere('l.location_url IS NOT NULL')
      .andWhere('l.type IN (:...types)', { types: ['link', 'walink'] });
    if (checkedBefore !== null) {
      q.andWhere(
        '(l.destination_checked_datetime IS NULL OR l.destination_checked_datetime <= :before)',
        { before: toDbDateTime(checkedBefore) },
      );
    }
    if (only.userId !== undefined) q.andWhere('l.user_id = :userId', { userId: only.userId });
    if (only.linkId !== undefined) q.andWhere('l.id = :linkId', { linkId: only.linkId });
    return q
      .orderBy('l.destination_checked_datetime', 'ASC')
      .addOrderBy('l.id', 'ASC')
      .take(limit)
      .getMany();
  }

  /**
   * Writes the result of one destination check and, in the same transaction, the events of a
   * change of status (`events` gets the row as written). Returns the row as written, or null when
   * the link is gone.
   */
  async recordDestinationCheck(
    id: number,
    result: {
      status: 'ok' | 'broken' | 'unknown';
      statusCode: number | null;
      failures: number;
      checkedAt: Date;
    },
    events: LinkEvents | null,
  ): Promise<LinkEntity | null> {
    return this.db.write(async () => {
      const update = await this.db.manager
        .createQueryBuilder()
        .update(LinkEntity)
        .set({
          destination_status: result.status,
          destination_status_code: result.statusCode,
          destination_failures: result.failures,
          destination_checked_datetime: result.checkedAt,
        })
        .where('id = :id', { id })
        .execute();
      if ((update.affected ?? 0) === 0) return null;
      const row = await this.db.manager.findOneBy(LinkEntity, { id });
      if (row === null) return null;
      if (events !== null) await this.outbox.write(events.of([row]), events.now);
      return row;
    });
  }
}
