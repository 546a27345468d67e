import {
  cycleFrequency,
  frequencyOf,
  idOf,
  minorOf,
  pick,
  text,
  type WebhookOutcome,
} from './webhook-outcome';

/**
 * Reads a verified Paddle Billing event. `custom_data` keys: `user_id`, `plan_id`, `frequency`,
 * `email` (Paddle's transaction carries no email of its own). Totals are strings in minor units.
 */
export function readPaddleEvent(body: unknown): WebhookOutcome {
  const type = text(pick(body, 'event_type'));
  if (type !== 'transaction.completed') {
    return { kind: 'ignored', reason: `${type ?? 'this event'} is not an event Linkdock records` };
  }
  const t = pick(body, 'data');
  const custom = pick(t, 'custom_data');
  const price = pick(t, 'items', 0, 'price');
  const cycle = pick(price, 'billing_cycle');
  const totals = pick(t, 'details', 'totals');
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
      baseAmount: minorOf(pick(totals, 'subtotal')),
      discountAmount: minorOf(pick(totals, 'discount')),
      totalAmount: minorOf(pick(totals, 'grand_total') ?? pick(totals, 'total')),
      code: text(pick(t, 'discount', 'code')),
    },
  };
}
