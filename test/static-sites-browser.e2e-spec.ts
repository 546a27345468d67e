/// <reference lib="dom" />
import { mkdirSync, statSync } from 'node:fs';
import { join } from 'node:path';
import { Browser, BrowserContext, Page } from 'playwright-core';
import sharp from 'sharp';
import { VisitRecorder } from '@app/analytics';
import {
  closeAfterAll,
  createTestApp,
  freePort,
  launchChromium,
  TestApp,
  TestUser,
  writeZip,
} from '@app/testing';

// A static site uploaded through the API and opened in headless Debian chromium; the screenshot is
// written to test/artifacts/static-sites/ (committed, and looked at by a person).
const ARTIFACTS = join(__dirname, 'artifacts', 'static-sites');
const CHROME =
  'Mozilla/5.0 (X11; Linux x86_64) AppleWebKit/537.36 (KHTML, like Gecko) Chrome/131.0.0.0 Safari/537.36';

const INDEX = `<!doctype html>
<html lang="en">
<head>
<meta charset="utf-8">
<title>Spring sale</title>
<link rel="stylesheet" href="css/site.css">
</head>
<body>
<main>
<h1 id="title">Spring sale</h1>
<p class="lead">Everything in the shop, 20% off until Sunday.</p>
<img id="banner" src="img/banner.png" alt="A banner">
<p id="script-result">scripts did not run</p>
<p><a href="about/">About us</a></p>
</main>
<script src="js/app.js"></script>
</body>
</html>
`;

const CSS = `body { margin: 0; font-family: sans-serif; background: rgb(240, 248, 255); }
main { max-width: 40rem; margin: 2rem auto; padding: 2rem; background: #fff; border-radius: 12px; }
h1 { color: rgb(12, 34, 56); font-size: 40px; margin: 0 0 1rem; }
.lead { color: rgb(80, 80, 80); }
img { display: block; width: 320px; height: 120px; border-radius: 8px; }
`;

const APP_JS = `let cookie;
try { cookie = 'cookies readable: ' + document.cookie; } catch (e) { cookie = 'cookies blocked'; }
document.getElementById('script-result').textContent = 'script ran; ' + cookie;
`;

/** What a rendered demo site shows: its stylesheet applied, its image loaded, its script run. */
function siteReport(page: Page) {
  return page.evaluate(() => {
    const img = document.getElementById('banner') as HTMLImageElement;
    const title = document.getElementById('title') as HTMLElement;
    return {
      title: document.title,
      h1Color: getComputedStyle(title).color,
      h1Size: getComputedStyle(title).fontSize,
      background: getComputedStyle(document.body).backgroundColor,
      imageWidth: img.naturalWidth,
      imageHeight: img.naturalHeight,
      script: document.getElementById('script-result')?.textContent,
      origin: window.origin,
    };
  });
}

const RENDERED_SITE = {
  title: 'Spring sale',
  h1Color: 'rgb(12, 34, 56)',
  h1Size: '40px',
  background: 'rgb(240, 248, 255)',
  imageWidth: 320,
  imageHeight: 120,
  script: 'script ran; cookies blocked',
  origin: 'null',
};

describe('Static sites in Chromium', () => {
  let t: TestApp;
  let user: TestUser;
  let browser: Browser;
  let page: Page;
  let origin: string;
  const opened = closeAfterAll();

  beforeAll(async () => {
    const port = await freePort();
    origin = `http://127.0.0.1:${port}`;
    t = opened.add(await createTestApp({ env: { APP_URL: origin } }));
    await t.app.listen(port, '127.0.0.1');
    user = await t.createUser();
    browser = opened.add(await launchChromium());
    // HeadlessChrome's own user agent is (rightly) not counted as a visitor.
    page = await browser.newPage({ viewport: { width: 900, height: 600 }, userAgent: CHROME });
    mkdirSync(ARTIFACTS, { recursive: true });
  });

  it('renders a site with its stylesheet, image and script, sandboxed, and counts one page view', async () => {
    const banner = await sharp({
      create: { width: 320, height: 120, channels: 3, background: { r: 15, g: 118, b: 110 } },
    })
      .png()
      .toBuffer();
    const zip = writeZip([
      { name: 'spring/index.html', data: INDEX },
      { name: 'spring/css/site.css', data: CSS },
      { name: 'spring/js/app.js', data: APP_JS },
      { name: 'spring/img/banner.png', data: banner, method: 'store' },
      { name: 'spring/about/index.html', data: '<!doctype html><h1>About</h1>' },
    ]);
    const created = await t.http
      .post('/v1/links')
      .set('Authorization', user.auth)
      .field('type', 'static')
      .field('name', 'Spring sale')
      .field('url', 'spring-sale')
      .attach('file', zip, 'spring.zip');
    expect(created.status).toBe(201);
    const id = (created.body as { data: { id: number } }).data.id;

    // /{alias} without the slash is redirected, so the relative URLs resolve inside the site.
    const response = await page.goto(`${origin}/spring-sale`, { waitUntil: 'load' });
    expect(response?.status()).toBe(200);
    expect(page.url()).toBe(`${origin}/spring-sale/`);
    expect(await siteReport(page)).toEqual(RENDERED_SITE);
    const file = join(ARTIFACTS, 'spring-sale.png');
    await page.screenshot({ path: file, fullPage: true });
    expect(statSync(file).size).toBeGreaterThan(5000);

    // One page view for the page and its three assets; the about page is a second one.
    await t.app.get(VisitRecorder).flush();
    const count = async () =>
      Number(
        (
          await t.dataSource.query<Array<{ n: number | string }>>(
            `SELECT COUNT(*) AS n FROM visits WHERE link_id = ${Number(id)}`,
          )
        )[0].n,
      );
    expect(await count()).toBe(1);
    await page.click('text=About us');
    await page.waitForURL(`${origin}/spring-sale/about/`);
    expect(await page.textContent('h1')).toBe('About');
    await t.app.get(VisitRecorder).flush();
    expect(await count()).toBe(2);
  });

  /*
   * The gates. The page's own requests come from an opaque origin (the sandbox), so they carry no
   * SameSite=Lax cookie: a gate that needed its cookie on every file would show its page in place
   * of every stylesheet, script and image of the site.
   */
  describe('behind a gate', () => {
    let context: BrowserContext;
    let gated: Page;
    let banner: Buffer;

    beforeAll(async () => {
      banner = await sharp({
        create: { width: 320, height: 120, channels: 3, background: { r: 15, g: 118, b: 110 } },
      })
        .png()
        .toBuffer();
    });
    beforeEach(async () => {
      context = await browser.newContext({
        viewport: { width: 900, height: 600 },
        userAgent: CHROME,
      });
      gated = await context.newPage();
    });
    afterEach(() => context?.close());

    async function createSite(fields: Record<string, string>): Promise<number> {
      const zip = writeZip([
        { name: 'index.html', data: INDEX },
        { name: 'css/site.css', data: CSS },
        { name: 'js/app.js', data: APP_JS },
        { name: 'img/banner.png', data: banner, method: 'store' },
        { name: 'about/index.html', data: '<!doctype html><h1>About</h1>' },
      ]);
      let req = t.http.post('/v1/links').set('Authorization', user.auth).field('type', 'static');
      for (const [key, value] of Object.entries({ name: 'Spring sale', ...fields })) {
        req = req.field(key, value);
      }
      const created = await req.attach('file', zip, 'site.zip');
      expect(created.status).toBe(201);
      return (created.body as { data: { id: number } }).data.id;
    }

    /** What the rendered site shows: its stylesheet applied, its image loaded, its script run. */
    async function expectRendered(screenshot: string): Promise<void> {
      await gated.waitForLoadState('load');
      const file = join(ARTIFACTS, screenshot);
      await gated.screenshot({ path: file, fullPage: true });
      expect(statSync(file).size).toBeGreaterThan(5000);
      expect(await siteReport(gated)).toEqual(RENDERED_SITE);
    }

    it('renders a password-protected site with its assets once the password is typed in', async () => {
      await createSite({ url: 'locked-sale', password: 'letmein' });
      const first = await gated.goto(`${origin}/locked-sale/`, { waitUntil: 'load' });
      expect(first?.status()).toBe(200);
      expect(await gated.textContent('h1')).toBe('This link is protected');
      await gated.fill('#password', 'letmein');
      await Promise.all([gated.waitForNavigation(), gated.click('button[type=submit]')]);
      await expectRendered('password-protected.png');
      // The page lives under its capability URL; its relative URLs carry the token.
      expect(gated.url()).toMatch(
        new RegExp(`^${origin}/locked-sale/~[0-9a-z]+\\.[A-Za-z0-9_-]{22}/$`),
      );
      // Another page of the site, reached by a relative link, keeps the token.
      await gated.click('text=About us');
      await gated.waitForURL(/\/locked-sale\/~[^/]+\/about\/$/);
      expect(await gated.textContent('h1')).toBe('About');

      // The URL in the address bar does not open the site in another browser (no cookie there).
      const stranger = await browser.newContext({ userAgent: CHROME });
      const elsewhere = await stranger.newPage();
      await elsewhere.goto(gated.url(), { waitUntil: 'load' });
      expect(await elsewhere.textContent('h1')).toBe('This link is protected');
      await stranger.close();
    });

    it('renders a site with a splash page with its assets once the visitor continues', async () => {
      const splash = await t.http
        .post('/v1/splash-pages')
        .set('Authorization', user.auth)
        .send({ name: 'Welcome', title: 'Before the sale', link_unlock_seconds: 0 });
      expect(splash.status).toBe(201);
      const splashId = (splash.body as { data: { id: number } }).data.id;
      await createSite({ url: 'splash-sale', splash_page_id: String(splashId) });
      await gated.goto(`${origin}/splash-sale/`, { waitUntil: 'load' });
      expect(await gated.textContent('h1')).toBe('Before the sale');
      await gated.waitForSelector('#continue[href]:not([aria-disabled])');
      await Promise.all([gated.waitForNavigation(), gated.click('#continue')]);
      expect(gated.url()).toBe(`${origin}/splash-sale/`);
      await expectRendered('splash-page.png');
    });

    it('renders a sensitive site with its assets once the visitor confirms', async () => {
      await createSite({ url: 'sensitive-sale', sensitive_content: '1' });
      await gated.goto(`${origin}/sensitive-sale/`, { waitUntil: 'load' });
      expect(await gated.textContent('h1')).toBe('Sensitive content ahead');
      await Promise.all([gated.waitForNavigation(), gated.click('button[type=submit]')]);
      expect(gated.url()).toBe(`${origin}/sensitive-sale/`);
      await expectRendered('sensitive-content.png');
    });
  });
});
