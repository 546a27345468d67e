import { FindOptionsWhere, ObjectLiteral, Repository, SelectQueryBuilder } from 'typeorm';
import { ListQuery, Paginated } from '@app/common';
import { toDbDateTime, toDbValue } from './db-values';
import type { Db } from './engine/db';

/** An entity that belongs to one user (the workspace owner). */
export interface OwnedEntity extends ObjectLiteral {
  id: number;
  user_id: number;
}

/**
 * Find options that lock the rows found until the transaction ends (FOR UPDATE) where writes run
 * concurrently (Db.concurrentWrites). SQLite has no row locks and needs none: its writers take turns.
 */
export function rowLock(db: Db): { lock?: { mode: 'pessimistic_write' } } {
  return db.concurrentWrites ? { lock: { mode: 'pessimistic_write' } } : {};
}

const COLUMN = /^[a-z][a-z0-9_]*$/;

/** Values of one `IN (...)` list, well under both drivers' parameter limits. */
export const IN_CHUNK = 500;

function column(alias: string, name: string): string {
  if (!COLUMN.test(name)) {
    throw new Error(`Unsafe column name in a list spec: ${name}`);
  }
  return `${alias}.${name}`;
}

/**
 * Base of every repository of owned resources. Each method takes the owner first and puts it in
 * the WHERE clause, so no query built through it can return another user's row.
 */
export abstract class OwnedRepository<E extends OwnedEntity> {
  protected constructor(
    protected readonly repo: Repository<E>,
    protected readonly db: Db,
  ) {}

  /** The entity's repository in the open write (or the data source's outside one). */
  protected get writing(): Repository<E> {
    return this.db.repository<E>(this.repo.target);
  }

  findOwned(ownerId: number, id: number): Promise<E | null> {
    return this.repo.findOneBy({ id, user_id: ownerId } as FindOptionsWhere<E>);
  }

  async listOwned(ownerId: number, query: ListQuery): Promise<Paginated<E>> {
    const qb = this.repo.createQueryBuilder('r').where('r.user_id = :ownerId', { ownerId });
    this.applyListQuery(qb, query);
    const [items, total] = await qb.getManyAndCount();
    return new Paginated(items, total, query.page, query.resultsPerPage);
  }

  /** Which of `ids` are rows of this owner: one query for many ownership checks. */
  async ownedIds(ownerId: number, ids: readonly number[]): Promise<Set<number>> {
    const found = new Set<number>();
    for (let i = 0; i < ids.length; i += IN_CHUNK) {
      const rows = await this.repo
        .createQueryBuilder('r')
        .select('r.id', 'id')
        .where('r.user_id = :ownerId', { ownerId })
        .andWhere('r.id IN (:...ids)', { ids: ids.slice(i, i + IN_CHUNK) })
        .getRawMany<{ id: number }>();
      rows.forEach((row) => found.add(Number(row.id)));
    }
    return found;
  }

  /** Inserts a row, in the open write when there is one (a create a plan limit checked). */
  async insert(values: Omit<E, 'id'>): Promise<number> {
    return this.db.write(async () => {
      const repo = this.writing;
      const saved = await repo.save(repo.create(values as E));
      return saved.id;
    });
  }

  async save(entity: E): Promise<E> {
    return this.db.write(() => this.writing.save(entity));
  }

  /** Returns whether a row of this owner was deleted. */
  async deleteOwned(ownerId: number, id: number): Promise<boolean> {
    const result = await this.db.write(() =>
      this.writing.delete({ id, user_id: ownerId } as FindOptionsWhere<E>),
    );
    return (result.affected ?? 0) > 0;
  }

  protected applyListQuery(qb: SelectQueryBuilder<E>, query: ListQuery): void {
    applyListQuery(qb, query);
  }
}

/**
 * Applies a parsed list query (filters, search, datetime range, order, page) to a query builder whose
 * main alias is `r`.
 */
export function applyListQuery<T extends ObjectLiteral>(
  qb: SelectQueryBuilder<T>,
  query: ListQuery,
): void {
  applyListFilters(qb, query);
  const direction = query.order.direction;
  qb.orderBy(column('r', query.order.column), direction);
  if (query.order.column !== 'id') {
    qb.addOrderBy('r.id', direction);
  }
  qb.skip((query.page - 1) * query.resultsPerPage).take(query.resultsPerPage);
}

/** The filters, search and datetime range of a list query, without its order and page. */
export function applyListFilters<T extends ObjectLiteral>(
  qb: SelectQueryBuilder<T>,
  query: Pick<ListQuery, 'filters' | 'search' | 'datetime'>,
): void {
  const ds = qb.connection;
  query.filters.forEach((filter, i) => {
    const col = column('r', filter.column);
    if (filter.value === null) {
      qb.andWhere(`${col} IS NULL`);
    } else {
      qb.andWhere(`${col} = :filter${i}`, { [`filter${i}`]: toDbValue(ds, filter.value) });
    }
  });
  if (query.search) {
    const term = `%${query.search.term.toLowerCase().replace(/[\\%_]/g, (c) => `\\${c}`)}%`;
    const clauses = query.search.columns.map(
      (name) => `LOWER(${column('r', name)}) LIKE :search ESCAPE '\\'`,
    );
    qb.andWhere(`(${clauses.join(' OR ')})`, { search: term });
  }
  if (query.datetime) {
    const col = column('r', query.datetime.column);
    if (query.datetime.start) {
      qb.andWhere(`${col} >= :dtStart`, { dtStart: toDbDateTime(query.datetime.start) });
    }
    if (query.datetime.end) {
      // The bound is inclusive to the second: stored values carry milliseconds. (The last
      // millisecond of the second, not `<` the next second, which for 9999-12-31 23:59:59 is a
      // year PostgreSQL cannot read.)
      const end = new Date(query.datetime.end.getTime() + 999);
      qb.andWhere(`${col} <= :dtEnd`, { dtEnd: toDbDateTime(end) });
    }
  }
}
