import { Injectable } from '@nestjs/common';
import { Actor } from '@app/auth';
import { paymentPayload } from '@app/billing';
import { ListQuery, NotFoundError, Paginated } from '@app/common';
import { PaymentsRepository } from '@app/database';
import { PaymentResponse } from './payment.mapper';

/** The account's own payments: never a team's (payments are account-level). */
@Injectable()
export class PaymentsService {
  constructor(private readonly payments: PaymentsRepository) {}

  async list(actor: Actor, query: ListQuery): Promise<Paginated<PaymentResponse>> {
    return (await this.payments.listOwned(actor.userId, query)).map(paymentPayload);
  }

  async get(actor: Actor, id: number): Promise<PaymentResponse> {
    const payment = await this.payments.findOwned(actor.userId, id);
    if (!payment) throw new NotFoundError('payment_not_found', 'payment');
    return paymentPayload(payment);
  }
}
