import { existsSync, readdirSync } from 'node:fs';
import { join } from 'node:path';
import sharp from 'sharp';
import { VisitRecorder } from '@app/analytics';
import { createTestApp, expectDocumented, TestApp, TestUser } from '@app/testing';

const CHROME =
  'Mozilla/5.0 (Windows NT 10.0; Win64; x64) AppleWebKit/537.36 (KHTML, like Gecko) Chrome/131.0.0.0 Safari/537.36';
const SLACKBOT = 'Slackbot-LinkExpanding 1.0 (+https://api.slack.com/robots)';
const IMAGE_URL = /^http:\/\/links\.test\/uploads\/previews\/([0-9a-f]{40}\.jpg)$/;

describe('Link previews', () => {
  let t: TestApp;
  let owner: TestUser;
  let png: Buffer;
  const uploads = (): string => join(t.config.dataDir, 'uploads', 'previews');
  const files = (): string[] => (existsSync(uploads()) ? readdirSync(uploads()).sort() : []);

  beforeAll(async () => {
    t = await createTestApp();
    owner = await t.createUser();
    png = await sharp({ create: { width: 900, height: 900, channels: 4, background: '#e63946' } })
      .png()
      .toBuffer();
  });
  afterAll(() => t?.close());

  async function get(id: number) {
    return expectDocumented(await t.http.get(`/v1/links/${id}`).set('Authorization', owner.auth));
  }

  /** People's clicks and bots' visits of the link, once the recorder has written them. */
  async function clicks(id: number): Promise<[number, number]> {
    await t.app.get(VisitRecorder).flush();
    const { data } = (await get(id)).body as { data: { clicks: number; bot_clicks: number } };
    return [data.clicks, data.bot_clicks];
  }

  it('stores the preview fields and a 1200x630 JPEG, shown in the retrieve', async () => {
    const res = await t.http
      .post('/v1/links')
      .set('Authorization', owner.auth)
      .field('location_url', 'https://example.com/landing?a=1&b="2"')
      .field('url', 'preview-one')
      .field('preview_title', 'Spring <sale> & "more"')
      .field('preview_description', "It's 20% off")
      .attach('preview_image', png, 'p.png');
    expect(res.status).toBe(201);
    const id = (res.body as { data: { id: number } }).data.id;
    const link = (await get(id)).body as { data: Record<string, unknown> };
    expect(link.data).toMatchObject({
      preview_title: 'Spring <sale> & "more"',
      preview_description: "It's 20% off",
      preview_image_url: expect.stringMatching(IMAGE_URL),
      destination_status: 'unknown',
      destination_status_code: null,
      destination_checked_datetime: null,
    });
    const name = IMAGE_URL.exec(link.data.preview_image_url as string)![1];
    expect(files()).toContain(name);
    const image = await t.http.get(`/uploads/previews/${name}`);
    expect(image.status).toBe(200);
    expect(image.headers['content-type']).toBe('image/jpeg');
    const meta = await sharp(image.body as Buffer).metadata();
    expect([meta.format, meta.width, meta.height]).toEqual(['jpeg', 1200, 630]);

    // Slackbot gets the OG page, escaped, with a refresh to the destination; counted as a bot.
    const bot = await t.http.get('/preview-one').set('User-Agent', SLACKBOT).redirects(0);
    expect(bot.status).toBe(200);
    expect(bot.headers['content-type']).toBe('text/html; charset=utf-8');
    expect(bot.headers['cache-control']).toBe('public, max-age=300');
    const html = bot.text;
    expect(html).toContain(
      '<meta property="og:title" content="Spring &lt;sale&gt; &amp; &quot;more&quot;">',
    );
    expect(html).toContain('<meta property="og:description" content="It&#39;s 20% off">');
    expect(html).toContain(
      `<meta property="og:image" content="http://links.test/uploads/previews/${name}">`,
    );
    expect(html).toContain('<meta property="og:url" content="http://links.test/preview-one">');
    expect(html).toContain('<meta name="twitter:card" content="summary_large_image">');
    expect(html).toContain(
      '<meta http-equiv="refresh" content="0; url=https://example.com/landing?a=1&amp;b=%222%22">',
    );
    expect(await clicks(id)).toEqual([0, 1]);

    // A browser gets the redirect, counted, as before.
    const browser = await t.http.get('/preview-one').set('User-Agent', CHROME).redirects(0);
    expect(browser.status).toBe(302);
    expect(browser.headers.location).toBe('https://example.com/landing?a=1&b=%222%22');
    expect(await clicks(id)).toEqual([1, 1]);

    // Replacing the image removes the old file; removing it removes the new one.
    const replaced = await t.http
      .post(`/v1/links/${id}`)
      .set('Authorization', owner.auth)
      .attach('preview_image', png, 'q.png')
      .field('preview_title', 'New title');
    expect(replaced.status).toBe(200);
    const after = (await get(id)).body as { data: Record<string, unknown> };
    const second = IMAGE_URL.exec(after.data.preview_image_url as string)![1];
    expect(files()).not.toContain(name);
    expect(files()).toContain(second);
    expect(after.data.preview_title).toBe('New title');
    const removed = await t.http
      .post(`/v1/links/${id}`)
      .set('Authorization', owner.auth)
      .send({ preview_image_remove: 1, preview_description: '' });
    expect(removed.status).toBe(200);
    const last = (await get(id)).body as { data: Record<string, unknown> };
    expect([last.data.preview_image_url, last.data.preview_description]).toEqual([null, null]);
    expect(files()).not.toContain(second);
  });

  it('passes fetchers through when the link has no preview', async () => {
    const res = await t.http
      .post('/v1/links')
      .set('Authorization', owner.auth)
      .send({ location_url: 'https://example.com/plain', url: 'no-preview' });
    expect(res.status).toBe(201);
    const bot = await t.http.get('/no-preview').set('User-Agent', SLACKBOT).redirects(0);
    expect(bot.status).toBe(302);
    expect(bot.headers.location).toBe('https://example.com/plain');
  });

  it('never shows the destination of a protected or sensitive link', async () => {
    for (const [alias, extra] of [
      ['preview-locked', { password: 'hunter22' }],
      ['preview-sensitive', { sensitive_content: 1 }],
    ] as const) {
      const res = await t.http
        .post('/v1/links')
        .set('Authorization', owner.auth)
        .send({
          location_url: 'https://secret.example/x',
          url: alias,
          preview_title: 'Hello',
          ...extra,
        });
      expect(res.status).toBe(201);
      const bot = await t.http.get(`/${alias}`).set('User-Agent', 'Twitterbot/1.0').redirects(0);
      expect(bot.status).toBe(200);
      expect(bot.text).toContain('<meta property="og:title" content="Hello">');
      expect(bot.text).not.toContain('secret.example');
      expect(bot.text).not.toContain('http-equiv="refresh"');
      const browser = await t.http.get(`/${alias}`).set('User-Agent', CHROME).redirects(0);
      expect(browser.status).toBe(200);
      expect(browser.text).not.toContain('og:title');
    }
  });

  it('refuses preview fields that are too long, and an image that is not one', async () => {
    const res = await t.http
      .post('/v1/links')
      .set('Authorization', owner.auth)
      .send({
        location_url: 'https://example.com/',
        preview_title: 'x'.repeat(121),
        preview_description: 'y'.repeat(301),
      });
    expect(res.status).toBe(400);
    expect(res.body).toEqual({
      errors: [
        expect.objectContaining({ status: 400, code: 'validation_failed', field: 'preview_title' }),
        expect.objectContaining({
          status: 400,
          code: 'validation_failed',
          field: 'preview_description',
        }),
      ],
    });
    const bad = await t.http
      .post('/v1/links')
      .set('Authorization', owner.auth)
      .field('location_url', 'https://example.com/')
      .attach('preview_image', Buffer.from('not an image'), 'x.png');
    expect(bad.status).toBe(400);
    expect(bad.body).toEqual({
      errors: [
        expect.objectContaining({
          status: 400,
          code: 'validation_failed',
          field: 'preview_image',
          title: 'preview_image must be a PNG, JPEG, WebP or GIF image.',
        }),
      ],
    });
  });
});
