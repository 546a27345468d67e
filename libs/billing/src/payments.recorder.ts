import { Injectable, Logger } from '@nestjs/common';
import { QueryFailedError } from 'typeorm';
import { Clock, formatDateTime, NotFoundError } from '@app/common';
import {
  Db,
  Outbox,
  PaymentEntity,
  type PaymentRef,
  PaymentsRepository,
  PlanEntity,
  PlansRepository,
  UserEntity,
  writeAccountLogs,
} from '@app/database';
import { paymentPayload } from './payment-payload';
import {
  addMonths,
  FREQUENCY_MONTHS,
  type PaymentFrequency,
  type PaymentProcessor,
  type PaymentType,
} from './payment-values';
import { PlansService } from './plans.service';
import { type RefundAmount, refundedAfter } from './refund-rule';

/** A refund as a processor reports it: which payment, how much (see refundedAfter). */
export interface RefundInput extends RefundAmount {
  processor: PaymentProcessor;
  /** Ids naming the payment refunded (its own, a payment intent, a charge, …). */
  references: PaymentRef[];
  /** The id of this refund alone, applied once (a Paddle adjustment); null for cumulative amounts. */
  refundId: string | null;
}

/** A payment as a processor (or the operator) reports it; amounts in minor units. */
export interface PaymentInput {
  processor: PaymentProcessor;
  /** The processor's own id; a second payment with the same id is the same payment. */
  paymentId: string;
  /**
   * Other ids the processor names this payment by (a Stripe checkout session, payment intent,
   * charge): an event naming any of them is about this payment.
   */
  references?: PaymentRef[];
  /** The processor's subscription and customer: a user learned once carries over to them. */
  subscriptionId?: string | null;
  customerId?: string | null;
  /** The end of the period paid for, when the processor says; else the frequency decides. */
  periodEnd?: Date | null;
  /** The user named by the processor's metadata or client reference, when it names one. */
  userId: number | null;
  email: string;
  name: string | null;
  planId: number | null;
  type: PaymentType;
  frequency: PaymentFrequency;
  currency: string;
  baseAmount: number;
  discountAmount: number;
  totalAmount: number;
  code: string | null;
}

export interface RecordedPayment {
  payment: PaymentEntity;
  /**
   * `recorded`: a new payment; `completed`: a payment recorded earlier without a user now has
   * one (and was applied); `duplicate`: nothing new, nothing written.
   */
  result: 'recorded' | 'completed' | 'duplicate';
}

/**
 * Records payments once each and applies them: the user (metadata, else the earlier payments of
 * the same subscription or customer, else the email) moves onto the plan paid for, whose end
 * moves by the frequency (or to the end of the period paid for) from the later of now and the
 * current end, and the user's handlers get `payment.created`. All of it in one transaction.
 * Events come in any order and more than once: a payment is applied exactly once, when it first
 * has a user.
 */
@Injectable()
export class PaymentsRecorder {
  private readonly logger = new Logger(PaymentsRecorder.name);

  constructor(
    private readonly payments: PaymentsRepository,
    private readonly plans: PlansService,
    private readonly planRows: PlansRepository,
    private readonly db: Db,
    private readonly outbox: Outbox,
    private readonly clock: Clock,
  ) {}

  async record(input: PaymentInput): Promise<RecordedPayment> {
    const now = this.clock.now();
    const refs = [{ kind: 'payment', value: input.paymentId }, ...(input.references ?? [])];
    let result: RecordedPayment & { userId: number | null };
    try {
      result = await this.db.write(async () => {
        const existing = await this.payments.findByAnyRef(input.processor, refs);
        if (existing) return this.complete(existing, input, now);
        const user = await this.findUser(input);
        const plan: PlanEntity | null =
          input.planId === null ? null : await this.planRows.findById(input.planId);
        const payment = await this.payments.insert({
          user_id: user?.id ?? null,
          plan_id: plan?.id ?? null,
          processor: input.processor,
          payment_id: input.paymentId,
          type: input.type,
          frequency: input.frequency,
          email: input.email.slice(0, 254),
          name: input.name?.slice(0, 128) ?? null,
          currency: input.currency.toUpperCase(),
          base_amount: input.baseAmount,
          discount_amount: input.discountAmount,
          total_amount: input.totalAmount,
          code: input.code?.slice(0, 64) ?? null,
          status: true,
          refunded_amount: 0,
          processor_subscription_id: input.subscriptionId ?? null,
          processor_customer_id: input.customerId ?? null,
          period_end: input.periodEnd ?? null,
          datetime: now,
        });
        await this.payments.addReferences(input.processor, payment.payment_id, refs);
        if (user) await this.apply(user, payment, now);
        return { payment, result: 'recorded' as const, userId: user?.id ?? null };
      });
    } catch (error) {
      // The same event delivered twice at once: the unique (processor, payment_id) let one in.
      if (error instanceof QueryFailedError) {
        const existing = await this.payments.findByProcessorId(input.processor, input.paymentId);
        if (existing) return { payment: existing, result: 'duplicate' };
      }
      throw error;
    }
    if (result.result === 'recorded' && result.userId === null) {
      this.logger.warn(
        `Payment ${result.payment.id} (${input.processor} ${input.paymentId}, ${input.email}) matches no user; assign it with payment:assign.`,
      );
    }
    if (result.userId !== null) this.plans.forget(result.userId);
    return { payment: result.payment, result: result.result };
  }

  /**
   * A payment already recorded, named again (a replay, or another event about it): it learns the
   * ids, subscription and customer it did not know, and when it had no user and this event names
   * one, it gets that user (and the plan, if it had none) and is applied now.
   */
  private async complete(
    payment: PaymentEntity,
    input: PaymentInput,
    now: Date,
  ): Promise<RecordedPayment & { userId: number | null }> {
    const refs = [{ kind: 'payment', value: input.paymentId }, ...(input.references ?? [])];
    await this.payments.addReferences(payment.processor, payment.payment_id, refs);
    let changed = false;
    if (payment.processor_subscription_id === null && input.subscriptionId) {
      payment.processor_subscription_id = input.subscriptionId;
      changed = true;
    }
    if (payment.processor_customer_id === null && input.customerId) {
      payment.processor_customer_id = input.customerId;
      changed = true;
    }
    const user = payment.user_id === null ? await this.findUser(input) : null;
    if (user) {
      payment.user_id = user.id;
      if (payment.plan_id === null && input.planId !== null) {
        payment.plan_id = (await this.planRows.findById(input.planId))?.id ?? null;
        if (payment.plan_id !== null) payment.frequency = input.frequency;
      }
      payment.period_end ??= input.periodEnd ?? null;
    }
    if (changed || user) await this.payments.save(payment);
    if (!user) return { payment, result: 'duplicate', userId: null };
    await this.apply(user, payment, now);
    return { payment, result: 'completed', userId: user.id };
  }

  /**
   * Applies a refund to the payment any of `refund.references` names (docs/billing.md,
   * "Refunds"); the plan stays as it is. `duplicate` when it changes nothing (a replay); null when
   * no recorded payment is named.
   */
  async refund(
    refund: RefundInput,
  ): Promise<{ payment: PaymentEntity; result: 'refunded' | 'duplicate' } | null> {
    return this.db.write(async () => {
      const payment = await this.payments.findByAnyRef(refund.processor, refund.references);
      if (!payment) return null;
      if (refund.refundId !== null) {
        const fresh = await this.payments.addReferences(refund.processor, payment.payment_id, [
          { kind: 'refund', value: refund.refundId },
        ]);
        if (!fresh) return { payment, result: 'duplicate' as const };
      }
      const after = refundedAfter(payment, refund);
      if (after.status === payment.status && after.refunded_amount === payment.refunded_amount) {
        return { payment, result: 'duplicate' as const };
      }
      payment.status = after.status;
      payment.refunded_amount = after.refunded_amount;
      await this.payments.save(payment);
      return { payment, result: 'refunded' as const };
    });
  }

  /**
   * Remembers more ids of the payment whose own id is `paymentKey`, recorded or not yet (Stripe's
   * `invoice_payment.paid`: the payment intent and charge of an invoice). `duplicate` when they
   * were all known.
   */
  async link(
    processor: PaymentProcessor,
    paymentKey: string,
    references: PaymentRef[],
  ): Promise<{ payment: PaymentEntity | null; result: 'linked' | 'duplicate' }> {
    return this.db.write(async () => {
      const fresh = await this.payments.addReferences(processor, paymentKey, references);
      const payment = await this.payments.findByProcessorId(processor, paymentKey);
      return { payment, result: fresh ? ('linked' as const) : ('duplicate' as const) };
    });
  }

  /** Gives an unmatched payment to a user and applies it as if it had matched. */
  async assign(paymentId: number, userId: number): Promise<PaymentEntity> {
    const now = this.clock.now();
    const payment = await this.db.write(async () => {
      const found = await this.payments.findById(paymentId);
      if (!found) throw new NotFoundError('payment_not_found', 'payment');
      const user = await this.db.repository(UserEntity).findOneBy({ id: userId });
      if (!user) throw new NotFoundError('user_not_found', 'user');
      if (found.user_id !== null) {
        throw new NotFoundError('payment_not_found', 'unmatched payment');
      }
      found.user_id = user.id;
      await this.payments.save(found);
      await this.apply(user, found, now);
      return found;
    });
    this.plans.forget(userId);
    return payment;
  }

  /** The user's plan and its end after the payment, the event and the log entry. */
  private async apply(user: UserEntity, payment: PaymentEntity, now: Date): Promise<void> {
    if (payment.plan_id !== null) {
      const months = FREQUENCY_MONTHS[payment.frequency as PaymentFrequency];
      const current = user.plan_expiration_date;
      const from = current && current.getTime() > now.getTime() ? current : now;
      // The period the processor says was paid for ends the plan (never earlier than it ends
      // now): an upgrade's proration invoice does not add a whole period.
      const end = payment.period_end;
      const expiration =
        end !== null
          ? new Date(Math.max(from.getTime(), end.getTime()))
          : months === null
            ? null
            : addMonths(from, months);
      await this.planRows.setUserPlan(user.id, payment.plan_id, expiration);
      await writeAccountLogs(
        this.db,
        [
          {
            userId: user.id,
            type: 'plan.changed',
            data: {
              plan_id: payment.plan_id,
              previous_plan_id: user.plan_id,
              plan_expiration_date: formatDateTime(expiration),
              payment_id: payment.id,
            },
          },
        ],
        now,
      );
    }
    await this.outbox.write(
      [{ event: 'payment.created', ownerId: user.id, data: { ...paymentPayload(payment) } }],
      now,
    );
  }

  /**
   * The user a payment names, in the open write: by id (metadata), else the user of an earlier
   * payment of the same subscription, else of the same customer, else by email.
   */
  private async findUser(input: PaymentInput): Promise<UserEntity | null> {
    const users = this.db.repository(UserEntity);
    if (input.userId !== null) {
      const byId = await users.findOneBy({ id: input.userId });
      if (byId) return byId;
    }
    const payers = [
      ['processor_subscription_id', input.subscriptionId],
      ['processor_customer_id', input.customerId],
    ] as const;
    for (const [link, value] of payers) {
      if (!value) continue;
      const earlier = await this.payments.matchedByPayer(input.processor, link, value);
      const user = earlier?.user_id ? await users.findOneBy({ id: earlier.user_id }) : null;
      if (user) return user;
    }
    const address = input.email.trim().toLowerCase();
    return address ? users.findOneBy({ email: address }) : null;
  }
}
