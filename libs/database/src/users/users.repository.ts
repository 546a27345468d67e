import { Injectable } from '@nestjs/common';
import { InjectRepository } from '@nestjs/typeorm';
import { Repository } from 'typeorm';
import { Db } from '../engine/db';
import { RowReader } from '../engine/row-reader';
import { ApiKeyEntity } from './api-key.entity';
import { UserEntity } from './user.entity';

/** Users are the owners themselves, so these lookups are not owner-scoped. */
@Injectable()
export class UsersRepository {
  /** GET /v1/user reads the caller's row on every call. */
  private readonly rows: RowReader<UserEntity>;

  constructor(
    @InjectRepository(UserEntity) private readonly repo: Repository<UserEntity>,
    private readonly db: Db,
  ) {
    this.rows = new RowReader(db, repo);
  }

  findById(id: number): Promise<UserEntity | null> {
    return this.rows.one('"id" = ?', [id]);
  }

  findByEmail(email: string): Promise<UserEntity | null> {
    return this.repo.findOneBy({ email: email.toLowerCase() });
  }

  count(): Promise<number> {
    return this.repo.count();
  }

  /** Creates a user and its first API key together, or neither. */
  createWithKey(
    user: Omit<UserEntity, 'id'>,
    key: Omit<ApiKeyEntity, 'id' | 'user_id' | 'user'>,
  ): Promise<{ user: UserEntity; key: ApiKeyEntity }> {
    return this.db.write(async () => {
      const manager = this.db.manager;
      const savedUser = await manager.save(manager.create(UserEntity, user));
      const savedKey = await manager.save(
        manager.create(ApiKeyEntity, { ...key, user_id: savedUser.id }),
      );
      return { user: savedUser, key: savedKey };
    });
  }

  all(): Promise<UserEntity[]> {
    return this.repo.find({ order: { id: 'ASC' } });
  }
}
