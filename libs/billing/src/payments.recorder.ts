import { Injectable, Logger } from '@nestjs/common';
import { EntityManager, QueryFailedError } from 'typeorm';
import { Clock, formatDateTime, NotFoundError } from '@app/common';
import {
  PaymentEntity,
  PaymentsRepository,
  PlanEntity,
  UserEntity,
  writeAccountLogs,
  writeOutboxEvents,
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

/** A payment as a processor (or the operator) reports it; amounts in minor units. */
export interface PaymentInput {
  processor: PaymentProcessor;
  /** The processor's own id; a second payment with the same id is the same payment. */
  paymentId: string;
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
  /** false when the payment was already recorded (a replayed webhook): nothing was written. */
  created: boolean;
}

/**
 * Records payments once each and applies them: the user (metadata, else the email) moves onto the
 * plan paid for, whose end moves by the frequency from the later of now and the current end, and
 * the user's handlers get `payment.created`. All of it in one transaction.
 */
@Injectable()
export class PaymentsRecorder {
  private readonly logger = new Logger(PaymentsRecorder.name);

  constructor(
    private readonly payments: PaymentsRepository,
    private readonly plans: PlansService,
    private readonly clock: Clock,
  ) {}

  async record(input: PaymentInput): Promise<RecordedPayment> {
    const now = this.clock.now();
    let result: RecordedPayment & { userId: number | null };
    try {
      result = await this.payments.transaction(async (em) => {
        const existing = await this.payments.findByProcessorId(
          input.processor,
          input.paymentId,
          em,
        );
        if (existing) return { payment: existing, created: false, userId: existing.user_id };
        const user = await findUser(em, input.userId, input.email);
        const plan =
          input.planId === null ? null : await em.findOneBy(PlanEntity, { id: input.planId });
        const payment = await em.save(
          em.create(PaymentEntity, {
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
            datetime: now,
          }),
        );
        if (user) await this.apply(em, user, payment, now);
        return { payment, created: true, userId: user?.id ?? null };
      });
    } catch (error) {
      // The same event delivered twice at once: the unique (processor, payment_id) let one in.
      if (error instanceof QueryFailedError) {
        const existing = await this.payments.findByProcessorId(input.processor, input.paymentId);
        if (existing) return { payment: existing, created: false };
      }
      throw error;
    }
    if (result.created && result.userId === null) {
      this.logger.warn(
        `Payment ${result.payment.id} (${input.processor} ${input.paymentId}, ${input.email}) matches no user; assign it with payment:assign.`,
      );
    }
    if (result.userId !== null) this.plans.forget(result.userId);
    return { payment: result.payment, created: result.created };
  }

  /** Marks a payment refunded (status false); the plan stays as it is. Null when it is unknown. */
  async refund(processor: PaymentProcessor, paymentId: string): Promise<PaymentEntity | null> {
    return this.payments.transaction(async (em) => {
      const payment = await this.payments.findByProcessorId(processor, paymentId, em);
      if (!payment) return null;
      if (payment.status) {
        payment.status = false;
        await em.save(payment);
      }
      return payment;
    });
  }

  /** Gives an unmatched payment to a user and applies it as if it had matched. */
  async assign(paymentId: number, userId: number): Promise<PaymentEntity> {
    const now = this.clock.now();
    const payment = await this.payments.transaction(async (em) => {
      const found = await this.payments.findById(paymentId, em);
      if (!found) throw new NotFoundError('payment_not_found', 'payment');
      const user = await em.findOneBy(UserEntity, { id: userId });
      if (!user) throw new NotFoundError('user_not_found', 'user');
      if (found.user_id !== null) {
        throw new NotFoundError('payment_not_found', 'unmatched payment');
      }
      found.user_id = user.id;
      await em.save(found);
      await this.apply(em, user, found, now);
      return found;
    });
    this.plans.forget(userId);
    return payment;
  }

  /** The user's plan and its end after the payment, the event and the log entry. */
  private async apply(
    em: EntityManager,
    user: UserEntity,
    payment: PaymentEntity,
    now: Date,
  ): Promise<void> {
    if (payment.plan_id !== null) {
      const months = FREQUENCY_MONTHS[payment.frequency as PaymentFrequency];
      const current = user.plan_expiration_date;
      const from = current && current.getTime() > now.getTime() ? current : now;
      const expiration = months === null ? null : addMonths(from, months);
      await em.update(
        UserEntity,
        { id: user.id },
        { plan_id: payment.plan_id, plan_expiration_date: expiration },
      );
      await writeAccountLogs(
        em,
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
    await writeOutboxEvents(
      em,
      [{ event: 'payment.created', ownerId: user.id, data: { ...paymentPayload(payment) } }],
      now,
    );
  }
}

async function findUser(
  em: EntityManager,
  userId: number | null,
  email: string,
): Promise<UserEntity | null> {
  if (userId !== null) {
    const byId = await em.findOneBy(UserEntity, { id: userId });
    if (byId) return byId;
  }
  const address = email.trim().toLowerCase();
  return address ? em.findOneBy(UserEntity, { email: address }) : null;
}
