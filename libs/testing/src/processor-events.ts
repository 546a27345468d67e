import { createHmac } from 'node:crypto';
import type { Order, SubscriptionInvoice } from '@lemonsqueezy/lemonsqueezy.js';
import type {
  IAdjustmentNotificationResponse,
  ITransactionNotificationResponse,
} from '@paddle/paddle-node-sdk';
import Stripe from 'stripe';

/**
 * Every field optional, at every depth: a fixture names only the fields Linkdock reads, and the
 * compiler checks each name and type it does name against the processor's own SDK types (a
 * Charge with an `invoice`, gone since Stripe's 2025-03-31 API, does not compile).
 */
export type Shape<T> = T extends readonly (infer U)[]
  ? Shape<U>[]
  : T extends object
    ? { [K in keyof T]?: Shape<T[K]> }
    : T;

type StripeEventOf<T extends Stripe.Event['type']> = Extract<Stripe.Event, { type: T }>;

/** The object a Stripe event of type `T` carries in `data.object`, as a fixture shape. */
export type StripeEventObject<T extends Stripe.Event['type']> = Shape<
  StripeEventOf<T>['data']['object']
>;

/**
 * A Stripe event as the installed `stripe` package (23.x) types it at its pinned API version
 * (`Stripe.API_VERSION`, 2026-10-28): the envelope of https://docs.stripe.com/api/events/object
 * with `data.object` shaped as the event's own type says.
 */
export function stripeEvent<T extends Stripe.Event['type']>(
  type: T,
  object: StripeEventObject<T>,
  created: number,
): string {
  const event: Shape<Stripe.EventBase> & { type: T; data: { object: typeof object } } = {
    id: `evt_${Math.random().toString(36).slice(2)}`,
    object: 'event',
    api_version: Stripe.API_VERSION,
    created,
    type,
    data: { object },
    livemode: false,
    pending_webhooks: 1,
    request: { id: null, idempotency_key: null },
  };
  return JSON.stringify(event);
}

/** Stripe's own helper signs, as the package documents for tests. */
export function stripeSignature(payload: string, secret: string, timestamp: number): string {
  return new Stripe('sk_test_linkdock_fixture').webhooks.generateTestHeaderString({
    payload,
    secret,
    timestamp,
  });
}

/**
 * A Paddle Billing notification (https://developer.paddle.com/webhooks/overview): `event_type`
 * and its entity in `data`, shaped as `@paddle/paddle-node-sdk` types the notification.
 */
export function paddleEvent(
  type: 'transaction.completed',
  data: Shape<ITransactionNotificationResponse>,
  occurredAt: string,
): string;
export function paddleEvent(
  type: 'adjustment.created' | 'adjustment.updated',
  data: Shape<IAdjustmentNotificationResponse>,
  occurredAt: string,
): string;
export function paddleEvent(type: string, data: object, occurredAt: string): string {
  return JSON.stringify({
    event_id: `evt_01${Math.random().toString(36).slice(2)}`,
    event_type: type,
    occurred_at: occurredAt,
    notification_id: `ntf_01${Math.random().toString(36).slice(2)}`,
    data,
  });
}

/** Paddle Billing's documented scheme: `ts=…;h1=` HMAC-SHA256 of `ts:body` in hex. */
export function paddleSignature(payload: string, secret: string, ts: number): string {
  const h1 = createHmac('sha256', secret).update(`${ts}:${payload}`).digest('hex');
  return `ts=${ts};h1=${h1}`;
}

/** Lemon Squeezy's webhook body (https://docs.lemonsqueezy.com/help/webhooks/webhook-requests). */
interface LemonMeta {
  event_name: string;
  custom_data?: Record<string, string>;
  test_mode?: boolean;
}

/**
 * A Lemon Squeezy webhook: `meta` as its docs show it, `data` shaped as
 * `@lemonsqueezy/lemonsqueezy.js` types an order (order_created, order_refunded) or a
 * subscription invoice (subscription_payment_success, subscription_payment_refunded); the
 * events carry the object the API returns (https://docs.lemonsqueezy.com/help/webhooks/event-types).
 */
export function lemonEvent(
  meta: LemonMeta & { event_name: 'order_created' | 'order_refunded' },
  data: Shape<Order['data']>,
): string;
export function lemonEvent(
  meta: LemonMeta & {
    event_name: 'subscription_payment_success' | 'subscription_payment_refunded';
  },
  data: Shape<SubscriptionInvoice['data']>,
): string;
export function lemonEvent(meta: LemonMeta, data: object): string {
  return JSON.stringify({ meta, data });
}

/** Lemon Squeezy's documented scheme: X-Signature, the hex HMAC-SHA256 of the raw body. */
export function lemonSignature(payload: string, secret: string): string {
  return createHmac('sha256', secret).update(payload).digest('hex');
}
