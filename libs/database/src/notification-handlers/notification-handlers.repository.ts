import { Injectable } from '@nestjs/common';
import { InjectRepository } from '@nestjs/typeorm';
import { Repository } from 'typeorm';
import { Db } from '../engine/db';
import { OwnedRepository } from '../owned.repository';
import { NotificationHandlerEntity } from './notification-handler.entity';

@Injectable()
export class NotificationHandlersRepository extends OwnedRepository<NotificationHandlerEntity> {
  constructor(
    @InjectRepository(NotificationHandlerEntity) repo: Repository<NotificationHandlerEntity>,
    db: Db,
  ) {
    super(repo, db);
  }

  /** The enabled handlers of one owner: where an event of that owner is delivered. */
  findEnabled(ownerId: number): Promise<NotificationHandlerEntity[]> {
    return this.repo.find({ where: { user_id: ownerId, is_enabled: true }, order: { id: 'ASC' } });
  }
}
