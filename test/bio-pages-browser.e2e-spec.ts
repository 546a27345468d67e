/// <reference lib="dom" />
import { mkdirSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import { Browser, BrowserContext, Page } from 'playwright-core';
import sharp from 'sharp';
import {
  closeAfterAll,
  createTestApp,
  freePort,
  launchChromium,
  TestApp,
  TestUser,
} from '@app/testing';

// Headless Debian chromium drives a bio page; the phone-sized screenshot is written to
// test/artifacts/bio-pages/ (committed, and looked at by a person).
const ARTIFACTS = join(__dirname, 'artifacts', 'bio-pages');
const CHROME =
  'Mozilla/5.0 (Linux; Android 14; Pixel 8) AppleWebKit/537.36 (KHTML, like Gecko) Chrome/131.0.0.0 Mobile Safari/537.36';
const AXE = readFileSync(require.resolve('axe-core/axe.min.js'), 'utf8');
const HOSTILE = `<img src=x onerror="alert('title')"><script>alert(1)</script>`;

interface AxeViolation {
  id: string;
  impact: string | null;
  nodes: unknown[];
}

describe('Bio pages in Chromium', () => {
  let t: TestApp;
  let owner: TestUser;
  let browser: Browser;
  let base: string;
  let linkId: number;
  const blocks: Record<string, number> = {};
  const dialogs: string[] = [];
  const opened = closeAfterAll();

  async function post(path: string, body: Record<string, unknown>): Promise<number> {
    const res = await t.http.post(path).set('Authorization', owner.auth).send(body);
    expect([path, res.status]).toEqual([path, 201]);
    return (res.body as { data: { id: number } }).data.id;
  }

  beforeAll(async () => {
    const port = await freePort();
    base = `http://127.0.0.1:${port}`;
    t = opened.add(await createTestApp({ env: { APP_URL: base } }));
    await t.app.listen(port, '127.0.0.1');
    owner = await t.createUser();
    const avatar = await sharp({
      create: { width: 256, height: 256, channels: 4, background: '#f59e0b' },
    })
      .png()
      .toBuffer();
    const created = await t.http
      .post('/v1/links')
      .set('Authorization', owner.auth)
      .field({
        type: 'biolink',
        url: 'ada',
        title: HOSTILE,
        description: 'Engineer & writer. Say hello below.',
        background_color: '#1e3a8a',
        background_color_two: '#0f172a',
        text_color: '#ffffff',
        button_color: '#fbbf24',
        button_text_color: '#111827',
      })
      .attach('avatar', avatar, 'avatar.png');
    expect(created.status).toBe(201);
    linkId = created.body.data.id;
    blocks.heading = await post('/v1/biolink-blocks', {
      link_id: linkId,
      type: 'heading',
      text: 'My links',
    });
    blocks.link = await post('/v1/biolink-blocks', {
      link_id: linkId,
      type: 'link',
      name: `Shop </a><script>alert("shop")</script>`,
      location_url: `${base}/v1/openapi.json`,
    });
    blocks.paragraph = await post('/v1/biolink-blocks', {
      link_id: linkId,
      type: 'paragraph',
      text: '"><svg onload=alert(2)> plain text',
    });
    blocks.socials = await post('/v1/biolink-blocks', {
      link_id: linkId,
      type: 'socials',
      github: 'octocat',
      instagram: 'ada',
    });
    blocks.email = await post('/v1/biolink-blocks', {
      link_id: linkId,
      type: 'email_collector',
      title: 'Newsletter',
      name: 'Subscribe',
      thank_you_message: 'Subscribed!',
    });
    blocks.phone = await post('/v1/biolink-blocks', {
      link_id: linkId,
      type: 'phone_collector',
      title: 'Call me back',
      thank_you_message: 'We will call you.',
    });
    blocks.contact = await post('/v1/biolink-blocks', {
      link_id: linkId,
      type: 'contact_collector',
      title: 'Contact',
      agreement_text: 'I agree to be contacted',
      thank_you_message: 'Message received.',
    });
    blocks.calendar = await post('/v1/biolink-blocks', {
      link_id: linkId,
      type: 'appointment_calendar',
      title: 'Book a call',
      timezone: 'Europe/London',
      days: ['mon', 'tue', 'wed', 'thu', 'fri', 'sat', 'sun'],
      start_time: '09:00',
      end_time: '11:00',
      duration_value: 30,
      duration_type: 'minutes',
      max_days_ahead: 3,
      min_notice_minutes: 0,
      thank_you_message: 'Booked.',
    });
    browser = opened.add(await launchChromium());
    mkdirSync(ARTIFACTS, { recursive: true });
  });

  async function phone(
    options: { javaScriptEnabled?: boolean; bypassCSP?: boolean } = {},
  ): Promise<{
    context: BrowserContext;
    page: Page;
  }> {
    const context = await browser.newContext({
      viewport: { width: 390, height: 844 },
      deviceScaleFactor: 2,
      isMobile: true,
      hasTouch: true,
      userAgent: CHROME,
      ...options,
    });
    const page = await context.newPage();
    page.on('dialog', (dialog) => {
      dialogs.push(dialog.message());
      void dialog.dismiss();
    });
    return { context, page };
  }

  async function dataOf(blockId: number) {
    const res = await t.http
      .get(`/v1/data?biolink_block_id=${blockId}&order_by=datum_id&order_type=ASC`)
      .set('Authorization', owner.auth);
    return (res.body as { data: Array<{ data: Record<string, unknown> }> }).data.map((d) => d.data);
  }

  it('shows the page on a phone, hostile text as text, and takes a screenshot', async () => {
    const { context, page } = await phone();
    const res = await page.goto(`${base}/ada`);
    expect(res?.status()).toBe(200);
    expect(await page.locator('h1').textContent()).toBe(HOSTILE);
    expect(await page.locator(`a[href="/ada/b/${blocks.link}"]`).textContent()).toBe(
      `Shop </a><script>alert("shop")</script>`,
    );
    expect(await page.locator('p.center').textContent()).toBe('"><svg onload=alert(2)> plain text');
    expect(await page.evaluate(() => document.scripts.length)).toBe(0);
    // Nothing wider than the screen: no sideways scrolling on a phone.
    expect(await page.evaluate(() => document.documentElement.scrollWidth)).toBeLessThanOrEqual(
      390,
    );
    const avatar = page.locator('img.avatar');
    expect(await avatar.evaluate((img: HTMLImageElement) => img.complete && img.naturalWidth)).toBe(
      256,
    );
    await page.screenshot({ path: join(ARTIFACTS, 'phone.png'), fullPage: true });
    expect(dialogs).toEqual([]);
    await context.close();
  });

  it('has no serious or critical accessibility violations (axe-core)', async () => {
    // The page's CSP forbids scripts, the axe engine included: this context bypasses it.
    const { context, page } = await phone({ bypassCSP: true });
    await page.goto(`${base}/ada`);
    await page.addScriptTag({ content: AXE });
    const violations = await page.evaluate(async () => {
      const axe = (window as unknown as { axe: { run: () => Promise<{ violations: unknown[] }> } })
        .axe;
      return (await axe.run()).violations;
    });
    const severe = (violations as AxeViolation[])
      .filter((v) => v.impact === 'serious' || v.impact === 'critical')
      .map((v) => `${v.id} (${v.impact}, ${v.nodes.length} nodes)`);
    expect(severe).toEqual([]);
    await context.close();
  });

  it.each([true, false])(
    'fills and sends each collector, JavaScript %s',
    async (javaScriptEnabled) => {
      const { context, page } = await phone({ javaScriptEnabled });
      const suffix = javaScriptEnabled ? 'js' : 'nojs';
      await page.goto(`${base}/ada`);
      await page.fill(`#b${blocks.email}-email`, `ada-${suffix}@example.com`);
      await page.fill(`#b${blocks.email}-name`, 'Ada');
      await page.click(`#b${blocks.email} button[type=submit]`);
      await expect(page.locator(`#b${blocks.email}`).textContent()).resolves.toBe('Subscribed!');

      await page.fill(`#b${blocks.phone}-phone`, '+44 20 7946 0958');
      await page.click(`#b${blocks.phone} button[type=submit]`);
      await expect(page.locator(`#b${blocks.phone}`).textContent()).resolves.toBe(
        'We will call you.',
      );

      await page.fill(`#b${blocks.contact}-name`, 'Ada');
      await page.fill(`#b${blocks.contact}-email`, `ada-${suffix}@example.com`);
      await page.fill(`#b${blocks.contact}-message`, `Hello from ${suffix}`);
      await page.check(`#b${blocks.contact} input[name=agreement]`);
      await page.click(`#b${blocks.contact} button[type=submit]`);
      await expect(page.locator(`#b${blocks.contact}`).textContent()).resolves.toBe(
        'Message received.',
      );

      const slot = page.locator(`#b${blocks.calendar} input[name=slot]`).first();
      const slotValue = await slot.getAttribute('value');
      await slot.check();
      await page.fill(`#b${blocks.calendar}-name`, 'Ada');
      await page.fill(`#b${blocks.calendar}-email`, `ada-${suffix}@example.com`);
      await page.click(`#b${blocks.calendar} button[type=submit]`);
      await expect(page.locator(`#b${blocks.calendar}`).textContent()).resolves.toBe('Booked.');

      expect(
        (await dataOf(blocks.email)).filter((d) => d.email === `ada-${suffix}@example.com`),
      ).toEqual([{ email: `ada-${suffix}@example.com`, name: 'Ada' }]);
      expect(
        (await dataOf(blocks.contact)).filter((d) => d.message === `Hello from ${suffix}`),
      ).toEqual([
        {
          phone: null,
          email: `ada-${suffix}@example.com`,
          message: `Hello from ${suffix}`,
          name: 'Ada',
        },
      ]);
      const booked = (await dataOf(blocks.calendar)).filter(
        (d) => d.email === `ada-${suffix}@example.com`,
      );
      expect(booked).toHaveLength(1);
      expect(booked[0].start_time).toBe(new Date(Number(slotValue)).toISOString().slice(11, 16));
      expect(dialogs).toEqual([]);
      await context.close();
    },
  );

  it('re-renders a refused form with the message next to the field and what was typed', async () => {
    const { context, page } = await phone({ javaScriptEnabled: false });
    await page.goto(`${base}/ada`);
    await page.fill(`#b${blocks.phone}-name`, 'Grace <b>');
    await page.fill(`#b${blocks.phone}-phone`, '12');
    await page.click(`#b${blocks.phone} button[type=submit]`);
    await expect(page.locator(`#b${blocks.phone}-phone-error`).textContent()).resolves.toBe(
      'Enter a phone number with its country code, like +44 20 7946 0958.',
    );
    expect(await page.inputValue(`#b${blocks.phone}-phone`)).toBe('12');
    expect(await page.inputValue(`#b${blocks.phone}-name`)).toBe('Grace <b>');
    expect(await page.getAttribute(`#b${blocks.phone}-phone`, 'aria-describedby')).toBe(
      `b${blocks.phone}-phone-error`,
    );
    await context.close();
  });

  it('two visitors racing for one slot: one booking, one clear "taken" message', async () => {
    const a = await phone();
    const b = await phone();
    await a.page.goto(`${base}/ada`);
    await b.page.goto(`${base}/ada`);
    const value = await a.page
      .locator(`#b${blocks.calendar} input[name=slot]`)
      .first()
      .getAttribute('value');
    for (const [who, p] of [
      ['ann', a.page],
      ['bob', b.page],
    ] as const) {
      await p.check(`#b${blocks.calendar} input[name=slot][value="${value}"]`);
      await p.fill(`#b${blocks.calendar}-name`, who);
      await p.fill(`#b${blocks.calendar}-email`, `${who}@example.com`);
    }
    // Both press the button at once; each waits for the answer to its own post.
    const statuses = await Promise.all(
      [a.page, b.page].map(async (p) => {
        const [response] = await Promise.all([
          p.waitForResponse((r) => r.request().method() === 'POST'),
          p.click(`#b${blocks.calendar} button[type=submit]`),
        ]);
        await p.waitForLoadState('domcontentloaded');
        return response.status();
      }),
    );
    expect(statuses.sort()).toEqual([200, 409]);
    const texts = await Promise.all(
      [a.page, b.page].map((p) => p.locator(`#b${blocks.calendar}`).textContent()),
    );
    const winner = texts.filter((x) => x === 'Booked.');
    const loser = texts.filter((x) =>
      x?.includes('Someone has just booked that time. Please choose another.'),
    );
    expect([winner.length, loser.length]).toEqual([1, 1]);
    const rows = (await dataOf(blocks.calendar)).filter(
      (d) => d.email === 'ann@example.com' || d.email === 'bob@example.com',
    );
    expect(rows).toHaveLength(1);
    await a.context.close();
    await b.context.close();
  });
});
