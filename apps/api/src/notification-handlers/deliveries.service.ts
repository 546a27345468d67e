import { Injectable } from '@nestjs/common';
import { Actor } from '@app/auth';
import { Clock, ListQuery, NotFoundError, Paginated } from '@app/common';
import { DeliveryLogRepository, NotificationHandlersRepository } from '@app/database';
import { DeliveryResponse, toDeliveryResponse } from './delivery.mapper';

/** The delivery log of a handler: what was sent, how each attempt went, and a retry. */
@Injectable()
export class DeliveriesService {
  constructor(
    private readonly handlers: NotificationHandlersRepository,
    private readonly log: DeliveryLogRepository,
    private readonly clock: Clock,
  ) {}

  async list(
    actor: Actor,
    handlerId: number,
    query: ListQuery,
  ): Promise<Paginated<DeliveryResponse>> {
    await this.ownedHandler(actor, handlerId);
    const page = await this.log.listForHandler(handlerId, query);
    return page.map(({ delivery, eventUid }) => toDeliveryResponse(delivery, eventUid));
  }

  /** Makes a delivery due now (any status); the attempts so far stay in its count. */
  async retry(actor: Actor, handlerId: number, deliveryId: number): Promise<DeliveryResponse> {
    await this.ownedHandler(actor, handlerId);
    const delivery = await this.log.findForHandler(handlerId, deliveryId);
    if (delivery === null) {
      throw new NotFoundError('delivery_not_found', 'delivery');
    }
    const updated = (await this.log.retry(delivery.id, this.clock.now())) ?? delivery;
    const uids = await this.log.eventUids([updated.event_id]);
    return toDeliveryResponse(updated, uids.get(updated.event_id) ?? '');
  }

  private async ownedHandler(actor: Actor, id: number): Promise<void> {
    if (!(await this.handlers.findOwned(actor.ownerId, id))) {
      throw new NotFoundError('notification_handler_not_found', 'notification handler');
    }
  }
}
