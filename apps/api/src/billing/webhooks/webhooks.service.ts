import { Inject, Injectable, Logger } from '@nestjs/common';
import {
  currencyExponent,
  type WebhookProcessor,
  PaymentsRecorder,
  planOfPriceId,
  PlansService,
} from '@app/billing';
import { AppError, Clock } from '@app/common';
import { APP_CONFIG, type AppConfig } from '@app/config';
import { PaymentsRepository } from '@app/database';
import { readLemonSqueezyEvent } from './lemonsqueezy-events';
import { readPaddleEvent } from './paddle-events';
import { verifyLemonSqueezy, verifyPaddle, verifyStripe } from './signatures';
import { readStripeEvent } from './stripe-events';
import {
  frequencyOf,
  invalidEvent,
  type ReadPayment,
  type WebhookOutcome,
} from './webhook-outcome';

/** What a webhook answers (200): what was done with the event. */
export interface WebhookResult {
  result: 'recorded' | 'completed' | 'duplicate' | 'refunded' | 'linked' | 'ignored';
  payment_id: number | null;
}

/**
 * The processors' webhooks: the signature is checked before anything of the body is read; then
 * the event is recorded once (a replay is 200 and writes nothing).
 */
@Injectable()
export class WebhooksService {
  private readonly logger = new Logger(WebhooksService.name);

  constructor(
    private readonly recorder: PaymentsRecorder,
    private readonly plans: PlansService,
    private readonly payments: PaymentsRepository,
    private readonly clock: Clock,
    @Inject(APP_CONFIG) private readonly config: AppConfig,
  ) {}

  async receive(
    processor: WebhookProcessor,
    raw: unknown,
    headers: Record<string, string | string[] | undefined>,
  ): Promise<WebhookResult> {
    const secret = this.secretOf(processor);
    if (secret === null) {
      throw new AppError(
        'route_not_found',
        `The ${processor} webhook is not enabled on this server (its signing secret is not set).`,
      );
    }
    const body = Buffer.isBuffer(raw) ? raw : Buffer.alloc(0);
    const header = (name: string) => {
      const value = headers[name];
      return Array.isArray(value) ? value[0] : value;
    };
    const now = this.clock.now().getTime();
    if (processor === 'stripe') {
      verifyStripe(body, header('stripe-signature'), secret, now);
    } else if (processor === 'paddle') {
      verifyPaddle(body, header('paddle-signature'), secret, Math.floor(now / 1000));
    } else {
      verifyLemonSqueezy(body, header('x-signature'), secret);
    }
    let outcome: WebhookOutcome;
    try {
      outcome = checked(READERS[processor](parseJson(body)));
    } catch (error) {
      // Signed, so it came from the processor (or someone holding the secret): worth a look.
      if (error instanceof AppError && error.code === 'invalid_event') {
        this.logger.warn(`Refused a signed ${processor} webhook: ${error.message}`);
      }
      throw error;
    }
    return this.apply(outcome);
  }

  private async apply(outcome: WebhookOutcome): Promise<WebhookResult> {
    if (outcome.kind === 'ignored') {
      if (outcome.warn === true) this.logger.warn(`A webhook recorded nothing: ${outcome.reason}.`);
      return { result: 'ignored', payment_id: null };
    }
    if (outcome.kind === 'refund') {
      const done = await this.recorder.refund(outcome.refund);
      if (done) return { result: done.result, payment_id: done.payment.id };
      this.logger.warn(`A ${outcome.refund.processor} refund names no recorded payment.`);
      return { result: 'ignored', payment_id: null };
    }
    if (outcome.kind === 'link') {
      const { payment, result } = await this.recorder.link(
        outcome.processor,
        outcome.paymentKey,
        outcome.references,
      );
      return { result, payment_id: payment?.id ?? null };
    }
    const read = outcome.payment;
    const { planId, frequency } = await this.planOf(read);
    const type = read.typeFromFrequency
      ? frequency === 'lifetime'
        ? 'one_time'
        : 'recurring'
      : read.type;
    const { payment, result } = await this.recorder.record({ ...read, planId, frequency, type });
    return { result, payment_id: payment.id };
  }

  /**
   * The plan paid for: the plan whose price ids hold the event's price, else the metadata's, else
   * the plan of the previous payment of the same subscription, customer or user, through
   * this processor (a renewal whose event names no price). The frequency: the price's, the
   * event's, then monthly for recurring payments and lifetime for one-time ones.
   */
  private async planOf(read: ReadPayment) {
    const plans = await this.plans.list();
    // The price paid first: a subscription's metadata is a snapshot of its checkout and stays
    // the same after an upgrade, the price of the line paid for does not.
    const match = read.priceId === null ? null : planOfPriceId(plans, read.processor, read.priceId);
    let planId: number | null = match?.plan.id ?? null;
    let frequency = match?.frequency ?? read.frequency;
    if (planId === null && read.planId !== null && plans.some((p) => p.id === read.planId)) {
      planId = read.planId;
    }
    if (planId === null && read.type === 'recurring') {
      const previous = await this.payments.lastWithPlan(read.processor, {
        subscriptionId: read.subscriptionId ?? null,
        customerId: read.customerId ?? null,
        userId: read.userId,
        email: read.email,
      });
      if (previous) {
        planId = previous.plan_id;
        frequency ??= frequencyOf(previous.frequency);
      }
    }
    return {
      planId,
      frequency: frequency ?? (read.type === 'recurring' ? 'monthly' : 'lifetime'),
    } as const;
  }

  private secretOf(processor: WebhookProcessor): string | null {
    const billing = this.config.billing;
    if (processor === 'stripe') return billing.stripeWebhookSecret;
    if (processor === 'paddle') return billing.paddleWebhookSecret;
    return billing.lemonSqueezyWebhookSecret;
  }
}

const READERS: Record<WebhookProcessor, (body: unknown) => WebhookOutcome> = {
  stripe: readStripeEvent,
  paddle: readPaddleEvent,
  lemonsqueezy: readLemonSqueezyEvent,
};

function parseJson(body: Buffer): unknown {
  try {
    return JSON.parse(body.toString('utf8')) as unknown;
  } catch {
    throw invalidEvent('The webhook body is not JSON.');
  }
}

/** A payment needs its processor's id and a currency; the amounts were checked as they were read. */
function checked(outcome: WebhookOutcome): WebhookOutcome {
  if (outcome.kind !== 'payment') return outcome;
  const read = outcome.payment;
  if (!read.paymentId || read.paymentId.length > 255) {
    throw invalidEvent('The event has no payment id (or one over 255 characters).');
  }
  if (currencyExponent(read.currency) === null) {
    throw invalidEvent('The event has no ISO 4217 currency.');
  }
  return outcome;
}
