import { Injectable, Logger } from '@nestjs/common';
import { QueryFailedError } from 'typeorm';
import { Clock, formatDateTime, NotFoundError } from '@app/common';
import {
  Db,
  Outbox,
  PaymentEntity,
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
    private readonly planRows: PlansRepository,
    private readonly db: Db,
    private readonly outbox: Outbox,
    private readonly clock: Clock,
  ) {}

  async record(input: PaymentInput): Promise<RecordedPayment> {
    const now = this.clock.now();
    let result: RecordedPayment & { userId: number | null };
    try {
      result = await this.db.write(async () => {
        const existing = await this.payments.findByProcessorId(input.processor, input.paymentId);
        if (existing) return { payment: existing, created: false, userId: existing.user_id };
        const user = await this.findUser(input.userId, input.email);
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
          datetime: now,
        });
        if (user) await this.apply(user, payment, now);
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
    return this.db.write(async () => {
      const payment = await this.payments.findByProcessorId(processor, paymentId);
      if (!payment) return null;
      if (payment.status) {
        payment.status = false;
        await this.payments.save(payment);
      }
      return payment;
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
      const expiration = months === null ? null : addMonths(from, months);
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

  /** The user a payment names (by id, else by email), in the open write. */
  private async findUser(userId: number | null, email: string): Promise<UserEntity | null> {
    const users = this.db.repository(UserEntity);
    if (userId !== null) {
      const byId = await users.findOneBy({ id: userId });
      if (byId) return byId;
    }
    const address = email.trim().toLowerCase();
    return address ? users.findOneBy({ email: address }) : null;
  }
}
