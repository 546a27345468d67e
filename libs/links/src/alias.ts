import { randomInt } from 'node:crypto';

export const ALIAS_PATTERN = /^[A-Za-z0-9_-]{3,64}$/;
/**
 * Any alias a link can have: a new one (ALIAS_PATTERN) or an imported one, which may be shorter
 * (CONTRACT, third wave). The visitor side's router and the QR scan marker read paths by it.
 */
export const ANY_ALIAS = '[A-Za-z0-9_-]{1,64}';
export const ANY_ALIAS_PATTERN = new RegExp(`^${ANY_ALIAS}$`);
export const RANDOM_ALIAS_LENGTH = 7;
const RANDOM_ALPHABET = 'abcdefghijklmnopqrstuvwxyz0123456789';

/**
 * First path segments the service itself answers, or may answer, on the main host. An alias may
 * not take them, on any domain, so that a link never shadows a page of the service.
 */
export const RESERVED_ALIASES: ReadonlySet<string> = new Set([
  'v1',
  'v2',
  'api',
  'docs',
  'health',
  'uploads',
  'assets',
  'static',
  'admin',
  'login',
  'logout',
  'signup',
  'register',
  'dashboard',
  'account',
  'settings',
  'metrics',
  'status',
  'signatures',
  'splash',
  'qr',
  'public',
]);

export function isReservedAlias(alias: string): boolean {
  return RESERVED_ALIASES.has(alias.toLowerCase());
}

export function randomAlias(): string {
  let alias = '';
  for (let i = 0; i < RANDOM_ALIAS_LENGTH; i += 1) {
    alias += RANDOM_ALPHABET[randomInt(RANDOM_ALPHABET.length)];
  }
  return alias;
}
