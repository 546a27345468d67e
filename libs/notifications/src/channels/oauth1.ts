import { createHmac, randomBytes } from 'node:crypto';

/** RFC 3986 percent-encoding, as OAuth 1.0a requires (encodeURIComponent leaves !'()* alone). */
export function percentEncode(value: string): string {
  return encodeURIComponent(value).replace(
    /[!'()*]/g,
    (c) => `%${c.charCodeAt(0).toString(16).toUpperCase()}`,
  );
}

export interface OAuth1Credentials {
  consumerKey: string;
  consumerSecret: string;
  token: string;
  tokenSecret: string;
}

/**
 * The `Authorization: OAuth …` header of an HMAC-SHA1 signed request (RFC 5849). `params` are the
 * query and form parameters that take part in the signature (none for a JSON body).
 */
export function oauth1Header(
  method: string,
  url: string,
  credentials: OAuth1Credentials,
  params: Record<string, string> = {},
  nonce: string = randomBytes(16).toString('hex'),
  timestamp: number = Math.floor(Date.now() / 1000),
): string {
  const oauth: Record<string, string> = {
    oauth_consumer_key: credentials.consumerKey,
    oauth_nonce: nonce,
    oauth_signature_method: 'HMAC-SHA1',
    oauth_timestamp: String(timestamp),
    oauth_token: credentials.token,
    oauth_version: '1.0',
  };
  const all = { ...params, ...oauth };
  const normalized = Object.keys(all)
    .map((k) => [percentEncode(k), percentEncode(all[k])] as const)
    .sort(([a, av], [b, bv]) => (a === b ? (av < bv ? -1 : 1) : a < b ? -1 : 1))
    .map(([k, v]) => `${k}=${v}`)
    .join('&');
  const base = [method.toUpperCase(), percentEncode(url), percentEncode(normalized)].join('&');
  const key = `${percentEncode(credentials.consumerSecret)}&${percentEncode(credentials.tokenSecret)}`;
  const signature = createHmac('sha1', key).update(base).digest('base64');
  return `OAuth ${Object.entries({ ...oauth, oauth_signature: signature })
    .map(([k, v]) => `${percentEncode(k)}="${percentEncode(v)}"`)
    .join(', ')}`;
}
