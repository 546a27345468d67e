import { isObject } from '@app/common';
import {
  cycleFrequency,
  frequencyOf,
  idOf,
  idText,
  invalidEvent,
  minorOf,
  pick,
  refs,
  text,
  type WebhookOutcome,
} from './webhook-outcome';

/** Where amounts are in the event, for the field of an error. */
const AT = 'data.details.totals';

/**
 * Reads a verified Paddle Billing event. `custom_data` keys: `user_id`, `plan_id`, `frequency`,
 * `email` (Paddle's transaction carries no email of its own). Totals are strings in minor units.
 * A renewal carries no `custom_data`: its subscription and customer find the user of an earlier
 * payment. Refunds are adjustments (`action: refund`), applied once approved.
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
  if (type === 'adjustment.created' || type === 'adjustment.updated') return adjustment(t);
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
      subscriptionId: idText(pick(t, 'subscription_id')),
      customerId: idText(pick(t, 'customer_id')),
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

/**
 * An adjustment: a refund once Paddle approved it (`status: approved`; a refund is created
 * `pending_approval`), of the whole transaction (`type: full`) or part of it, applied once per
 * adjustment id. Credits and chargebacks are not refunds.
 */
function adjustment(a: Record<string, unknown>): WebhookOutcome {
  if (pick(a, 'action') !== 'refund') {
    return { kind: 'ignored', reason: 'the adjustment is not a refund' };
  }
  if (pick(a, 'status') !== 'approved') {
    return { kind: 'ignored', reason: 'the refund is not approved (yet)' };
  }
  const id = idText(pick(a, 'id'));
  if (id === null) throw invalidEvent('The adjustment has no id.');
  return {
    kind: 'refund',
    refund: {
      processor: 'paddle',
      references: refs(['transaction', idText(pick(a, 'transaction_id'))]),
      amount: minorOf(pick(a, 'totals', 'total'), 'data.totals.total'),
      cumulative: false,
      full: pick(a, 'type') === 'full',
      refundId: id,
    },
  };
}
