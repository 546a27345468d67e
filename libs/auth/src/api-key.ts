import { hash, randomBytes } from 'node:crypto';

export const API_KEY_PREFIX = 'ld_';

/** A new API key: 256 random bits, base64url. Only its hash is ever stored. */
export function generateApiKey(): { key: string; hash: string; prefix: string } {
  const key = `${API_KEY_PREFIX}${randomBytes(32).toString('base64url')}`;
  return { key, hash: hashApiKey(key), prefix: key.slice(0, 10) };
}

/**
 * SHA-256 of the key. A key carries 256 bits of entropy, so a fast hash is safe here (nothing to
 * brute-force) and keeps the per-request lookup cheap; slow password hashes are for low-entropy secrets.
 * The one-shot `crypto.hash` gives the same digest as createHash's in a third of the time.
 */
export function hashApiKey(key: string): string {
  return hash('sha256', key, 'hex');
}
