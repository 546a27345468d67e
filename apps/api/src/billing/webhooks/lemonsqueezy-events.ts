import { isObject } from '@app/common';
import {
  frequencyOf,
  idOf,
  idText,
  invalidEvent,
  minorOf,
  pick,
  text,
  type WebhookOutcome,
} from './webhook-outcome';

/**
 * Reads a verified Lemon Squeezy event. `meta.custom_data` keys: `user_id`, `plan_id`,
 * `frequency`. Orders are named `order:<id>`, subscription invoices `subscription-invoice:<id>`
 * (their ids are separate sequences). A subscription's first invoice is its order, recorded by
 * `order_created`; `subscription_payment_success` records the renewals, whose user is the one of
 * an earlier payment of the same subscription or customer when no custom data names one.
 */
export function readLemonSqueezyEvent(body: unknown): WebhookOutcome {
  // Lemon Squeezy's webhook body: `meta.event_name` and the object it is about in `data`.
  const event = pick(body, 'meta', 'event_name');
  if (typeof event !== 'string' || !isObject(pick(body, 'data'))) {
    throw invalidEvent(
      'The webhook body is not a Lemon Squeezy event: it needs meta.event_name and a data object.',
    );
  }
  const custom = pick(body, 'meta', 'custom_data');
  const id = idText(pick(body, 'data', 'id')) ?? '';
  const a = pick(body, 'data', 'attributes');
  // Read only for the events that record a payment.
  const common = () => ({
    processor: 'lemonsqueezy' as const,
    customerId: idText(pick(a, 'customer_id')),
    userId: idOf(pick(custom, 'user_id')),
    email: text(pick(a, 'user_email')) ?? '',
    name: text(pick(a, 'user_name')),
    planId: idOf(pick(custom, 'plan_id')),
    frequency: frequencyOf(pick(custom, 'frequency')),
    currency: (text(pick(a, 'currency')) ?? '').toUpperCase(),
    baseAmount: minorOf(pick(a, 'subtotal'), 'data.attributes.subtotal'),
    discountAmount: minorOf(pick(a, 'discount_total'), 'data.attributes.discount_total'),
    totalAmount: minorOf(pick(a, 'total'), 'data.attributes.total'),
    code: null,
  });
  switch (event) {
    case 'order_created': {
      if (pick(a, 'status') !== 'paid') return { kind: 'ignored', reason: 'the order is not paid' };
      return {
        kind: 'payment',
        payment: {
          ...common(),
          paymentId: `order:${id}`,
          priceId: idText(pick(a, 'first_order_item', 'variant_id')),
          type: 'one_time',
          typeFromFrequency: true,
        },
      };
    }
    case 'subscription_payment_success': {
      if (pick(a, 'billing_reason') === 'initial') {
        return { kind: 'ignored', reason: 'the first payment of a subscription is its order' };
      }
      if (pick(a, 'status') !== 'paid')
        return { kind: 'ignored', reason: 'the invoice is not paid' };
      return {
        kind: 'payment',
        payment: {
          ...common(),
          paymentId: `subscription-invoice:${id}`,
          subscriptionId: idText(pick(a, 'subscription_id')),
          priceId: null,
          type: 'recurring',
        },
      };
    }
    case 'order_refunded':
      return refund(`order:${id}`, a);
    case 'subscription_payment_refunded':
      return refund(`subscription-invoice:${id}`, a);
    default:
      return {
        kind: 'ignored',
        reason: `${event} is not an event Linkdock records`,
      };
  }
}

/**
 * An order or subscription invoice refunded: `refunded: true` (status `refunded`) in full,
 * else `refunded_amount` (cumulative, in cents) in part.
 */
function refund(paymentKey: string, a: unknown): WebhookOutcome {
  const full = pick(a, 'refunded') === true || pick(a, 'status') === 'refunded';
  const amount = minorOf(pick(a, 'refunded_amount'), 'data.attributes.refunded_amount');
  if (!full && amount === 0) return { kind: 'ignored', reason: 'nothing was refunded' };
  return {
    kind: 'refund',
    refund: {
      processor: 'lemonsqueezy',
      references: [{ kind: 'payment', value: paymentKey }],
      amount,
      cumulative: true,
      full,
      refundId: null,
    },
  };
}
