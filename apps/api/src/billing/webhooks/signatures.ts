import { createHmac, timingSafeEqual } from 'node:crypto';
import Stripe from 'stripe';
import { AppError } from '@app/common';

/** How old a signed timestamp may be (and how far ahead of our clock), in seconds. */
export const SIGNATURE_TOLERANCE_SECONDS = 300;

function refused(why: string): AppError {
  return new AppError('invalid_signature', `The webhook signature is not valid: ${why}`);
}

function sameHex(expected: string, given: string): boolean {
  if (!/^[0-9a-f]+$/i.test(given) || given.length !== expected.length) return false;
  return timingSafeEqual(Buffer.from(expected, 'hex'), Buffer.from(given.toLowerCase(), 'hex'));
}

/**
 * Stripe: the `Stripe-Signature` header checked by the official package (HMAC-SHA256 of
 * `t.payload` under the endpoint secret, not older than the tolerance). The package lets a
 * timestamp from the future through; Stripe's docs put the tolerance "between the timestamp and
 * the current time", so one more than 5 minutes ahead is refused here. The body is read after.
 */
export function verifyStripe(
  raw: Buffer,
  header: string | undefined,
  secret: string,
  nowMs: number,
): void {
  if (!header) throw refused('the Stripe-Signature header is missing.');
  const signature = Stripe.webhooks.signature;
  if (signature === null) throw new Error('The stripe package has no signature verifier.');
  try {
    signature.verifyHeader(raw, header, secret, SIGNATURE_TOLERANCE_SECONDS, undefined, nowMs);
  } catch (error) {
    const message = error instanceof Error ? error.message.split('\n')[0] : 'unreadable.';
    throw refused(message.endsWith('.') ? message : `${message}.`);
  }
  // Verified, so the header holds one `t=` of digits.
  const t = Number(/(?:^|,)\s*t=(\d+)/.exec(header)?.[1]);
  if (t - Math.floor(nowMs / 1000) > SIGNATURE_TOLERANCE_SECONDS) throw outOfTolerance();
}

function outOfTolerance(): AppError {
  return refused('its timestamp is more than 5 minutes away from now.');
}

/**
 * Paddle Billing: `Paddle-Signature: ts=…;h1=…`, h1 being HMAC-SHA256 of `ts:body` under the
 * notification secret (several h1 while a secret is rotated).
 */
export function verifyPaddle(
  raw: Buffer,
  header: string | undefined,
  secret: string,
  nowSeconds: number,
): void {
  if (!header) throw refused('the Paddle-Signature header is missing.');
  const parts = header.split(';').map((p) => p.trim().split('='));
  const ts = parts.find(([k]) => k === 'ts')?.[1];
  const signatures = parts.filter(([k]) => k === 'h1').map(([, v]) => v ?? '');
  if (!ts || !/^\d{1,12}$/.test(ts) || signatures.length === 0) {
    throw refused('the Paddle-Signature header needs ts and h1.');
  }
  if (Math.abs(nowSeconds - Number(ts)) > SIGNATURE_TOLERANCE_SECONDS) throw outOfTolerance();
  const expected = createHmac('sha256', secret)
    .update(Buffer.concat([Buffer.from(`${ts}:`), raw]))
    .digest('hex');
  if (!signatures.some((given) => sameHex(expected, given))) {
    throw refused('no h1 matches the body.');
  }
}

/**
 * Lemon Squeezy: `X-Signature`, the hex HMAC-SHA256 of the raw body under the signing secret. The
 * scheme signs no timestamp, so no tolerance can apply: a replayed body is answered by the
 * payment ids, each recorded once.
 */
export function verifyLemonSqueezy(raw: Buffer, header: string | undefined, secret: string): void {
  if (!header) throw refused('the X-Signature header is missing.');
  const expected = createHmac('sha256', secret).update(raw).digest('hex');
  if (!sameHex(expected, header.trim())) throw refused('it does not match the body.');
}
