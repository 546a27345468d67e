/// <reference lib="dom" />
import { mkdirSync } from 'node:fs';
import { createServer, Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { join } from 'node:path';
import { Browser, BrowserContext, Page } from 'playwright-core';
import sharp from 'sharp';
import { VisitRecorder } from '@app/analytics';
import {
  closeAfterAll,
  closeServer,
  createTestApp,
  freePort,
  launchChromium,
  TestApp,
  TestUser,
} from '@app/testing';

// Headless Debian chromium drives every visitor page; screenshots are written to
// test/artifacts/visitor-pages/ (committed, and looked at by a person).
const ARTIFACTS = join(__dirname, 'artifacts', 'visitor-pages');
// A desktop browser's user agent: HeadlessChrome would be counted as a bot and not as a visit.
const CHROME =
  'Mozilla/5.0 (X11; Linux x86_64) AppleWebKit/537.36 (KHTML, like Gecko) Chrome/131.0.0.0 Safari/537.36';

interface IdBody {
  data: { id: number };
}

describe('Visitor pages in Chromium', () => {
  let t: TestApp;
  let owner: TestUser;
  let browser: Browser;
  let context: BrowserContext;
  let page: Page;
  let base: string;
  let destinations: Server;
  /** Destinations live on `localhost`, another host than the service's 127.0.0.1. */
  let dest: string;
  const dialogs: string[] = [];
  const cspErrors: string[] = [];
  let logo: Buffer;
  const opened = closeAfterAll();

  beforeAll(async () => {
    const port = await freePort();
    base = `http://127.0.0.1:${port}`;
    t = opened.add(await createTestApp({ env: { APP_URL: base } }));
    await t.app.listen(port, '127.0.0.1');
    owner = await t.createUser();
    destinations = createServer((req, res) => {
      res
        .writeHead(200, { 'Content-Type': 'text/html; charset=utf-8' })
        .end(`<!doctype html><title>Destination</title><h1>Destination ${req.url}</h1>`);
    });
    await new Promise<void>((resolve) => destinations.listen(0, '127.0.0.1', resolve));
    opened.add(destinations, closeServer);
    dest = `http://localhost:${(destinations.address() as AddressInfo).port}`;
    logo = await sharp({
      create: { width: 240, height: 80, channels: 4, background: '#2f5bea' },
    })
      .composite([
        {
          input: Buffer.from(
            '<svg xmlns="http://www.w3.org/2000/svg" width="240" height="80"><text x="120" y="52" font-size="36" font-family="sans-serif" fill="#fff" text-anchor="middle">ACME</text></svg>',
          ),
        },
      ])
      .png()
      .toBuffer();
    browser = opened.add(await launchChromium());
    mkdirSync(ARTIFACTS, { recursive: true });
  });

  beforeEach(async () => {
    context = await browser.newContext({
      viewport: { width: 900, height: 700 },
      userAgent: CHROME,
    });
    page = await context.newPage();
    page.on('dialog', (dialog) => {
      dialogs.push(dialog.message());
      void dialog.dismiss();
    });
    page.on('console', (message) => {
      if (message.type() === 'error' && /Content Security Policy/i.test(message.text())) {
        cspErrors.push(message.text());
      }
    });
    dialogs.length = 0;
    cspErrors.length = 0;
  });

  afterEach(() => context?.close());

  async function splash(
    fields: Record<string, string>,
    images: Record<string, Buffer> = {},
  ): Promise<number> {
    let req = t.http.post('/v1/splash-pages').set('Authorization', owner.auth).field(fields);
    for (const [field, buffer] of Object.entries(images)) {
      req = req.attach(field, buffer, `${field}.png`);
    }
    const res = await req;
    expect(res.status).toBe(201);
    return (res.body as IdBody).data.id;
  }

  async function link(fields: Record<string, unknown>): Promise<number> {
    const res = await t.http.post('/v1/links').set('Authorization', owner.auth).send(fields);
    expect(res.status).toBe(201);
    return (res.body as IdBody).data.id;
  }

  async function clicksOf(id: number): Promise<number> {
    await t.app.get(VisitRecorder).flush();
    const res = await t.http.get(`/v1/links/${id}`).set('Authorization', owner.auth);
    return (res.body as { data: { clicks: number } }).data.clicks;
  }

  const shot = (name: string) => page.screenshot({ path: join(ARTIFACTS, name), fullPage: true });

  /**
   * The page's clock becomes Chromium's fake one, standing still: countdowns move only when the
   * test runs it forward (install alone lets time flow as usual).
   */
  async function stopClock(): Promise<void> {
    const start = Date.UTC(2026, 0, 1);
    await page.clock.install({ time: start });
    await page.clock.pauseAt(start + 60_000);
  }

  it('counts down, unlocks the continue button, and it takes the visitor to the destination once', async () => {
    const id = await splash(
      {
        name: 'Countdown',
        title: 'Thanks for visiting ACME',
        description: 'Our partner page opens in a moment. Meanwhile, have a look at our shop.',
        secondary_button_name: 'Visit the shop',
        secondary_button_url: 'https://shop.example.com/',
        ads_header:
          '<div style="padding:.6rem;background:#fff3c4;border-radius:8px">Header ad: 20% off this week</div>',
        ads_footer:
          '<div style="padding:.6rem;background:#e2f6e9;border-radius:8px">Footer ad: free shipping</div>',
        link_unlock_seconds: '2',
      },
      { logo, favicon: logo, opengraph: logo },
    );
    const linkId = await link({
      location_url: `${dest}/countdown`,
      url: 'b-countdown',
      splash_page_id: id,
    });
    await stopClock();
    await page.goto(`${base}/b-countdown`);
    const button = page.locator('#continue');
    expect(await button.getAttribute('aria-disabled')).toBe('true');
    expect(await button.getAttribute('href')).toBeNull();
    expect(await page.locator('#countdown').textContent()).toBe('You can continue in 2 seconds');
    expect(
      await page.locator('img.logo').evaluate((img: HTMLImageElement) => img.naturalWidth),
    ).toBe(240);
    expect(await page.locator('meta[property="og:image"]').getAttribute('content')).toMatch(
      new RegExp(`^${base}/uploads/splash-pages/[0-9a-f]{40}\\.png$`),
    );
    await shot('splash-countdown.png');
    await page.setViewportSize({ width: 390, height: 760 });
    await shot('splash-countdown-mobile.png');
    await page.setViewportSize({ width: 900, height: 700 });

    await page.clock.runFor(1000);
    expect(await page.locator('#countdown').textContent()).toBe('You can continue in 1 second');
    expect(await button.getAttribute('aria-disabled')).toBe('true');
    await page.clock.runFor(1000);
    await page.waitForSelector('#continue:not([aria-disabled])', { timeout: 5000 });
    expect(await button.getAttribute('href')).toBe(`${dest}/countdown`);
    await shot('splash-unlocked.png');
    await button.click();
    await page.waitForURL(`${dest}/countdown`);
    expect(await page.locator('h1').textContent()).toBe('Destination /countdown');
    expect(await clicksOf(linkId)).toBe(1);
    expect(cspErrors).toEqual([]);
    expect(dialogs).toEqual([]);
  });

  it('redirects by itself when auto_redirect is on', async () => {
    const id = await splash({
      name: 'Auto',
      title: 'Taking you there',
      link_unlock_seconds: '1',
      auto_redirect: '1',
    });
    const linkId = await link({ location_url: `${dest}/auto`, url: 'b-auto', splash_page_id: id });
    await stopClock();
    await page.goto(`${base}/b-auto`);
    expect(await page.locator('#countdown').textContent()).toBe('Redirecting in 1 second');
    await shot('splash-auto-redirect.png');
    expect(page.url()).toBe(`${base}/b-auto`);
    await page.clock.runFor(1000);
    await page.waitForURL(`${dest}/auto`, { timeout: 5000 });
    expect(await page.locator('h1').textContent()).toBe('Destination /auto');
    expect(await clicksOf(linkId)).toBe(1);
    expect(cspErrors).toEqual([]);
  });

  it('works without JavaScript: the button is usable at once, auto-redirect uses a meta refresh', async () => {
    await context.close();
    context = await browser.newContext({ userAgent: CHROME, javaScriptEnabled: false });
    page = await context.newPage();
    const plain = await splash({
      name: 'No JS',
      title: 'No script here',
      link_unlock_seconds: '5',
    });
    const auto = await splash({ name: 'No JS auto', link_unlock_seconds: '1', auto_redirect: '1' });
    await link({ location_url: `${dest}/nojs`, url: 'b-nojs', splash_page_id: plain });
    await link({ location_url: `${dest}/nojs-auto`, url: 'b-nojs-auto', splash_page_id: auto });

    await page.goto(`${base}/b-nojs`);
    expect(await page.locator('#continue').getAttribute('aria-disabled')).toBeNull();
    await page.click('#continue');
    await page.waitForURL(`${dest}/nojs`);
    await page.goto(`${base}/b-nojs-auto`);
    await page.waitForURL(`${dest}/nojs-auto`, { timeout: 5000 });
  });

  it('runs the page owner’s custom CSS and JS on their splash page, in its colour', async () => {
    const id = await splash({
      name: 'Custom code',
      title: 'Styled by its owner',
      color: '#0A7F3F',
      custom_css: 'h1{color:rgb(230, 57, 70)}',
      custom_js: 'document.body.setAttribute("data-custom", "ran");',
      secondary_button_name: 'More from us',
      secondary_button_url: `${dest}/more`,
      link_unlock_seconds: '0',
    });
    await link({ location_url: `${dest}/custom`, url: 'b-custom', splash_page_id: id });
    await page.goto(`${base}/b-custom`);
    expect(await page.locator('body').getAttribute('data-custom')).toBe('ran');
    expect(await page.locator('h1').evaluate((h) => getComputedStyle(h).color)).toBe(
      'rgb(230, 57, 70)',
    );
    expect(await page.locator('#continue').getAttribute('aria-disabled')).toBeNull();
    expect(
      await page.locator('#continue').evaluate((a) => getComputedStyle(a).backgroundColor),
    ).toBe('rgb(10, 127, 63)');
    await shot('splash-custom-code.png');
    await page.click('#secondary');
    await page.waitForURL(`${dest}/more`);
    expect(cspErrors).toEqual([]);
  });

  it('sandboxes a splash page: its custom JS reads no cookie or storage of the service, nor another user’s unlocked site', async () => {
    // Another user's password-protected site on the same origin, unlocked by this visitor.
    const other = await t.createUser();
    const site = await t.http
      .post('/v1/links')
      .set('Authorization', other.auth)
      .field({ type: 'static', name: 'Private', url: 'b-private', password: 'letmein' })
      .attach(
        'file',
        Buffer.from('<!doctype html><title>Private</title><h1>Private notes of B</h1>'),
        'index.html',
      );
    expect(site.status).toBe(201);
    await page.goto(`${base}/b-private/`);
    await page.fill('#password', 'letmein');
    await page.click('button[type=submit]');
    await page.locator('h1', { hasText: 'Private notes of B' }).waitFor({ timeout: 5000 });

    const id = await splash({
      name: 'Exfiltration',
      link_unlock_seconds: '0',
      custom_js: [
        'var d = document.documentElement.dataset;',
        'd.origin = String(self.origin);',
        "try { document.cookie = 'probe=1'; d.cookie = 'readable:' + document.cookie; } catch (e) { d.cookie = 'blocked'; }",
        "try { localStorage.setItem('probe', '1'); d.storage = 'readable'; } catch (e) { d.storage = 'blocked'; }",
        "fetch('/b-private/', { credentials: 'include' })",
        '  .then(function (r) { return r.text(); })',
        "  .then(function (t) { d.fetch = t.indexOf('Private notes of B') >= 0 ? 'leaked' : 'no secret'; },",
        "    function () { d.fetch = 'failed'; });",
      ].join('\n'),
    });
    await link({ location_url: `${dest}/exfil`, url: 'b-exfil', splash_page_id: id });
    // In production APP_URL is https, where `connect-src https:` admits same-origin requests; this
    // server is http, so its splash page gets `http:` too, as an https deployment would have it.
    const policies: string[] = [];
    await page.route(`${base}/b-exfil`, async (route) => {
      const response = await route.fetch();
      const csp = response.headers()['content-security-policy'];
      policies.push(csp);
      await route.fulfill({
        response,
        headers: {
          ...response.headers(),
          'content-security-policy': csp.replace('connect-src https:', 'connect-src https: http:'),
        },
      });
    });
    const sentCookies: Array<Promise<string>> = [];
    page.on('request', (request) => {
      if (request.url() === `${base}/b-private/` && request.resourceType() === 'fetch') {
        sentCookies.push(request.allHeaders().then((h) => h.cookie ?? '(none)'));
      }
    });
    await page.goto(`${base}/b-exfil`);
    await page.waitForSelector('html[data-fetch]', { timeout: 5000 });
    expect(policies).toEqual([expect.stringContaining('; connect-src https:;')]);
    const seen = await page.evaluate(() => ({ ...document.documentElement.dataset }));
    expect(seen).toEqual({
      origin: 'null',
      cookie: 'blocked',
      storage: 'blocked',
      // Chromium: the request leaves without cookies, and CORS hides the answer.
      fetch: expect.stringMatching(/^(failed|no secret)$/),
    });
    expect(await Promise.all(sentCookies)).toEqual(['(none)']);
    // The continue button still works from the sandbox.
    await page.click('#continue');
    await page.waitForURL(`${dest}/exfil`);
    expect(cspErrors).toEqual([]);
  });

  it('keeps the splash page of a static site once per session: the sandboxed page still sets its cookie', async () => {
    const id = await splash({
      name: 'Site splash',
      title: 'Before the site',
      link_unlock_seconds: '1',
    });
    const site = await t.http
      .post('/v1/links')
      .set('Authorization', owner.auth)
      .field({ type: 'static', name: 'Site', url: 'b-site', splash_page_id: String(id) })
      .attach(
        'file',
        Buffer.from('<!doctype html><title>Site</title><h1>The site</h1>'),
        'index.html',
      );
    expect(site.status).toBe(201);
    const siteId = (site.body as IdBody).data.id;
    await page.goto(`${base}/b-site/`);
    expect(await page.locator('h1').textContent()).toBe('Before the site');
    expect(await page.evaluate(() => self.origin)).toBe('null');
    expect((await context.cookies(`${base}/b-site/`)).map((c) => [c.name, c.value])).toEqual([
      [`ld_sp_${siteId}`, '1'],
    ]);
    await page.waitForSelector('#continue:not([aria-disabled])', { timeout: 5000 });
    await page.click('#continue');
    await page.locator('h1', { hasText: 'The site' }).waitFor({ timeout: 5000 });
    expect(new URL(page.url()).pathname).toMatch(/^\/b-site\//);
    await page.goto(`${base}/b-site/`);
    expect(await page.locator('h1').textContent()).toBe('The site');
    expect(cspErrors).toEqual([]);
  });

  it('runs no script from a hostile title, description or name', async () => {
    const title = '</title><script>window.__pwned=1;alert(1)</script>';
    const description = '<img src=x onerror="window.__pwned=2;alert(2)">';
    const name = '<svg onload="window.__pwned=3;alert(3)">';
    const withTitle = await splash({
      name: 'Hostile',
      title,
      description,
      link_unlock_seconds: '0',
    });
    const nameOnly = await splash({ name, description: 'x', link_unlock_seconds: '0' });
    await link({ location_url: `${dest}/h1`, url: 'b-hostile', splash_page_id: withTitle });
    await link({ location_url: `${dest}/h2`, url: 'b-hostile-name', splash_page_id: nameOnly });

    await page.goto(`${base}/b-hostile`);
    expect(await page.title()).toBe(title);
    expect(await page.locator('h1').textContent()).toBe(title);
    expect(await page.locator('p.description').textContent()).toBe(description);
    await shot('splash-hostile.png');
    await page.goto(`${base}/b-hostile-name`);
    expect(await page.locator('h1').textContent()).toBe(name);
    await page.waitForTimeout(300);
    expect(await page.evaluate(() => (window as unknown as { __pwned?: number }).__pwned)).toBe(
      undefined,
    );
    expect(dialogs).toEqual([]);
  });

  it('refuses a wrong password and lets the right one through', async () => {
    await link({ location_url: `${dest}/locked`, url: 'b-locked', password: 'correct horse' });
    await page.goto(`${base}/b-locked`);
    await shot('password.png');
    await page.fill('#password', 'wrong');
    await page.click('button[type=submit]');
    expect(await page.locator('.error').textContent()).toBe('That password is not correct.');
    expect(page.url()).toBe(`${base}/b-locked`);
    await shot('password-wrong.png');
    await page.fill('#password', 'correct horse');
    await page.click('button[type=submit]');
    await page.waitForURL(`${dest}/locked`);
    expect(await page.locator('h1').textContent()).toBe('Destination /locked');
  });

  it('continues past the sensitive-content warning', async () => {
    await link({ location_url: `${dest}/sensitive`, url: 'b-sensitive', sensitive_content: 1 });
    await page.goto(`${base}/b-sensitive`);
    expect(await page.locator('h1').textContent()).toBe('Sensitive content ahead');
    await shot('sensitive-content.png');
    await page.click('button[type=submit]');
    await page.waitForURL(`${dest}/sensitive`);
  });

  it('shows the 404, method-not-allowed and too-many-attempts pages', async () => {
    const missing = await page.goto(`${base}/b-no-such-link`);
    expect(missing?.status()).toBe(404);
    expect(await page.locator('h1').textContent()).toBe('Link not found');
    await shot('not-found.png');

    await link({ location_url: `${dest}/plain`, url: 'b-plain' });
    await page.setContent(
      `<form method="post" action="${base}/b-plain"><button>go</button></form>`,
    );
    await page.click('button');
    await page.waitForURL(`${base}/b-plain`);
    expect(await page.locator('h1').textContent()).toBe('Method not allowed');
    await shot('method-not-allowed.png');

    await link({ location_url: `${dest}/guarded`, url: 'b-guarded', password: 'secret' });
    await page.goto(`${base}/b-guarded`);
    for (let i = 0; i < 11; i += 1) {
      await page.fill('#password', `guess-${i}`);
      await page.click('button[type=submit]');
      await page.waitForLoadState();
    }
    expect(await page.locator('h1').textContent()).toBe('Too many attempts');
    await shot('too-many-attempts.png');
  });
});
