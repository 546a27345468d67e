import { Injectable } from '@nestjs/common';
import { InjectRepository } from '@nestjs/typeorm';
import { IsNull, Repository } from 'typeorm';
import { ListQuery, Paginated } from '@app/common';
import { writeAccountLogs } from '../account-logs/account-logs';
import { Db } from '../engine/db';
import { applyListQuery } from '../owned.repository';
import { ApiKeyEntity } from './api-key.entity';
import { UserEntity } from './user.entity';

export interface KeyWithUser {
  key: ApiKeyEntity;
  user: UserEntity;
}

@Injectable()
export class ApiKeysRepository {
  constructor(
    @InjectRepository(ApiKeyEntity) private readonly repo: Repository<ApiKeyEntity>,
    private readonly db: Db,
  ) {}

  /** The keys' repository in the open write (the data source's outside one). */
  private get writing(): Repository<ApiKeyEntity> {
    return this.db.repository(ApiKeyEntity);
  }

  /** The key with this hash and its user, in one indexed lookup. */
  async findByHash(keyHash: string): Promise<KeyWithUser | null> {
    const key = await this.repo.findOne({
      where: { key_hash: keyHash },
      relations: { user: true },
    });
    return key?.user ? { key, user: key.user } : null;
  }

  findOwned(userId: number, id: number): Promise<ApiKeyEntity | null> {
    return this.repo.findOneBy({ id, user_id: userId });
  }

  /** A key of the user that is not revoked (it may have expired). */
  findActiveOwned(userId: number, id: number): Promise<ApiKeyEntity | null> {
    return this.repo.findOneBy({ id, user_id: userId, revocation_datetime: IsNull() });
  }

  /** The user's keys that are not revoked, as a list page. */
  async listActive(userId: number, query: ListQuery): Promise<Paginated<ApiKeyEntity>> {
    const qb = this.repo
      .createQueryBuilder('r')
      .where('r.user_id = :userId', { userId })
      .andWhere('r.revocation_datetime IS NULL');
    applyListQuery(qb, query);
    const [items, total] = await qb.getManyAndCount();
    return new Paginated(items, total, query.page, query.resultsPerPage);
  }

  countActive(userId: number): Promise<number> {
    return this.repo.countBy({ user_id: userId, revocation_datetime: IsNull() });
  }

  listOwned(userId: number): Promise<ApiKeyEntity[]> {
    return this.repo.find({ where: { user_id: userId }, order: { id: 'ASC' } });
  }

  async touch(id: number, at: Date): Promise<void> {
    await this.db.write(() => this.writing.update({ id }, { last_used_datetime: at }));
  }

  /** Saves the key; with `log`, also its account log entry, in the same transaction. */
  save(key: ApiKeyEntity, log?: 'api_key.created' | 'api_key.revoked'): Promise<ApiKeyEntity> {
    return this.db.write(async () => {
      const saved = await this.writing.save(key);
      if (log === undefined) return saved;
      const data = { id: saved.id, name: saved.name, prefix: saved.prefix, scope: saved.scope };
      await writeAccountLogs(
        this.db,
        [{ userId: saved.user_id, type: log, data }],
        log === 'api_key.revoked' ? (saved.revocation_datetime ?? new Date()) : saved.datetime,
      );
      return saved;
    });
  }
}
