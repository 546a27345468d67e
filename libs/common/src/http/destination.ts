import { normalizeHttpUrl } from '../validation/http-url';

/*
 * Redirect destinations. The parts a URL parser finds in a destination are located the way the
 * WHATWG parser finds them (the first `#` starts the fragment; the first `?` before it starts the
 * query), and parameters are added to the query as text: what the destination already carries
 * is kept byte for byte, so a signed URL still matches its signature.
 */

/** Printable ASCII without spaces: what a `Location` header can carry as it is. */
const HEADER_SAFE = /^[\x21-\x7e]+$/;

interface Parts {
  /** Everything before the query: scheme, authority and path. */
  base: string;
  /** The query without its `?`; null when there is no `?`. */
  query: string | null;
  /** The fragment with its `#`, or ''. */
  hash: string;
}

function split(destination: string): Parts {
  const hashAt = destination.indexOf('#');
  const beforeHash = hashAt === -1 ? destination : destination.slice(0, hashAt);
  const hash = hashAt === -1 ? '' : destination.slice(hashAt);
  const queryAt = beforeHash.indexOf('?');
  return queryAt === -1
    ? { base: beforeHash, query: null, hash }
    : { base: beforeHash.slice(0, queryAt), query: beforeHash.slice(queryAt + 1), hash };
}

/** Query text as the URL parser writes it into a query (UTF-8, the query percent-encode set). */
function encodeQuery(text: string): string {
  // A `#` in it is data here (a request target has no fragment), not the start of a fragment.
  return new URL(`http://h/?${text.toWellFormed().replaceAll('#', '%23')}`).search.slice(1);
}

/** `name=value` pairs joined by `&`, ignoring empty pairs. */
function pairs(query: string | null): string[] {
  return (query ?? '').split('&').filter((part) => part !== '');
}

/**
 * The destination with `extra` (a query string such as a visitor's `a=1&b=2`) added at the end of
 * its query, before its fragment. The destination's own query is kept as it is; `extra` is
 * encoded as the URL parser would encode it. A destination that ends in `?` gets no empty pair.
 */
export function appendQuery(destination: string, extra: string | null): string {
  const added = pairs(extra === null ? null : encodeQuery(extra));
  if (added.length === 0) {
    return destination;
  }
  const { base, query, hash } = split(destination);
  return `${base}?${[...pairs(query), ...added].join('&')}${hash}`;
}

/**
 * The destination with the given parameters set: one the destination already has is replaced
 * where it stands (its first occurrence), the others are added at the end of the query, before
 * the fragment. Values are form-encoded as `encodeURIComponent` does; the other parameters are
 * kept byte for byte.
 */
export function setQueryParams(destination: string, params: Array<[string, string]>): string {
  if (params.length === 0) {
    return destination;
  }
  const values = new Map(
    params.map(([name, value]) => [name, `${name}=${encodeURIComponent(value.toWellFormed())}`]),
  );
  const { base, query, hash } = split(destination);
  const kept = pairs(query).map((part) => {
    const name = part.split('=')[0];
    const replacement = values.get(name);
    values.delete(name);
    return replacement ?? part;
  });
  return `${base}?${[...kept, ...values.values()].join('&')}${hash}`;
}

/**
 * A stored URL as a `Location` header can carry it. The API stores every URL as its ASCII
 * `URL.href`; rows written before it did are normalised here, and one that is no URL at all is
 * null (the visitor gets the link's 404) instead of a header that would throw.
 */
export function storedLocation(url: string | null | undefined): string | null {
  if (!url) {
    return null;
  }
  return HEADER_SAFE.test(url) ? url : normalizeHttpUrl(url);
}

/**
 * The last check before a `Location` header is written: printable ASCII as it is; an absolute
 * http(s) URL that is not is normalised by the URL parser; anything else (a path) has each
 * character outside printable ASCII percent-encoded as UTF-8. Never returns non-ASCII.
 */
export function asciiLocation(location: string): string {
  if (HEADER_SAFE.test(location)) {
    return location;
  }
  const absolute = normalizeHttpUrl(location);
  if (absolute !== null) {
    return absolute;
  }
  return location
    .toWellFormed()
    .replace(/[^\x21-\x7e]/gu, (c) =>
      [...Buffer.from(c, 'utf8')]
        .map((b) => `%${b.toString(16).toUpperCase().padStart(2, '0')}`)
        .join(''),
    );
}
