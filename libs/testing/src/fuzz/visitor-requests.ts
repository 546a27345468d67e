import { percentEncode } from './encode';
import type { HttpRequest } from './request-arbitrary';

export const CHROME =
  'Mozilla/5.0 (Windows NT 10.0; Win64; x64) AppleWebKit/537.36 (KHTML, like Gecko) Chrome/131.0.0.0 Safari/537.36';
const IPHONE =
  'Mozilla/5.0 (iPhone; CPU iPhone OS 17_0 like Mac OS X) AppleWebKit/605.1.15 (KHTML, like Gecko) Version/17.0 Mobile/15E148 Safari/604.1';

/** A link row as an anonymous visitor reaches it. */
export interface StoredLink {
  alias: string;
  /** The Host header: the main host or the custom domain's. */
  host: string;
  isStatic: boolean;
  hasPassword: boolean;
}

function visit(
  host: string,
  url: string,
  extra: Record<string, string> = {},
  method: HttpRequest['method'] = 'get',
  body: string | null = null,
): HttpRequest {
  return {
    method,
    url,
    headers: { Host: host, 'User-Agent': CHROME, ...extra },
    body,
  };
}

const FORM = { 'Content-Type': 'application/x-www-form-urlencoded' };

/** Header values Node can send (it refuses anything outside Latin-1 and control characters). */
export function isSendableHeader(value: string): boolean {
  return /^[\x21-\x7e]+$/.test(value);
}

/**
 * Everything a visitor does with one link, in order: the first visit (the link is not cached
 * yet), then cached visits with query strings (the second also passes a clicks limit of 1),
 * link-preview fetchers, the static site's files, the password and sensitive-content forms.
 */
export function linkVisits(link: StoredLink): HttpRequest[] {
  const base = `/${percentEncode(link.alias)}`;
  const visits = [
    visit(link.host, base),
    visit(link.host, `${base}?utm_source=x&ref=%F0%9F%98%80`),
    visit(link.host, `${base}?utm_source=%ED%A0%80&%00=%0D%0A&utm_medium=%E3%80%82`, {
      'User-Agent': IPHONE,
      'Accept-Language': 'de-DE,de;q=0.9',
    }),
    visit(link.host, base, {}, 'head'),
    // Scan markers, valid-looking and not (removed all the same), and bots (recorded apart).
    visit(link.host, `${base}?ld_qr=zzzzzzz&ld_qr=zzzzzzzzzzzz&ld_qr=%ED%A0%80&x=1`, {
      'User-Agent': IPHONE,
    }),
    visit(link.host, `${base}?ld_qr=-1&ld_qr`, { 'User-Agent': 'curl/8.5.0' }),
    visit(link.host, `${base}?ld_qr=2`, { 'User-Agent': 'Slackbot-LinkExpanding 1.0' }, 'head'),
    // A link-preview fetcher: the Open Graph page when the link has a preview (preview.gate.ts).
    visit(link.host, `${base}?x=%22%3E%3C`, {
      'User-Agent': 'Slackbot-LinkExpanding 1.0 (+https://api.slack.com/robots)',
    }),
    visit(link.host, base, { 'User-Agent': 'facebookexternalhit/1.1' }, 'head'),
    visit(link.host, base, FORM, 'post', 'type=sensitive_content'),
  ];
  if (link.isStatic) {
    for (const path of [
      '/',
      '/index.html',
      '/missing.png',
      '/%2e%2e/%2e%2e/etc/passwd',
      '/a%20b/%F0%9F%98%80.css',
      '/a%00b',
      '/%ED%A0%80',
      '/..%2f..%2findex.html',
    ]) {
      visits.push(visit(link.host, `${base}${path}`, { 'Sec-Fetch-Dest': 'document' }));
    }
    visits.push(visit(link.host, `${base}/index.html`, { 'Sec-Fetch-Dest': 'style' }));
  }
  if (link.hasPassword) {
    visits.push(
      visit(link.host, base, FORM, 'post', 'type=password&password=wrong'),
      visit(link.host, base, FORM, 'post', 'type=password&password=%ED%A0%80%00'),
      visit(link.host, base, FORM, 'post', `type=password&password=${'x'.repeat(5000)}`),
    );
  }
  return visits;
}

/** The root and an unknown alias of a custom domain (its index and not-found redirects). */
export function domainVisits(host: string): HttpRequest[] {
  return [visit(host, '/'), visit(host, '/no-such-alias-fuzz'), visit(host, '/%F0%9F%98%80')];
}
