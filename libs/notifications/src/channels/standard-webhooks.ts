import { createHmac, randomBytes } from 'node:crypto';

/** The prefix of Standard Webhooks secrets: `whsec_` and the key in base64. */
export const WHSEC_PREFIX = 'whsec_';

/** A new webhook signing secret in the Standard Webhooks form (`whsec_` + 24 random bytes). */
export function newWebhookSecret(): string {
  return `${WHSEC_PREFIX}${randomBytes(24).toString('base64')}`;
}

/**
 * The HMAC key of a handler's secret: the base64 key of a `whsec_` secret, else the secret's own
 * bytes (secrets chosen before Linkdock used the scheme; a receiver passes `whsec_` and the
 * secret's base64 to its Standard Webhooks library).
 */
export function standardWebhookKey(secret: string): Buffer {
  if (secret.startsWith(WHSEC_PREFIX)) {
    const key = Buffer.from(secret.slice(WHSEC_PREFIX.length), 'base64');
    if (key.length > 0) return key;
  }
  return Buffer.from(secret, 'utf8');
}

/**
 * The Standard Webhooks headers (standardwebhooks.com; Svix, Resend, Clerk): `webhook-id`,
 * `webhook-timestamp` (seconds) and `webhook-signature` = `v1,` + base64 HMAC-SHA256 of
 * `id.timestamp.body`.
 */
export function standardWebhookHeaders(
  secret: string,
  id: string,
  timestamp: number,
  body: string,
): Record<string, string> {
  const signature = createHmac('sha256', standardWebhookKey(secret))
    .update(`${id}.${timestamp}.${body}`)
    .digest('base64');
  return {
    'webhook-id': id,
    'webhook-timestamp': String(timestamp),
    'webhook-signature': `v1,${signature}`,
  };
}
