import { isObject } from '@app/common';
import {
  cycleFrequency,
  frequencyOf,
  idOf,
  invalidEvent,
  minorOf,
  pick,
  text,
  type WebhookOutcome,
} from './webhook-outcome';

/** Where amounts are in the event, for the field of an error. */
const AT = 'data.object';

/**
 * Reads a verified Stripe event. Metadata keys: `user_id` (or the session's `client_reference_id`),
 * `plan_id`, `frequency`, `price_id`. A subscription's first invoice is recorded once whether
 * `checkout.session.completed` or `invoice.paid` comes first: both name it by the invoice id.
 */
export function readStripeEvent(event: unknown): WebhookOutcome {
  // Stripe's Event object: `type` and the object it is about in `data.object`.
  const type = pick(event, 'type');
  const o = pick(event, 'data', 'object');
  if (typeof type !== 'string' || !isObject(o)) {
    throw invalidEvent(
      'The webhook body is not a Stripe event: it needs a type and a data.object.',
    );
  }
  switch (type) {
    case 'checkout.session.completed': {
      if (pick(o, 'payment_status') !== 'paid') {
        return { kind: 'ignored', reason: 'the session is not paid yet' };
      }
      const subscription = pick(o, 'mode') === 'subscription';
      const meta = pick(o, 'metadata');
      const paymentId = subscription
        ? (text(pick(o, 'invoice')) ?? text(pick(o, 'id')))
        : (text(pick(o, 'payment_intent')) ?? text(pick(o, 'id')));
      return {
        kind: 'payment',
        payment: {
          processor: 'stripe',
          paymentId: paymentId ?? '',
          userId: idOf(pick(meta, 'user_id')) ?? idOf(pick(o, 'client_reference_id')),
          email:
            text(pick(o, 'customer_details', 'email')) ?? text(pick(o, 'customer_email')) ?? '',
          name: text(pick(o, 'customer_details', 'name')),
          planId: idOf(pick(meta, 'plan_id')),
          priceId: text(pick(meta, 'price_id')),
          frequency: frequencyOf(pick(meta, 'frequency')) ?? (subscription ? null : 'lifetime'),
          type: subscription ? 'recurring' : 'one_time',
          currency: (text(pick(o, 'currency')) ?? '').toUpperCase(),
          baseAmount: minorOf(pick(o, 'amount_subtotal'), `${AT}.amount_subtotal`),
          discountAmount: minorOf(
            pick(o, 'total_details', 'amount_discount'),
            `${AT}.total_details.amount_discount`,
          ),
          totalAmount: minorOf(pick(o, 'amount_total'), `${AT}.amount_total`),
          code: null,
        },
      };
    }
    case 'invoice.paid': {
      const line = pick(o, 'lines', 'data', 0);
      const meta =
        pick(o, 'parent', 'subscription_details', 'metadata') ??
        pick(o, 'subscription_details', 'metadata') ??
        pick(line, 'metadata');
      const price = pick(line, 'price');
      const discounts = pick(o, 'total_discount_amounts');
      const discount = Array.isArray(discounts)
        ? discounts.reduce(
            (sum: number, d, i) =>
              sum + minorOf(pick(d, 'amount'), `${AT}.total_discount_amounts.${i}.amount`),
            0,
          )
        : 0;
      return {
        kind: 'payment',
        payment: {
          processor: 'stripe',
          paymentId: text(pick(o, 'id')) ?? '',
          userId: idOf(pick(meta, 'user_id')),
          email: text(pick(o, 'customer_email')) ?? '',
          name: text(pick(o, 'customer_name')),
          planId: idOf(pick(meta, 'plan_id')),
          priceId: text(pick(price, 'id')) ?? text(pick(line, 'pricing', 'price_details', 'price')),
          frequency:
            frequencyOf(pick(meta, 'frequency')) ??
            cycleFrequency(
              pick(price, 'recurring', 'interval'),
              pick(price, 'recurring', 'interval_count'),
            ),
          type: 'recurring',
          currency: (text(pick(o, 'currency')) ?? '').toUpperCase(),
          baseAmount: minorOf(pick(o, 'subtotal'), `${AT}.subtotal`),
          discountAmount: discount,
          totalAmount: minorOf(pick(o, 'amount_paid'), `${AT}.amount_paid`),
          code: null,
        },
      };
    }
    case 'charge.refunded': {
      if (pick(o, 'refunded') !== true) {
        return { kind: 'ignored', reason: 'a partial refund leaves the payment as it is' };
      }
      const ids = [text(pick(o, 'payment_intent')), text(pick(o, 'invoice'))].filter(
        (id): id is string => id !== null,
      );
      return { kind: 'refund', processor: 'stripe', paymentIds: ids };
    }
    default:
      return { kind: 'ignored', reason: `${type} is not an event Linkdock records` };
  }
}
