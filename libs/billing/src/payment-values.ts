/** The values of a payment's enumerated fields (origin-api.md §13). */
export const PAYMENT_FREQUENCIES = [
  'monthly',
  'quarterly',
  'biannual',
  'annual',
  'lifetime',
] as const;
export type PaymentFrequency = (typeof PAYMENT_FREQUENCIES)[number];

export const PAYMENT_TYPES = ['one_time', 'recurring'] as const;
export type PaymentType = (typeof PAYMENT_TYPES)[number];

/** The processors that sell plans through signed webhooks (and name their prices in a plan). */
export const WEBHOOK_PROCESSORS = ['stripe', 'paddle', 'lemonsqueezy'] as const;
export type WebhookProcessor = (typeof WEBHOOK_PROCESSORS)[number];

export const PAYMENT_PROCESSORS = [...WEBHOOK_PROCESSORS, 'offline_payment'] as const;
export type PaymentProcessor = (typeof PAYMENT_PROCESSORS)[number];

/** Months a payment of each frequency buys; null: for ever. */
export const FREQUENCY_MONTHS: Record<PaymentFrequency, number | null> = {
  monthly: 1,
  quarterly: 3,
  biannual: 6,
  annual: 12,
  lifetime: null,
};

/**
 * `from` plus whole calendar months, in UTC; a day the target month lacks becomes its last day
 * (31 January + 1 month = 28 or 29 February).
 */
export function addMonths(from: Date, months: number): Date {
  const target = new Date(from.getTime());
  const day = target.getUTCDate();
  target.setUTCDate(1);
  target.setUTCMonth(target.getUTCMonth() + months);
  const lastDay = new Date(
    Date.UTC(target.getUTCFullYear(), target.getUTCMonth() + 1, 0),
  ).getUTCDate();
  target.setUTCDate(Math.min(day, lastDay));
  return target;
}
