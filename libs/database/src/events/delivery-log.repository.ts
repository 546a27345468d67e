import { Injectable } from '@nestjs/common';
import { InjectRepository } from '@nestjs/typeorm';
import { In, Repository } from 'typeorm';
import { ListQuery, Paginated } from '@app/common';
import { Db } from '../engine/db';
import { applyListQuery } from '../owned.repository';
import { DeliveryEntity } from './delivery.entity';
import { Outbox } from './outbox';
import { OutboxEventEntity } from './outbox-event.entity';

/** The delivery log of one handler (the handler's ownership is checked by the caller). */
@Injectable()
export class DeliveryLogRepository {
  constructor(
    @InjectRepository(DeliveryEntity) private readonly repo: Repository<DeliveryEntity>,
    private readonly db: Db,
    private readonly outbox: Outbox,
  ) {}

  /** One page of a handler's deliveries, with each one's public event id. */
  async listForHandler(
    handlerId: number,
    query: ListQuery,
  ): Promise<Paginated<{ delivery: DeliveryEntity; eventUid: string }>> {
    const qb = this.repo.createQueryBuilder('r').where('r.handler_id = :handlerId', { handlerId });
    applyListQuery(qb, query);
    const [items, total] = await qb.getManyAndCount();
    const uids = await this.eventUids(items.map((d) => d.event_id));
    const page = items.map((delivery) => ({
      delivery,
      eventUid: uids.get(delivery.event_id) ?? '',
    }));
    return new Paginated(page, total, query.page, query.resultsPerPage);
  }

  findForHandler(handlerId: number, id: number): Promise<DeliveryEntity | null> {
    return this.repo.findOneBy({ id, handler_id: handlerId });
  }

  async eventUids(eventIds: readonly number[]): Promise<Map<number, string>> {
    if (eventIds.length === 0) return new Map();
    const rows = await this.repo.manager.getRepository(OutboxEventEntity).find({
      where: { id: In([...new Set(eventIds)]) },
      select: { id: true, uid: true },
    });
    return new Map(rows.map((r) => [r.id, r.uid]));
  }

  /**
   * Makes a delivery due now again; its attempts are kept (the log shows all of them). Returns the
   * delivery as the retry left it, read in the retry's write before the dispatchers are woken: a
   * dispatcher may attempt it the moment the write commits.
   */
  async retry(id: number, now: Date): Promise<DeliveryEntity | null> {
    return this.db.write(async () => {
      const deliveries = this.db.repository(DeliveryEntity);
      await deliveries.update(
        { id },
        { status: 'pending', next_attempt_at: now, lease_until: null },
      );
      const retried = await deliveries.findOneBy({ id });
      await this.outbox.wake();
      return retried;
    });
  }
}
