import { Injectable } from '@nestjs/common';
import { InjectRepository } from '@nestjs/typeorm';
import { Repository } from 'typeorm';
import { Db } from '../engine/db';
import { OwnedRepository } from '../owned.repository';
import { PushSubscriberEntity } from './push-subscriber.entity';

@Injectable()
export class PushSubscribersRepository extends OwnedRepository<PushSubscriberEntity> {
  constructor(
    @InjectRepository(PushSubscriberEntity) repo: Repository<PushSubscriberEntity>,
    db: Db,
  ) {
    super(repo, db);
  }

  /** The subscriber a handler names (the handler's owner was checked when it was saved). */
  findById(id: number): Promise<PushSubscriberEntity | null> {
    return this.repo.findOneBy({ id });
  }

  findByEndpoint(ownerId: number, endpoint: string): Promise<PushSubscriberEntity | null> {
    return this.repo.findOneBy({ user_id: ownerId, endpoint });
  }

  async touch(id: number, now: Date): Promise<void> {
    await this.db.write(() => this.writing.update({ id }, { last_datetime: now }));
  }

  /** The push service said the subscription is gone (404/410): it can never receive again. */
  async remove(id: number): Promise<void> {
    await this.db.write(() => this.writing.delete({ id }));
  }
}
