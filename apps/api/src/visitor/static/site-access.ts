import { createHmac, timingSafeEqual } from 'node:crypto';

/*
 * Capability URLs of password-protected static sites: `/{alias}/~{exp}.{mac}/{path}`. A site's
 * pages run sandboxed with an opaque origin, so the requests of their stylesheets, scripts and
 * images are cross-site and carry no SameSite=Lax cookie: the password cookie cannot open them.
 * A signed, expiring segment in the path can, and relative URLs of the pages keep it.
 */

/** How long a capability URL opens a site. */
export const SITE_ACCESS_SECONDS = 12 * 60 * 60;
/** A page view whose token expires sooner than this is sent to a fresh one. */
export const SITE_ACCESS_RENEW_SECONDS = 60 * 60;
/** 22 base64url characters: the first 128 bits of the HMAC-SHA256. */
const MAC_LENGTH = 22;
const TOKEN_SEGMENT = /^~([0-9a-z]{1,11})\.([A-Za-z0-9_-]{22})$/;

/** The link a token opens: its id and the tag of its current password. */
export interface SiteAccessLink {
  id: number;
  passwordTag: string | null;
}

export interface SiteAccessToken {
  /** Expiry, unix seconds. */
  exp: number;
  /** The expiry as written in the URL (base 36): what the MAC covers. */
  expText: string;
  mac: string;
}

/** `rest` (the path after `/{alias}`) with its leading token segment, if it has one, split off. */
export interface SiteAccessPath {
  /** The raw segment (`~{exp}.{mac}`), or null. */
  segment: string | null;
  token: SiteAccessToken | null;
  /** The path after the segment: '' when nothing follows it, else starting with `/`. */
  rest: string;
}

/** A path with no token segment: what a visit holds until the site step splits its path. */
export const NO_SITE_ACCESS: SiteAccessPath = { segment: null, token: null, rest: '' };

/** HMAC-SHA256 of `site-access|{link id}|{password tag}|{expiry in base 36}`, truncated. */
function macOf(secret: Buffer, link: SiteAccessLink, expText: string): string {
  return createHmac('sha256', secret)
    .update(`site-access|${link.id}|${link.passwordTag ?? ''}|${expText}`)
    .digest('base64url')
    .slice(0, MAC_LENGTH);
}

/** The path segment that opens `link` until `exp` (unix seconds). */
export function signSiteAccess(secret: Buffer, link: SiteAccessLink, exp: number): string {
  const expText = exp.toString(36);
  return `~${expText}.${macOf(secret, link, expText)}`;
}

export function splitSiteAccess(rest: string): SiteAccessPath {
  const end = rest.indexOf('/', 1);
  const segment = end === -1 ? rest.slice(1) : rest.slice(1, end);
  const match = TOKEN_SEGMENT.exec(segment);
  if (!match) {
    return { segment: null, token: null, rest };
  }
  return {
    segment,
    token: { exp: parseInt(match[1], 36), expText: match[1], mac: match[2] },
    rest: end === -1 ? '' : rest.slice(end),
  };
}

/** Whether the token was signed for this link and its current password (expired or not). */
export function isSignedFor(secret: Buffer, link: SiteAccessLink, token: SiteAccessToken): boolean {
  if (link.passwordTag === null) {
    return false;
  }
  const expected = Buffer.from(macOf(secret, link, token.expText));
  const actual = Buffer.from(token.mac);
  return actual.length === expected.length && timingSafeEqual(actual, expected);
}
