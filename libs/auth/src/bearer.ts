/**
 * The token of an `Authorization: Bearer <token>` header, or null. Parsed exactly as
 * passport-http-bearer parses it (one space between scheme and token), so the rate limiter and
 * the guard always agree on which key a request carries.
 */
export function bearerToken(header: unknown): string | null {
  if (typeof header !== 'string') {
    return null;
  }
  const match = /^Bearer (\S+)$/i.exec(header);
  return match ? match[1] : null;
}
