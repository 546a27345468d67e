/** A refund as a processor reports it, in the payment's minor units. */
export interface RefundAmount {
  /** Refunded so far (`cumulative`: Stripe's `amount_refunded`, Lemon Squeezy's `refunded_amount`), or by this refund alone (a Paddle adjustment). */
  amount: number;
  cumulative: boolean;
  /** The processor says the whole payment is refunded. */
  full: boolean;
}

/** What a payment holds of refunds. */
export interface RefundState {
  total_amount: number;
  refunded_amount: number;
  status: boolean;
}

/**
 * The one refund rule of every processor (docs/billing.md, "Refunds"): a full refund (or
 * partial ones that add up to the total) marks the payment refunded: `status` false,
 * `refunded_amount` the total. A partial refund is recorded in `refunded_amount` and leaves the
 * payment paid. Amounts never go down and never pass the total, so a replayed refund changes
 * nothing.
 */
export function refundedAfter(payment: RefundState, refund: RefundAmount): RefundState {
  const sum = refund.cumulative
    ? Math.max(payment.refunded_amount, refund.amount)
    : payment.refunded_amount + refund.amount;
  const refunded = Math.min(sum, payment.total_amount);
  if (!payment.status || refund.full || (refunded > 0 && refunded >= payment.total_amount)) {
    return { ...payment, refunded_amount: payment.total_amount, status: false };
  }
  return { ...payment, refunded_amount: refunded };
}
