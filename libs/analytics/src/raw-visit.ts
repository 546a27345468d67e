/** Who made a visit: a visitor, a bot (by its user agent), or a HEAD request of a browser's. */
export const VISITOR = 0;
export const BOT = 1;
export const HEAD_REQUEST = 2;
export type VisitKind = typeof VISITOR | typeof BOT | typeof HEAD_REQUEST;

/** What the edge keeps of a counted redirect; everything else is derived at flush time. */
export interface RawVisit {
  linkId: number;
  at: number;
  ip: string;
  userAgent: string;
  referer: string | undefined;
  acceptLanguage: string | undefined;
  /** The request's query string without `?`, or null. */
  query: string | null;
  /** VISITOR, or a bot's visit (recorded apart, without address: `ip` is ''). */
  kind: VisitKind;
  /** The QR code the visit's scan marker named (not checked yet), 0 for none. */
  qrCodeId: number;
}
