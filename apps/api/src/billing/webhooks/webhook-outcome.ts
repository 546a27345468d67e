import {
  PAYMENT_FREQUENCIES,
  type PaymentFrequency,
  type PaymentInput,
  type PaymentProcessor,
  type RefundInput,
} from '@app/billing';
import { AppError, isObject } from '@app/common';
import { type PaymentRef } from '@app/database';

/** A payment as read from a processor's event, before its plan is known for sure. */
export interface ReadPayment extends Omit<PaymentInput, 'planId' | 'frequency'> {
  /** From the event's metadata (custom data), when it names one. */
  planId: number | null;
  /** The processor's price (or variant) id, to find the plan by when the metadata names none. */
  priceId: string | null;
  /** From the metadata, or the price's billing cycle; null when the event does not say. */
  frequency: PaymentFrequency | null;
  /** When the event does not say: one-time for a lifetime frequency, recurring otherwise. */
  typeFromFrequency?: boolean;
}

/** What one verified event asks for. */
export type WebhookOutcome =
  | { kind: 'payment'; payment: ReadPayment }
  | { kind: 'refund'; refund: RefundInput }
  /** More ids of a payment (recorded or not yet) whose own id is `paymentKey`. */
  | { kind: 'link'; processor: PaymentProcessor; paymentKey: string; references: PaymentRef[] }
  /** Nothing to record; `warn`: worth a line in the log (a delayed payment that failed). */
  | { kind: 'ignored'; reason: string; warn?: boolean };

/** `{ kind, value }` for each id that is there: the ids an event names a payment by. */
export function refs(...pairs: Array<readonly [string, string | null]>): PaymentRef[] {
  return pairs.flatMap(([kind, value]) => (value === null ? [] : [{ kind, value }]));
}

/** `value[a][b]…`, or undefined when a step is missing. */
export function pick(value: unknown, ...path: Array<string | number>): unknown {
  let current = value;
  for (const step of path) {
    if (Array.isArray(current) && typeof step === 'number') current = current[step];
    else if (isObject(current) && typeof step === 'string') current = current[step];
    else return undefined;
  }
  return current;
}

export function text(value: unknown): string | null {
  return typeof value === 'string' && value !== '' ? value : null;
}

/**
 * An id as processors send it: a string, a number (Lemon Squeezy), or an expanded object with an
 * `id` (Stripe); null when absent or over 255 characters.
 */
export function idText(value: unknown): string | null {
  const raw =
    typeof value === 'number' && Number.isSafeInteger(value) && value >= 0
      ? String(value)
      : isObject(value)
        ? text(value.id)
        : text(value);
  return raw !== null && raw.length <= 255 ? raw : null;
}

/** A positive whole id from metadata, which processors carry as strings. */
export function idOf(value: unknown): number | null {
  const raw = typeof value === 'number' ? String(value) : text(value);
  return raw !== null && /^[1-9]\d{0,9}$/.test(raw) ? Number(raw) : null;
}

/**
 * A signed body Linkdock cannot read as an event: 400 `invalid_event`. `field` is the path of the
 * value at fault inside the event, when there is one.
 */
export function invalidEvent(title: string, field?: string): AppError {
  return new AppError('invalid_event', title, field);
}

/**
 * The largest amount accepted, in minor units: twelve digits, Stripe's largest charge in any
 * currency (its docs' "Minimum and maximum charge amounts"; 999,999,999,999 rupiah), far below
 * 2^53 so that sums stay exact. See docs/billing.md.
 */
export const MAX_MINOR_UNITS = 999_999_999_999;

/**
 * Minor units as processors send them: whole numbers, as numbers (Stripe, Lemon Squeezy) or
 * strings of digits (Paddle); absent is 0. Anything else (negative, fractional, exponent,
 * non-finite, above MAX_MINOR_UNITS) refuses the event, naming `field`.
 */
export function minorOf(value: unknown, field: string): number {
  if (value === undefined || value === null) return 0;
  const minor =
    typeof value === 'number'
      ? value
      : typeof value === 'string' && /^\d{1,16}$/.test(value)
        ? Number(value)
        : NaN;
  if (Number.isSafeInteger(minor) && minor >= 0 && minor <= MAX_MINOR_UNITS) return minor;
  throw invalidEvent(
    `${field} must be a whole number of minor units from 0 to ${MAX_MINOR_UNITS}; the event has ${JSON.stringify(value)}.`,
    field,
  );
}

export function frequencyOf(value: unknown): PaymentFrequency | null {
  return typeof value === 'string' && (PAYMENT_FREQUENCIES as readonly string[]).includes(value)
    ? (value as PaymentFrequency)
    : null;
}

/** A billing cycle (`month` × 1, 3 or 6; `year` × 1) as a frequency; null for any other. */
export function cycleFrequency(interval: unknown, count: unknown): PaymentFrequency | null {
  const n = typeof count === 'number' ? count : 1;
  if (interval === 'month')
    return n === 1 ? 'monthly' : n === 3 ? 'quarterly' : n === 6 ? 'biannual' : null;
  if (interval === 'year') return n === 1 ? 'annual' : null;
  return null;
}
