import { isObject } from '@app/common';
import {
  cycleFrequency,
  frequencyOf,
  idOf,
  idText,
  invalidEvent,
  minorOf,
  pick,
  type ReadPayment,
  refs,
  text,
  type WebhookOutcome,
} from './webhook-outcome';

/** Where amounts are in the event, for the field of an error. */
const AT = 'data.object';

/**
 * Reads a verified Stripe event, shaped as API version 2026-10-28 sends it (docs/billing.md lists
 * the events to enable). Metadata keys: `user_id` (or the session's `client_reference_id`),
 * `plan_id`, `frequency`, `price_id`. A subscription payment is its invoice (`in_…`), whichever
 * of `checkout.session.completed` and `invoice.paid` comes first; a one-time payment is its
 * payment intent (`pi_…`). Every other id an event may name it by is kept with it.
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
    case 'checkout.session.completed':
    case 'checkout.session.async_payment_succeeded':
      // A delayed method (SEPA Direct Debit, ACH, Bacs, bank transfer) completes the session
      // unpaid; `checkout.session.async_payment_succeeded` brings it paid.
      if (pick(o, 'payment_status') !== 'paid') {
        return {
          kind: 'ignored',
          reason:
            'the session is not paid yet (checkout.session.async_payment_succeeded records it)',
        };
      }
      return { kind: 'payment', payment: sessionPayment(o) };
    case 'checkout.session.async_payment_failed':
      return {
        kind: 'ignored',
        reason: `the delayed payment of checkout session ${text(pick(o, 'id')) ?? '?'} failed: nothing was paid, nothing is recorded`,
        warn: true,
      };
    case 'invoice.paid':
      return { kind: 'payment', payment: invoicePayment(o) };
    case 'invoice_payment.paid': {
      // Since API version 2025-03-31 a charge names no invoice: this event says which payment
      // intent and charge paid which invoice, so that their refunds find the invoice's payment.
      const invoice = idText(pick(o, 'invoice'));
      if (invoice === null) throw invalidEvent('The invoice payment names no invoice.');
      return {
        kind: 'link',
        processor: 'stripe',
        paymentKey: invoice,
        references: refs(
          ['payment_intent', idText(pick(o, 'payment', 'payment_intent'))],
          ['charge', idText(pick(o, 'payment', 'charge'))],
          ['invoice_payment', idText(pick(o, 'id'))],
        ),
      };
    }
    case 'charge.refunded': {
      const amount = minorOf(pick(o, 'amount_refunded'), `${AT}.amount_refunded`);
      const full = pick(o, 'refunded') === true;
      if (!full && amount === 0) return { kind: 'ignored', reason: 'nothing was refunded' };
      return {
        kind: 'refund',
        refund: {
          processor: 'stripe',
          references: refs(
            ['payment_intent', idText(pick(o, 'payment_intent'))],
            ['charge', idText(pick(o, 'id'))],
          ),
          amount,
          cumulative: true,
          full,
          refundId: null,
        },
      };
    }
    default:
      return { kind: 'ignored', reason: `${type} is not an event Linkdock records` };
  }
}

/** A paid Checkout Session: a subscription's first invoice, or a one-time payment intent. */
function sessionPayment(o: Record<string, unknown>): ReadPayment {
  const subscription = pick(o, 'mode') === 'subscription';
  const meta = pick(o, 'metadata');
  const session = idText(pick(o, 'id'));
  const intent = idText(pick(o, 'payment_intent'));
  const paymentId = subscription ? idText(pick(o, 'invoice')) : intent;
  return {
    processor: 'stripe',
    paymentId: paymentId ?? session ?? '',
    references: refs(['checkout_session', session], ['payment_intent', intent]),
    subscriptionId: idText(pick(o, 'subscription')),
    customerId: idText(pick(o, 'customer')),
    periodEnd: null,
    userId: idOf(pick(meta, 'user_id')) ?? idOf(pick(o, 'client_reference_id')),
    email: text(pick(o, 'customer_details', 'email')) ?? text(pick(o, 'customer_email')) ?? '',
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
  };
}

/** A paid invoice: the plan from the line that is the subscription item paid for. */
function invoicePayment(o: Record<string, unknown>): ReadPayment {
  const line = planLine(pick(o, 'lines', 'data'));
  const meta = pick(o, 'parent', 'subscription_details', 'metadata');
  const price = pick(line, 'pricing', 'price_details', 'price');
  const discounts = pick(o, 'total_discount_amounts');
  const discount = Array.isArray(discounts)
    ? discounts.reduce(
        (sum: number, d, i) =>
          sum + minorOf(pick(d, 'amount'), `${AT}.total_discount_amounts.${i}.amount`),
        0,
      )
    : 0;
  const payments = pick(o, 'payments', 'data');
  const paidBy = (Array.isArray(payments) ? payments : []).flatMap((p: unknown) =>
    refs(
      ['payment_intent', idText(pick(p, 'payment', 'payment_intent'))],
      ['charge', idText(pick(p, 'payment', 'charge'))],
    ),
  );
  return {
    processor: 'stripe',
    paymentId: idText(pick(o, 'id')) ?? '',
    references: paidBy,
    subscriptionId:
      idText(pick(o, 'parent', 'subscription_details', 'subscription')) ??
      idText(pick(line, 'parent', 'subscription_item_details', 'subscription')),
    customerId: idText(pick(o, 'customer')),
    periodEnd: periodEndOf(line),
    userId: idOf(pick(meta, 'user_id')),
    email: text(pick(o, 'customer_email')) ?? '',
    name: text(pick(o, 'customer_name')),
    planId: idOf(pick(meta, 'plan_id')),
    priceId: idText(price),
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
  };
}

function isProration(line: unknown): boolean {
  return (
    pick(line, 'parent', 'subscription_item_details', 'proration') === true ||
    pick(line, 'parent', 'invoice_item_details', 'proration') === true
  );
}

function amountOf(line: unknown): number {
  const amount = pick(line, 'amount');
  return typeof amount === 'number' && Number.isFinite(amount) ? amount : 0;
}

/**
 * The line that is the subscription item paid for: a line that is not a proration (a renewal's,
 * or the new period of an upgrade), else the largest proration charge ("Remaining time on Pro"),
 * never a proration credit ("Unused time on Basic", negative).
 */
export function planLine(lines: unknown): unknown {
  const all: unknown[] = Array.isArray(lines) ? lines : [];
  const regular = all.find((l) => !isProration(l) && amountOf(l) >= 0);
  if (regular !== undefined) return regular;
  const charges = all.filter((l) => isProration(l) && amountOf(l) > 0);
  return charges.sort((a, b) => amountOf(b) - amountOf(a))[0];
}

/** The end of the period a line covers (`period.end`, Unix seconds), when it has one. */
function periodEndOf(line: unknown): Date | null {
  const start = pick(line, 'period', 'start');
  const end = pick(line, 'period', 'end');
  if (typeof start !== 'number' || typeof end !== 'number' || !(end > start)) return null;
  const date = new Date(end * 1000);
  return Number.isNaN(date.getTime()) ? null : date;
}
