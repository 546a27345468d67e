import { createServer, IncomingMessage } from 'node:http';
import type { AddressInfo } from 'node:net';
import { Browser, BrowserContext, Page } from 'playwright-core';
import { closeAfterAll, closeServer, createTestApp, freePort, launchChromium } from '@app/testing';
import type { TestApp, TestUser } from '@app/testing';

// A desktop browser's user agent: HeadlessChrome would be counted as a bot.
const CHROME =
  'Mozilla/5.0 (X11; Linux x86_64) AppleWebKit/537.36 (KHTML, like Gecko) Chrome/131.0.0.0 Safari/537.36';

interface Received {
  requestLine: string;
  host: string | undefined;
}

interface Case {
  name: string;
  /** The destination as the user types it; `{P}` is the destination server's port. */
  location: string;
  /** Link fields besides the destination. */
  fields?: Record<string, unknown>;
  /** What the visitor opens after `/{alias}`. */
  visit: string;
  /** The URL Chromium ends on, and the request line and Host the destination server receives. */
  url: string;
  requestLine: string;
  host: string;
}

const FORWARD = { forward_query_parameters_is_enabled: 1 };

// What Chromium does with each `Location` is the check: it follows redirects with its own URL
// parser and refuses a non-ASCII header (ERR_INVALID_REDIRECT). Every host name resolves to
// 127.0.0.1 (--host-resolver-rules), so IDN and made-up hosts land on the destination server.
const CASES: Case[] = [
  {
    name: 'a fragment, with the query forwarded',
    location: 'http://example.test:{P}/path?x=1#section-2',
    fields: FORWARD,
    visit: '?ref=tw',
    url: 'http://example.test:{P}/path?x=1&ref=tw#section-2',
    requestLine: 'GET /path?x=1&ref=tw HTTP/1.1',
    host: 'example.test:{P}',
  },
  {
    name: 'a hash route, with the query forwarded',
    location: 'http://example.test:{P}/app#/route?tab=1',
    fields: FORWARD,
    visit: '?ref=tw',
    url: 'http://example.test:{P}/app?ref=tw#/route?tab=1',
    requestLine: 'GET /app?ref=tw HTTP/1.1',
    host: 'example.test:{P}',
  },
  {
    name: 'an IDN host with a non-ASCII path and query, typed as is',
    location: 'http://bücher.example:{P}/straße?q=ä b',
    visit: '',
    url: 'http://xn--bcher-kva.example:{P}/stra%C3%9Fe?q=%C3%A4%20b',
    requestLine: 'GET /stra%C3%9Fe?q=%C3%A4%20b HTTP/1.1',
    host: 'xn--bcher-kva.example:{P}',
  },
  {
    name: 'non-ASCII already percent-encoded',
    location: 'http://example.test:{P}/caf%C3%A9?q=%C3%A4&s=a%2Fb~c%20d',
    fields: FORWARD,
    visit: '?ref=tw',
    url: 'http://example.test:{P}/caf%C3%A9?q=%C3%A4&s=a%2Fb~c%20d&ref=tw',
    requestLine: 'GET /caf%C3%A9?q=%C3%A4&s=a%2Fb~c%20d&ref=tw HTTP/1.1',
    host: 'example.test:{P}',
  },
  {
    name: "a visitor's non-ASCII query, forwarded",
    location: 'http://example.test:{P}/search',
    fields: FORWARD,
    visit: '?q=müller',
    url: 'http://example.test:{P}/search?q=m%C3%BCller',
    requestLine: 'GET /search?q=m%C3%BCller HTTP/1.1',
    host: 'example.test:{P}',
  },
  {
    name: 'UTM parameters already in the destination',
    location: 'http://example.test:{P}/?utm_source=old&a=1#top',
    fields: { utm_source: 'qr', utm_campaign: 'spring sale' },
    visit: '',
    url: 'http://example.test:{P}/?utm_source=qr&a=1&utm_campaign=spring%20sale#top',
    requestLine: 'GET /?utm_source=qr&a=1&utm_campaign=spring%20sale HTTP/1.1',
    host: 'example.test:{P}',
  },
  {
    name: 'an empty visitor query',
    location: 'http://example.test:{P}/p',
    fields: FORWARD,
    visit: '?',
    url: 'http://example.test:{P}/p',
    requestLine: 'GET /p HTTP/1.1',
    host: 'example.test:{P}',
  },
  {
    name: 'a destination ending in ?, with the query forwarded',
    location: 'http://example.test:{P}/p?',
    fields: FORWARD,
    visit: '?a=1',
    url: 'http://example.test:{P}/p?a=1',
    requestLine: 'GET /p?a=1 HTTP/1.1',
    host: 'example.test:{P}',
  },
  {
    name: 'a destination ending in ?, with UTM values',
    location: 'http://example.test:{P}/p?',
    fields: { utm_medium: 'qr' },
    visit: '',
    url: 'http://example.test:{P}/p?utm_medium=qr',
    requestLine: 'GET /p?utm_medium=qr HTTP/1.1',
    host: 'example.test:{P}',
  },
  {
    name: 'an upper-case host, a dot segment and a port',
    location: 'http://EXAMPLE.test:{P}/a/../b?x=1',
    visit: '',
    url: 'http://example.test:{P}/b?x=1',
    requestLine: 'GET /b?x=1 HTTP/1.1',
    host: 'example.test:{P}',
  },
  {
    name: 'an IPv6 literal with a fragment, with the query forwarded',
    location: 'http://[0:0::1]:{P}/v6?x=1#f',
    fields: FORWARD,
    visit: '?ref=tw',
    url: 'http://[::1]:{P}/v6?x=1&ref=tw#f',
    requestLine: 'GET /v6?x=1&ref=tw HTTP/1.1',
    host: '[::1]:{P}',
  },
];

describe('Redirects in Chromium', () => {
  let t: TestApp;
  let owner: TestUser;
  let browser: Browser;
  let context: BrowserContext;
  let page: Page;
  let base: string;
  let port: number;
  const received: Received[] = [];
  const opened = closeAfterAll();

  beforeAll(async () => {
    const appPort = await freePort();
    base = `http://127.0.0.1:${appPort}`;
    t = opened.add(await createTestApp({ env: { APP_URL: base } }));
    await t.app.listen(appPort, '127.0.0.1');
    owner = await t.createUser();
    // Listens on IPv6 and IPv4 (127.0.0.1, where every host name resolves, and ::1).
    const destinations = createServer((req: IncomingMessage, res) => {
      received.push({
        requestLine: `${req.method} ${req.url} HTTP/${req.httpVersion}`,
        host: req.headers.host,
      });
      res
        .writeHead(200, { 'Content-Type': 'text/html; charset=utf-8' })
        // An inline icon: Chromium would otherwise ask for /favicon.ico at some point.
        .end('<!doctype html><link rel="icon" href="data:,"><title>Destination</title>');
    });
    await new Promise<void>((resolve) => destinations.listen(0, '::', resolve));
    opened.add(destinations, closeServer);
    port = (destinations.address() as AddressInfo).port;
    browser = opened.add(await launchChromium(['--host-resolver-rules=MAP * 127.0.0.1']));
  });

  beforeEach(async () => {
    received.length = 0;
    context = await browser.newContext({ userAgent: CHROME });
    page = await context.newPage();
  });
  afterEach(() => context?.close());

  const withPort = (text: string): string => text.replaceAll('{P}', String(port));

  async function createLink(fields: Record<string, unknown>): Promise<number> {
    const res = await t.http.post('/v1/links').set('Authorization', owner.auth).send(fields);
    expect(res.status).toBe(201);
    return (res.body as { data: { id: number } }).data.id;
  }

  it.each(CASES.map((c, i) => [c.name, c, i] as const))(
    'ends on the destination: %s',
    async (_name, c, i) => {
      const alias = `browser-${i}`;
      await createLink({ location_url: withPort(c.location), url: alias, ...c.fields });
      const response = await page.goto(`${base}/${alias}${c.visit}`);
      expect(response?.status()).toBe(200);
      expect(page.url()).toBe(withPort(c.url));
      expect(received).toEqual([{ requestLine: withPort(c.requestLine), host: withPort(c.host) }]);
    },
  );

  it('follows a non-ASCII destination stored before URLs were normalised', async () => {
    const id = await createLink({ location_url: 'http://example.test/', url: 'browser-legacy' });
    await t.dataSource.query(
      `UPDATE links SET location_url = 'http://bücher.example:${port}/ä?q=ü b#ß' WHERE id = ${id}`,
    );
    const response = await page.goto(`${base}/browser-legacy`);
    expect(response?.status()).toBe(200);
    expect(page.url()).toBe(`http://xn--bcher-kva.example:${port}/%C3%A4?q=%C3%BC%20b#%C3%9F`);
    expect(received).toEqual([
      { requestLine: 'GET /%C3%A4?q=%C3%BC%20b HTTP/1.1', host: `xn--bcher-kva.example:${port}` },
    ]);
  });

  it('continues from the splash page to the destination built the same way', async () => {
    const splash = await t.http
      .post('/v1/splash-pages')
      .set('Authorization', owner.auth)
      .send({ name: 'Go', title: 'Go', link_unlock_seconds: 0 });
    expect(splash.status).toBe(201);
    await createLink({
      location_url: `http://bücher.example:${port}/app#/route?tab=1`,
      url: 'browser-splash',
      splash_page_id: (splash.body as { data: { id: number } }).data.id,
      utm_source: 'qr',
      ...FORWARD,
    });
    await page.goto(`${base}/browser-splash?ref=tw`);
    expect(received).toEqual([]);
    await Promise.all([page.waitForURL(/xn--bcher-kva/), page.click('#continue')]);
    expect(page.url()).toBe(
      `http://xn--bcher-kva.example:${port}/app?utm_source=qr&ref=tw#/route?tab=1`,
    );
    expect(received).toEqual([
      {
        requestLine: 'GET /app?utm_source=qr&ref=tw HTTP/1.1',
        host: `xn--bcher-kva.example:${port}`,
      },
    ]);
  });
});
