import { randomBytes, scrypt, timingSafeEqual } from 'node:crypto';
import { promisify } from 'node:util';

const scryptAsync = promisify(scrypt) as (
  password: string,
  salt: Buffer,
  keylen: number,
  options: { N: number; r: number; p: number; maxmem: number },
) => Promise<Buffer>;

const N = 16384;
const R = 8;
const P = 1;
const KEY_LENGTH = 32;
const MAXMEM = 64 * 1024 * 1024;

/** A salted scrypt hash: `scrypt$N$r$p$salt$hash` (base64url). */
export async function hashLinkPassword(password: string): Promise<string> {
  const salt = randomBytes(16);
  const hash = await scryptAsync(password, salt, KEY_LENGTH, { N, r: R, p: P, maxmem: MAXMEM });
  return ['scrypt', N, R, P, salt.toString('base64url'), hash.toString('base64url')].join('$');
}

/** False for a wrong password, and for a stored value that is not a usable scrypt hash. */
export async function verifyLinkPassword(password: string, stored: string): Promise<boolean> {
  const [scheme, n, r, p, salt, hash] = stored.split('$');
  const cost = Number(n);
  if (
    scheme !== 'scrypt' ||
    !salt ||
    !hash ||
    !Number.isInteger(cost) ||
    cost < 2 ||
    cost > N ||
    (cost & (cost - 1)) !== 0 ||
    Number(r) !== R ||
    Number(p) !== P
  ) {
    return false;
  }
  const expected = Buffer.from(hash, 'base64url');
  if (expected.length !== KEY_LENGTH) {
    return false;
  }
  const actual = await scryptAsync(password, Buffer.from(salt, 'base64url'), KEY_LENGTH, {
    N: cost,
    r: R,
    p: P,
    maxmem: MAXMEM,
  });
  return timingSafeEqual(actual, expected);
}
