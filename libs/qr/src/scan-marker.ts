/**
 * The scan marker: a QR code of type `url` that encodes one of its owner's own short links
 * carries `ld_qr=<code id in base 36>` in the encoded URL's query (after any query the URL
 * already has), so that a visit through it is told from a click. The visitor side takes it off
 * the query before anything else reads it (targeting, forwarded query parameters, UTM tags): the
 * destination never sees it. The name is Linkdock's own (`ld_`, like the visitor side's cookies)
 * so that it does not collide with a destination's parameters such as `qr` or `ref`.
 */
export const SCAN_MARKER = 'ld_qr';

const MARKER_PREFIX = `${SCAN_MARKER}=`;
/** Base 36 digits of an id below 2^53 (11 at most), lower case as written. */
const ID = /^[0-9a-z]{1,11}$/;

/** The URL with the marker of code `id` appended to its query (the URL is otherwise as given). */
export function withScanMarker(url: string, id: number): string {
  const hash = url.indexOf('#');
  const base = hash === -1 ? url : url.slice(0, hash);
  const fragment = hash === -1 ? '' : url.slice(hash);
  const separator = !base.includes('?') ? '?' : base.endsWith('?') || base.endsWith('&') ? '' : '&';
  return `${base}${separator}${MARKER_PREFIX}${id.toString(36)}${fragment}`;
}

/** A request's query without its scan markers, and the code the first valid one names (0: none). */
export interface ReadMarker {
  qrCodeId: number;
  query: string | null;
}

/**
 * Reads and removes the scan marker of a query string (without `?`). Every `ld_qr` parameter is
 * removed, valid or not; the other parameters stay byte for byte, in order. A query that has no
 * marker comes back as it is.
 */
export function readScanMarker(query: string | null): ReadMarker {
  if (query === null || !query.includes(MARKER_PREFIX)) {
    return { qrCodeId: 0, query };
  }
  let qrCodeId = 0;
  const kept: string[] = [];
  for (const part of query.split('&')) {
    if (!part.startsWith(MARKER_PREFIX)) {
      kept.push(part);
      continue;
    }
    const value = part.slice(MARKER_PREFIX.length);
    if (qrCodeId === 0 && ID.test(value)) {
      const id = parseInt(value, 36);
      if (id > 0 && Number.isSafeInteger(id)) qrCodeId = id;
    }
  }
  const rest = kept.join('&');
  return { qrCodeId, query: rest === '' ? null : rest };
}
