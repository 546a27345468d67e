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
const AT = 'data.details.totals';

/**
 * Reads a verified Paddle Billing event. `custom_data` keys: `user_id`, `plan_id`, `frequency`,
 * `email` (Paddle's transaction carries no email of its own). Totals are strings in minor units.
 */
export function readPaddleEvent(body: unknown): WebhookOutcome {
  // Paddle's notification: `event_type` and the entity it is about in `data`.
  const type = pick(body, 'event_type');
  const t = pick(body, 'data');
  if (typeof type !== 'string' || !isObject(t)) {
    throw invalidEvent(
      'The webhook body is not a Paddle event: it needs an event_type and a data object.',
    );
  }
  if (type !== 'transaction.completed') {
    return { kind: 'ignored', reason: `${type} is not an event Linkdock records` };
  }
  const custom = pick(t, 'custom_data');
  const price = pick(t, 'items', 0, 'price');
  const cycle = pick(price, 'billing_cycle');
  const totals = pick(t, 'details', 'totals');
  const grand = pick(totals, 'grand_total');
  const recurring = text(pick(t, 'subscription_id')) !== null;
  return {
    kind: 'payment',
    payment: {
      processor: 'paddle',
      paymentId: text(pick(t, 'id')) ?? '',
      userId: idOf(pick(custom, 'user_id')),
      email: text(pick(custom, 'email')) ?? '',
      name: null,
      planId: idOf(pick(custom, 'plan_id')),
      priceId: text(pick(price, 'id')),
      frequency:
        frequencyOf(pick(custom, 'frequency')) ??
        (cycle ? cycleFrequency(pick(cycle, 'interval'), pick(cycle, 'frequency')) : 'lifetime'),
      type: recurring ? 'recurring' : 'one_time',
      currency: (text(pick(t, 'currency_code')) ?? '').toUpperCase(),
      baseAmount: minorOf(pick(totals, 'subtotal'), `${AT}.subtotal`),
      discountAmount: minorOf(pick(totals, 'discount'), `${AT}.discount`),
      totalAmount:
        grand === undefined || grand === null
          ? minorOf(pick(totals, 'total'), `${AT}.total`)
          : minorOf(grand, `${AT}.grand_total`),
      code: text(pick(t, 'discount', 'code')),
    },
  };
}
