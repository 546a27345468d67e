import { Injectable } from '@nestjs/common';
import { InjectRepository } from '@nestjs/typeorm';
import { Repository } from 'typeorm';
import { ApiKeyEntity } from './api-key.entity';
import { UserEntity } from './user.entity';

export interface KeyWithUser {
  key: ApiKeyEntity;
  user: UserEntity;
}

@Injectable()
export class ApiKeysRepository {
  constructor(@InjectRepository(ApiKeyEntity) private readonly repo: Repository<ApiKeyEntity>) {}

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

  listOwned(userId: number): Promise<ApiKeyEntity[]> {
    return this.repo.find({ where: { user_id: userId }, order: { id: 'ASC' } });
  }

  async touch(id: number, at: Date): Promise<void> {
    await this.repo.update({ id }, { last_used_datetime: at });
  }

  save(key: ApiKeyEntity): Promise<ApiKeyEntity> {
    return this.repo.save(key);
  }
}
