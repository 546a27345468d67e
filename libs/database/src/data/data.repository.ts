import { Injectable } from '@nestjs/common';
import { InjectRepository } from '@nestjs/typeorm';
import { Repository } from 'typeorm';
import { formatDateTime, ListQuery } from '@app/common';
import { toDbDateTime } from '../db-values';
import { Db } from '../engine/db';
import { Outbox } from '../events/outbox';
import { applyListFilters, OwnedRepository } from '../owned.repository';
import { DatumEntity } from './datum.entity';

@Injectable()
export class DataRepository extends OwnedRepository<DatumEntity> {
  constructor(
    @InjectRepository(DatumEntity) repo: Repository<DatumEntity>,
    db: Db,
    private readonly outbox: Outbox,
  ) {
    super(repo, db);
  }

  /**
   * The records matching a list query's filters, page by page in id order, for a streamed export.
   */
  async *exportOwned(
    ownerId: number,
    query: Pick<ListQuery, 'filters' | 'search' | 'datetime' | 'order'>,
    pageSize = 500,
  ): AsyncGenerator<DatumEntity[]> {
    const descending = query.order.direction === 'DESC';
    let after: number | null = null;
    for (;;) {
      const qb = this.repo.createQueryBuilder('r').where('r.user_id = :ownerId', { ownerId });
      applyListFilters(qb, query);
      if (after !== null) {
        qb.andWhere(descending ? 'r.id < :after' : 'r.id > :after', { after });
      }
      const rows = await qb
        .orderBy('r.id', descending ? 'DESC' : 'ASC')
        .take(pageSize)
        .getMany();
      if (rows.length === 0) return;
      yield rows;
      if (rows.length < pageSize) return;
      after = rows[rows.length - 1].id;
    }
  }

  /** The booked slot starts of one block from `from` on. */
  /** The booked slot starts from `from` on of several blocks, in one query (a page's blocks). */
  async bookedSlotsOf(blockIds: readonly number[], from: Date): Promise<Map<number, Set<number>>> {
    const booked = new Map<number, Set<number>>(blockIds.map((id) => [id, new Set<number>()]));
    if (blockIds.length === 0) return booked;
    const rows = await this.repo
      .createQueryBuilder('r')
      .select('r.biolink_block_id', 'block_id')
      .addSelect('r.slot_start', 'slot_start')
      .where('r.biolink_block_id IN (:...blockIds)', { blockIds })
      .andWhere('r.slot_start >= :from', { from: toDbDateTime(from) })
      .getRawMany<{ block_id: number | string; slot_start: Date | string }>();
    for (const r of rows) {
      booked.get(Number(r.block_id))?.add(toDate(r.slot_start).getTime());
    }
    return booked;
  }

  async bookedSlots(blockId: number, from: Date): Promise<Set<number>> {
    const rows = await this.repo
      .createQueryBuilder('r')
      .select('r.slot_start', 'slot_start')
      .where('r.biolink_block_id = :blockId', { blockId })
      .andWhere('r.slot_start >= :from', { from: toDbDateTime(from) })
      .getRawMany<{ slot_start: Date | string }>();
    return new Set(rows.map((r) => toDate(r.slot_start).getTime()));
  }

  /**
   * Writes a record and its `data.created` event in one transaction: both or neither. A second
   * booking of the same appointment slot violates the unique index and is reported as null.
   */
  async record(
    values: Omit<DatumEntity, 'id'>,
    handlerIds: readonly number[],
    now: Date,
  ): Promise<DatumEntity | null> {
    try {
      return await this.db.write(async () => {
        const repo = this.writing;
        const saved = await repo.save(repo.create(values));
        await this.outbox.write(
          [
            {
              event: 'data.created',
              ownerId: saved.user_id,
              data: { ...datumRecord(saved) },
              handlerIds,
            },
          ],
          now,
        );
        return saved;
      });
    } catch (error) {
      if (values.slot_start !== null && isUniqueViolation(error)) {
        return null;
      }
      throw error;
    }
  }
}

/** A record as the API shows it (`GET /v1/data/{id}`) and as `data.created` carries it. */
export interface DatumRecord {
  id: number;
  biolink_block_id: number;
  link_id: number;
  project_id: number | null;
  type: string;
  data: Record<string, unknown>;
  datetime: string;
}

export function datumRecord(datum: DatumEntity): DatumRecord {
  return {
    id: datum.id,
    biolink_block_id: datum.biolink_block_id,
    link_id: datum.link_id,
    project_id: datum.project_id,
    type: datum.type,
    data: JSON.parse(datum.data) as Record<string, unknown>,
    datetime: formatDateTime(datum.datetime),
  };
}

/** SQLite's and PostgreSQL's "duplicate key" errors. */
function isUniqueViolation(error: unknown): boolean {
  const e = error as { code?: string; driverError?: { code?: string } };
  const code = e.driverError?.code ?? e.code;
  return code === '23505' || code === 'SQLITE_CONSTRAINT_UNIQUE';
}

function toDate(value: Date | string): Date {
  if (value instanceof Date) return value;
  return new Date(/[zZ]|[+-]\d\d:?\d\d$/.test(value) ? value : `${value.replace(' ', 'T')}Z`);
}
