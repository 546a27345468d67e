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
}
