/// <reference lib="dom" />
import { mkdirSync, readFileSync, statSync } from 'node:fs';
import { createServer, Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { join } from 'node:path';
import { Browser, Page } from 'playwright-core';
import { SIGNATURE_TEMPLATES } from '@app/signatures';
import {
  closeAfterAll,
  closeServer,
  createTestApp,
  freePort,
  launchChromium,
  TestApp,
  TestUser,
} from '@app/testing';

// Headless Debian chromium renders every template through the public preview page; screenshots
// are written to test/artifacts/signatures/ (committed, and looked at by a person).
const ARTIFACTS = join(__dirname, 'artifacts', 'signatures');
const AXE = readFileSync(require.resolve('axe-core/axe.min.js'), 'utf8');

interface AxeViolation {
  id: string;
  impact: string | null;
  nodes: unknown[];
}

const HOSTILE = '<script>alert(1)</script>"><img src=x onerror=alert(2)>';

describe('Signatures in Chromium', () => {
  let t: TestApp;
  let user: TestUser;
  let browser: Browser;
  let page: Page;
  let photoServer: Server;
  let photoUrl: string;
  const dialogs: string[] = [];
  const opened = closeAfterAll();

  beforeAll(async () => {
    const port = await freePort();
    t = opened.add(await createTestApp({ env: { APP_URL: `http://127.0.0.1:${port}` } }));
    await t.app.listen(port, '127.0.0.1');
    user = await t.createUser();
    browser = opened.add(await launchChromium());
    page = await browser.newPage({ viewport: { width: 900, height: 600 } });
    page.on('dialog', (dialog) => {
      dialogs.push(dialog.message());
      void dialog.dismiss();
    });
    // A profile photo: drawn once by the browser, then served from a local server like a CDN would.
    await page.setContent(
      '<body style="margin:0"><svg xmlns="http://www.w3.org/2000/svg" width="120" height="120"><rect width="120" height="120" fill="#0f766e"/><circle cx="60" cy="46" r="22" fill="#ccfbf1"/><ellipse cx="60" cy="112" rx="40" ry="30" fill="#ccfbf1"/></svg></body>',
    );
    const photo = await page.screenshot({ clip: { x: 0, y: 0, width: 120, height: 120 } });
    photoServer = createServer((_req, res) => {
      res.writeHead(200, { 'Content-Type': 'image/png' }).end(photo);
    });
    await new Promise<void>((resolve) => photoServer.listen(0, '127.0.0.1', resolve));
    opened.add(photoServer, closeServer);
    photoUrl = `http://127.0.0.1:${(photoServer.address() as AddressInfo).port}/ada.png`;
    mkdirSync(ARTIFACTS, { recursive: true });
  });

  const FULL = () => ({
    sign_off: 'Kind regards,',
    full_name: 'Ada Lovelace',
    job_title: 'Lead Analyst',
    department: 'Engines',
    company: 'Analytical Engines Ltd',
    email: 'ada@example.com',
    website_url: 'https://example.com',
    address: '12 St James Square, London',
    address_url: 'https://maps.example.com/?q=St+James',
    phone_number: '+44 20 7946 0000',
    whatsapp: '+447700900000',
    telegram: 'ada',
    disclaimer: 'This message is confidential.',
    image_url: photoUrl,
    image_width: 72,
    separator_size: 2,
    theme_color: '#0f766e',
    font_family: 'georgia',
    facebook: 'ada',
    twitter: 'ada',
    instagram: 'ada',
    linkedin: 'ada',
    youtube: 'ada',
    github: 'ada',
    discord: 'ada',
    reddit: 'ada',
  });

  async function preview(fields: Record<string, unknown>): Promise<{ id: number; url: string }> {
    const created = await t.http
      .post('/v1/signatures')
      .set('Authorization', user.auth)
      .send(fields);
    expect(created.status).toBe(201);
    const id = (created.body as { data: { id: number } }).data.id;
    const html = await t.http.get(`/v1/signatures/${id}/html`).set('Authorization', user.auth);
    return { id, url: (html.body as { data: { preview_url: string } }).data.preview_url };
  }

  /** Opens the preview, checks it is email-safe and every image loaded, saves a screenshot. */
  async function shoot(url: string, file: string): Promise<string> {
    const response = await page.goto(url, { waitUntil: 'load' });
    expect(response?.status()).toBe(200);
    const report = await page.evaluate(() => {
      const root = document.getElementById('signature');
      const imgs = Array.from(root?.querySelectorAll('img') ?? []);
      return {
        forbidden: root?.querySelectorAll('script, style, link, iframe, object, embed, form')
          .length,
        classes: root?.querySelectorAll('[class]').length,
        tables: root?.querySelectorAll('table').length,
        broken: imgs.filter((i) => !i.complete || i.naturalWidth === 0).map((i) => i.src),
        relative: imgs.filter((i) => !/^https?:\/\//.test(i.getAttribute('src') ?? '')).length,
        text: root?.textContent ?? '',
      };
    });
    expect(report).toMatchObject({ forbidden: 0, classes: 0, broken: [], relative: 0 });
    expect(report.tables).toBeGreaterThan(0);
    await page.locator('#signature').screenshot({ path: join(ARTIFACTS, file) });
    return report.text;
  }

  it.each(SIGNATURE_TEMPLATES)(
    'renders %s with full, minimal and right-to-left settings',
    async (template) => {
      const full = await preview({ name: `${template} full`, template, ...FULL() });
      const fullText = await shoot(full.url, `${template}-full.png`);
      expect(fullText).toContain('Ada Lovelace');
      expect(fullText).toContain('Analytical Engines Ltd');
      const icons = await page.locator('#signature img[src*="/assets/social/"]').count();
      expect(icons).toBe(8);

      const minimal = await preview({
        name: `${template} minimal`,
        template,
        full_name: 'Grace Hopper',
      });
      expect(await shoot(minimal.url, `${template}-minimal.png`)).toContain('Grace Hopper');

      const rtl = await preview({
        name: `${template} rtl`,
        template,
        ...FULL(),
        direction: 'rtl',
        full_name: 'سارة أحمد',
        job_title: 'مديرة المنتج',
        company: 'شركة المثال',
      });
      expect(await shoot(rtl.url, `${template}-rtl.png`)).toContain('سارة أحمد');
      expect(await page.locator('#signature > table').getAttribute('dir')).toBe('rtl');
    },
  );

  it.each(SIGNATURE_TEMPLATES)(
    'previews %s with a landmark, a heading and links told apart without colour (axe-core)',
    async (template) => {
      const { url } = await preview({ name: `${template} axe`, template, ...FULL() });
      const context = await browser.newContext({ bypassCSP: true });
      const axePage = await context.newPage();
      await axePage.goto(url, { waitUntil: 'load' });
      await axePage.addScriptTag({ content: AXE });
      const violations = await axePage.evaluate(async () => {
        const axe = (
          window as unknown as { axe: { run: () => Promise<{ violations: unknown[] }> } }
        ).axe;
        return (await axe.run()).violations;
      });
      // Serious and critical ones, and the page-structure rules (moderate in axe) this page
      // once failed: no main landmark, no level-one heading, content outside any landmark.
      const found = (violations as AxeViolation[])
        .filter(
          (v) =>
            v.impact === 'serious' ||
            v.impact === 'critical' ||
            ['landmark-one-main', 'page-has-heading-one', 'region'].includes(v.id),
        )
        .map((v) => `${v.id} (${v.impact}, ${v.nodes.length} nodes)`);
      expect(found).toEqual([]);
      await context.close();
    },
  );

  it('keeps hostile strings as text: no dialog, no injected element, no javascript: link', async () => {
    const { id, url } = await preview({
      name: HOSTILE,
      full_name: HOSTILE,
      job_title: HOSTILE,
      company: HOSTILE,
      sign_off: HOSTILE,
      address: HOSTILE,
      disclaimer: HOSTILE,
      phone_number: '+1 555 0100',
    });
    // Values that validation refuses, written straight into the row: the renderer must hold too.
    const settings = JSON.stringify({
      full_name: HOSTILE,
      website_url: 'javascript:alert(3)',
      address: HOSTILE,
      address_url: 'javascript:alert(4)',
      image_url: 'javascript:alert(5)',
      email: '"><script>alert(6)</script>@x.io',
      telegram: '"><b>x',
      github: '"><script>alert(7)</script>',
    });
    const sql =
      t.dataSource.options.type === 'postgres'
        ? 'UPDATE signatures SET settings = $1 WHERE id = $2'
        : 'UPDATE signatures SET settings = ? WHERE id = ?';
    await t.dataSource.query(sql, [settings, id]);

    const text = await shoot(url, 'hostile.png');
    expect(text).toContain(HOSTILE);
    const injected = await page.evaluate(() => ({
      scripts: document.querySelectorAll('script').length,
      onerror: document.querySelectorAll('[onerror]').length,
      strayImages: Array.from(document.querySelectorAll('img')).filter(
        (i) => i.getAttribute('src') === 'x',
      ).length,
      bold: document.querySelectorAll('#signature b').length,
      javascriptLinks: Array.from(document.querySelectorAll('a')).filter((a) =>
        /^\s*javascript:/i.test(a.getAttribute('href') ?? ''),
      ).length,
    }));
    expect(injected).toEqual({
      scripts: 0,
      onerror: 0,
      strayImages: 0,
      bold: 0,
      javascriptLinks: 0,
    });
    expect(dialogs).toEqual([]);
  });

  it('left a screenshot of every template and variant', () => {
    const expected = [
      ...SIGNATURE_TEMPLATES.flatMap((t) => [`${t}-full.png`, `${t}-minimal.png`, `${t}-rtl.png`]),
      'hostile.png',
    ];
    expect(SIGNATURE_TEMPLATES.length).toBeGreaterThanOrEqual(3);
    for (const file of expected) {
      expect(statSync(join(ARTIFACTS, file)).size).toBeGreaterThan(1000);
    }
  });
});
