import { Injectable } from '@nestjs/common';
import { InjectRepository } from '@nestjs/typeorm';
import { LessThan, Repository } from 'typeorm';
import { ListQuery, Paginated } from '@app/common';
import { Db } from '../engine/db';
import { applyListQuery } from '../owned.repository';
import { AccountLogEntity } from './account-log.entity';
import { AccountLogInput, writeAccountLogs } from './account-logs';

const DELETE_BATCH = 5_000;

@Injectable()
export class AccountLogsRepository {
  constructor(
    @InjectRepository(AccountLogEntity) private readonly repo: Repository<AccountLogEntity>,
    private readonly db: Db,
  ) {}

  async listOwned(userId: number, query: ListQuery): Promise<Paginated<AccountLogEntity>> {
    const qb = this.repo.createQueryBuilder('r').where('r.user_id = :userId', { userId });
    applyListQuery(qb, query);
    const [items, total] = await qb.getManyAndCount();
    return new Paginated(items, total, query.page, query.resultsPerPage);
  }

  /** Writes entries in a transaction of their own (for actions that write nothing else). */
  add(entries: readonly AccountLogInput[], now: Date): Promise<void> {
    return writeAccountLogs(this.db, entries, now);
  }

  /** Deletes entries older than `cutoff`, in batches; returns how many. */
  async deleteOlderThan(cutoff: Date, signal?: AbortSignal): Promise<number> {
    let deleted = 0;
    for (;;) {
      if (signal?.aborted) return deleted;
      const rows = await this.repo.find({
        where: { datetime: LessThan(cutoff) },
        select: { id: true },
        take: DELETE_BATCH,
      });
      if (rows.length === 0) return deleted;
      await this.db.write(() => this.db.repository(AccountLogEntity).delete(rows.map((r) => r.id)));
      deleted += rows.length;
    }
  }
}
