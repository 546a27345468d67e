import { existsSync, readdirSync } from 'node:fs';
import { join } from 'node:path';
import sharp from 'sharp';
import { VisitRecorder } from '@app/analytics';
import { createTestApp, expectDocumented, TestApp, TestUser } from '@app/testing';
import { SplashFiles } from '../apps/api/src/splash-pages/splash-files';

const DATETIME = /^\d{4}-\d{2}-\d{2} \d{2}:\d{2}:\d{2}$/;
const IMAGE_URL = /^http:\/\/links\.test\/uploads\/splash-pages\/[0-9a-f]{40}\.png$/;
const CHROME =
  'Mozilla/5.0 (Windows NT 10.0; Win64; x64) AppleWebKit/537.36 (KHTML, like Gecko) Chrome/131.0.0.0 Safari/537.36';
const NOT_FOUND = {
  errors: [
    {
      status: 404,
      title: 'The splash page you are looking for does not exist.',
      code: 'splash_page_not_found',
    },
  ],
};
const SANDBOX = 'sandbox allow-scripts allow-popups allow-popups-to-escape-sandbox allow-forms';
const STRICT_CSP = (nonce: string) =>
  `default-src 'none'; script-src 'nonce-${nonce}'; style-src 'unsafe-inline'; img-src http://links.test data:; base-uri 'none'; form-action 'none'; frame-ancestors 'none'; ${SANDBOX}`;

const EMPTY_SETTINGS = {
  logo: null,
  favicon: null,
  opengraph: null,
  secondary_button_name: null,
  secondary_button_url: null,
  custom_css: null,
  custom_js: null,
  ads_header: null,
  ads_footer: null,
};

interface IdBody {
  data: { id: number };
}

describe('Splash pages', () => {
  let t: TestApp;
  let owner: TestUser;
  let stranger: TestUser;
  let png: Buffer;
  let jpeg: Buffer;
  const svg = Buffer.from(
    '<svg xmlns="http://www.w3.org/2000/svg" width="40" height="40"><script>alert(1)</script><rect width="40" height="40" fill="#2f5bea"/></svg>',
  );

  beforeAll(async () => {
    t = await createTestApp();
    owner = await t.createUser();
    stranger = await t.createUser();
    png = await sharp({ create: { width: 64, height: 48, channels: 4, background: '#e63946' } })
      .png()
      .toBuffer();
    jpeg = await sharp({
      create: { width: 2400, height: 1260, channels: 3, background: '#1d3557' },
    })
      .jpeg()
      .toBuffer();
  });
  afterAll(() => t?.close());

  const dir = (): string => join(t.config.dataDir, 'uploads', 'splash-pages');
  const files = (): string[] => (existsSync(dir()) ? readdirSync(dir()).sort() : []);
  const fileOf = (url: string): string => join(dir(), url.split('/').pop() as string);

  async function create(fields: Record<string, string | number>, user = owner): Promise<number> {
    const res = await t.http.post('/v1/splash-pages').set('Authorization', user.auth).send(fields);
    expect(res.status).toBe(201);
    return (res.body as IdBody).data.id;
  }

  // Every read is checked against docs/openapi.json too.
  const get = async (id: number, user = owner) =>
    expectDocumented(await t.http.get(`/v1/splash-pages/${id}`).set('Authorization', user.auth));

  async function createLink(fields: Record<string, unknown>): Promise<number> {
    const res = await t.http.post('/v1/links').set('Authorization', owner.auth).send(fields);
    expect(res.status).toBe(201);
    return (res.body as IdBody).data.id;
  }

  const linkOf = async (id: number) =>
    (await t.http.get(`/v1/links/${id}`).set('Authorization', owner.auth)).body as {
      data: { splash_page_id: number | null; clicks: number };
    };

  const visit = (path: string) => t.http.get(path).set('User-Agent', CHROME).redirects(0);

  it('creates a page with only a name and reads back the whole object with defaults', async () => {
    const res = await t.http
      .post('/v1/splash-pages')
      .set('Authorization', owner.auth)
      .send({ name: 'Minimal' });
    expect(res.status).toBe(201);
    expect(res.body).toEqual({ data: { id: expect.any(Number) } });
    const got = await get((res.body as IdBody).data.id);
    expect(got.status).toBe(200);
    expect(got.body).toEqual({
      data: {
        id: (res.body as IdBody).data.id,
        name: 'Minimal',
        color: '#2f5bea',
        title: null,
        description: null,
        link_unlock_seconds: 5,
        auto_redirect: false,
        settings: EMPTY_SETTINGS,
        last_datetime: null,
        datetime: expect.stringMatching(DATETIME),
      },
    });
  });

  it('stores every field and image (re-encoded as PNG, SVG rasterized, large images scaled)', async () => {
    const before = files();
    const res = await t.http
      .post('/v1/splash-pages')
      .set('Authorization', owner.auth)
      .field({
        name: 'Full',
        color: '#E63946',
        title: 'Before you go',
        description: 'A word from our sponsor.',
        secondary_button_name: 'Our shop',
        secondary_button_url: 'https://shop.example.com/',
        custom_css: 'h1{color:#e63946}',
        custom_js: 'window.customRan = true;',
        ads_header: '<b>Header ad</b>',
        ads_footer: '<i>Footer ad</i>',
        link_unlock_seconds: '12',
        auto_redirect: '1',
      })
      .attach('logo', png, 'logo.png')
      .attach('favicon', svg, 'favicon.svg')
      .attach('opengraph', jpeg, 'og.jpg');
    expect(res.status).toBe(201);
    const id = (res.body as IdBody).data.id;
    const got = await get(id);
    expect(got.body).toEqual({
      data: {
        id,
        name: 'Full',
        color: '#e63946',
        title: 'Before you go',
        description: 'A word from our sponsor.',
        link_unlock_seconds: 12,
        auto_redirect: true,
        settings: {
          logo: expect.stringMatching(IMAGE_URL),
          favicon: expect.stringMatching(IMAGE_URL),
          opengraph: expect.stringMatching(IMAGE_URL),
          secondary_button_name: 'Our shop',
          secondary_button_url: 'https://shop.example.com/',
          custom_css: 'h1{color:#e63946}',
          custom_js: 'window.customRan = true;',
          ads_header: '<b>Header ad</b>',
          ads_footer: '<i>Footer ad</i>',
        },
        last_datetime: null,
        datetime: expect.stringMatching(DATETIME),
      },
    });
    const settings = (got.body as { data: { settings: Record<string, string> } }).data.settings;
    expect(files()).toEqual(
      [
        ...before,
        ...['logo', 'favicon', 'opengraph'].map((f) => fileOf(settings[f]).split('/').pop()),
      ].sort(),
    );
    const og = await sharp(fileOf(settings.opengraph)).metadata();
    expect([og.format, og.width, og.height]).toEqual(['png', 1200, 630]);
    const icon = await sharp(fileOf(settings.favicon)).metadata();
    expect(icon.format).toBe('png');
    const served = await t.http.get(new URL(settings.logo).pathname);
    expect(served.status).toBe(200);
    expect(served.headers['content-type']).toBe('image/png');
  });

  it('updates only the given fields (CSS, JS and ads included), replaces and removes images without leftovers', async () => {
    const created = await t.http
      .post('/v1/splash-pages')
      .set('Authorization', owner.auth)
      .field({ name: 'Editable', title: 'Old title', custom_css: 'a{}', ads_footer: 'old' })
      .attach('logo', png, 'logo.png')
      .attach('favicon', png, 'favicon.png');
    const id = (created.body as IdBody).data.id;
    const old = (await get(id)).body as { data: { settings: Record<string, string> } };
    const res = await t.http
      .post(`/v1/splash-pages/${id}`)
      .set('Authorization', owner.auth)
      .field({
        title: 'New title',
        color: '#123abc',
        custom_css: 'b{}',
        custom_js: 'void 0;',
        ads_header: 'head',
        ads_footer: '',
        link_unlock_seconds: '0',
        logo_remove: '1',
      })
      .attach('favicon', svg, 'favicon.svg');
    expect(res.status).toBe(200);
    expect(res.body).toEqual({ data: { id } });
    const got = (await get(id)).body as { data: { settings: Record<string, string> } };
    expect(got).toEqual({
      data: {
        id,
        name: 'Editable',
        color: '#123abc',
        title: 'New title',
        description: null,
        link_unlock_seconds: 0,
        auto_redirect: false,
        settings: {
          ...EMPTY_SETTINGS,
          favicon: expect.stringMatching(IMAGE_URL),
          custom_css: 'b{}',
          custom_js: 'void 0;',
          ads_header: 'head',
        },
        last_datetime: expect.stringMatching(DATETIME),
        datetime: expect.stringMatching(DATETIME),
      },
    });
    expect(got.data.settings.favicon).not.toBe(old.data.settings.favicon);
    expect(existsSync(fileOf(old.data.settings.logo))).toBe(false);
    expect(existsSync(fileOf(old.data.settings.favicon))).toBe(false);
    expect(existsSync(fileOf(got.data.settings.favicon))).toBe(true);

    const del = await t.http.delete(`/v1/splash-pages/${id}`).set('Authorization', owner.auth);
    expect(del.status).toBe(200);
    expect(del.body).toEqual({ data: { id } });
    expect(existsSync(fileOf(got.data.settings.favicon))).toBe(false);
    expect((await get(id)).body).toEqual(NOT_FOUND);
  });

  it('lists own pages with the same object, searching by name and ordering by name', async () => {
    const user = await t.createUser();
    const b = await create({ name: 'Beta splash' }, user);
    const a = await create({ name: 'Alpha splash', title: 'A' }, user);
    await create({ name: 'Gamma' }, user);
    await create({ name: 'Alpha of another user' });
    const res = await t.http
      .get('/v1/splash-pages/?search=splash&search_by=name&order_by=name&order_type=ASC')
      .set('Authorization', user.auth);
    expect(res.status).toBe(200);
    const items = (res.body as { data: unknown[] }).data;
    expect(items).toEqual([(await get(a, user)).body.data, (await get(b, user)).body.data]);
    expect(res.body).toMatchObject({ meta: { page: 1, total_results: 2 } });

    const bad = await t.http.get('/v1/splash-pages?order_by=color').set('Authorization', user.auth);
    expect(bad.status).toBe(400);
    expect(bad.body).toEqual({
      errors: [
        {
          status: 400,
          title: expect.stringContaining('splash_page_id, datetime, last_datetime, name'),
          field: 'order_by',
          code: 'invalid_list_parameter',
        },
      ],
    });
  });

  it.each([
    ['a missing name', {}, 'name', 'name is required.'],
    [
      'a long name',
      { name: 'x'.repeat(65) },
      'name',
      'name must be shorter than or equal to 64 characters.',
    ],
    [
      'a long title',
      { title: 'x'.repeat(257) },
      'title',
      'title must be shorter than or equal to 256 characters.',
    ],
    [
      'a long description',
      { description: 'x'.repeat(2049) },
      'description',
      'description must be shorter than or equal to 2048 characters.',
    ],
    [
      'a long button name',
      { secondary_button_name: 'x'.repeat(257) },
      'secondary_button_name',
      'secondary_button_name must be shorter than or equal to 256 characters.',
    ],
    [
      'a javascript: button URL',
      { secondary_button_url: 'javascript:alert(1)' },
      'secondary_button_url',
      'secondary_button_url must be an http:// or https:// URL with a host, at most 1024 characters.',
    ],
    [
      'a data: button URL',
      { secondary_button_url: 'data:text/html,hi' },
      'secondary_button_url',
      'secondary_button_url must be an http:// or https:// URL with a host, at most 1024 characters.',
    ],
    [
      'a long button URL',
      { secondary_button_url: `https://e.com/${'x'.repeat(1011)}` },
      'secondary_button_url',
      'secondary_button_url must be an http:// or https:// URL with a host, at most 1024 characters.',
    ],
    [
      'long custom CSS',
      { custom_css: 'x'.repeat(10_001) },
      'custom_css',
      'custom_css must be shorter than or equal to 10000 characters.',
    ],
    [
      'long custom JS',
      { custom_js: 'x'.repeat(10_001) },
      'custom_js',
      'custom_js must be shorter than or equal to 10000 characters.',
    ],
    [
      'a long ads header',
      { ads_header: 'x'.repeat(10_001) },
      'ads_header',
      'ads_header must be shorter than or equal to 10000 characters.',
    ],
    [
      'a long ads footer',
      { ads_footer: 'x'.repeat(10_001) },
      'ads_footer',
      'ads_footer must be shorter than or equal to 10000 characters.',
    ],
    [
      '601 unlock seconds',
      { link_unlock_seconds: '601' },
      'link_unlock_seconds',
      'link_unlock_seconds must be a whole number from 0 to 600.',
    ],
    [
      'negative unlock seconds',
      { link_unlock_seconds: '-1' },
      'link_unlock_seconds',
      'link_unlock_seconds must be a whole number from 0 to 600.',
    ],
    [
      'fractional unlock seconds',
      { link_unlock_seconds: '1.5' },
      'link_unlock_seconds',
      'link_unlock_seconds must be a whole number from 0 to 600.',
    ],
    [
      'text unlock seconds',
      { link_unlock_seconds: 'soon' },
      'link_unlock_seconds',
      'link_unlock_seconds must be a whole number from 0 to 600.',
    ],
    ['auto_redirect 2', { auto_redirect: '2' }, 'auto_redirect', 'auto_redirect must be 0 or 1.'],
    ['a colour name', { color: 'red' }, 'color', 'color must be a colour as #rrggbb.'],
    ['a short colour', { color: '#fff' }, 'color', 'color must be a colour as #rrggbb.'],
  ])('refuses %s with 400 naming the field', async (_case, fields, field, title) => {
    const body = field === 'name' ? fields : { name: 'ok', ...fields };
    const res = await t.http.post('/v1/splash-pages').set('Authorization', owner.auth).send(body);
    expect(res.status).toBe(400);
    expect(res.body).toEqual({
      errors: [{ status: 400, title, field, code: 'validation_failed' }],
    });
  });

  it('refuses a file that is not an image, writing nothing, and keeps the stored images on update', async () => {
    const before = files();
    const res = await t.http
      .post('/v1/splash-pages')
      .set('Authorization', owner.auth)
      .field({ name: 'Bad image' })
      .attach('logo', png, 'logo.png')
      .attach('opengraph', Buffer.from('<html>not an image</html>'), 'og.png');
    expect(res.status).toBe(400);
    expect(res.body).toEqual({
      errors: [
        {
          status: 400,
          title: 'opengraph must be a PNG, JPEG, WebP, GIF or SVG image.',
          field: 'opengraph',
          code: 'validation_failed',
        },
      ],
    });
    expect(files()).toEqual(before);

    const created = await t.http
      .post('/v1/splash-pages')
      .set('Authorization', owner.auth)
      .field({ name: 'Keeps' })
      .attach('logo', png, 'logo.png');
    const id = (created.body as IdBody).data.id;
    const stored = files();
    const update = await t.http
      .post(`/v1/splash-pages/${id}`)
      .set('Authorization', owner.auth)
      .field({ name: 'Renamed' })
      .attach('favicon', png, 'favicon.png')
      .attach('logo', Buffer.from('GIF89a broken'), 'logo.gif');
    expect(update.status).toBe(400);
    expect(files()).toEqual(stored);
    expect(((await get(id)).body as { data: { name: string } }).data.name).toBe('Keeps');

    const big = await t.http
      .post('/v1/splash-pages')
      .set('Authorization', owner.auth)
      .field({ name: 'Big' })
      .attach('favicon', Buffer.alloc(2 * 1024 * 1024 + 1, 1), 'big.png');
    expect(big.status).toBe(413);
    expect(big.body).toEqual({
      errors: [
        {
          status: 413,
          title: 'favicon must be at most 2 MB.',
          field: 'favicon',
          code: 'payload_too_large',
        },
      ],
    });
    expect(files()).toEqual(stored);
  });

  it("answers 404 for another user's page on read, update and delete, and changes nothing", async () => {
    const id = await create({ name: 'Private' });
    expect((await get(id, stranger)).body).toEqual(NOT_FOUND);
    const update = await t.http
      .post(`/v1/splash-pages/${id}`)
      .set('Authorization', stranger.auth)
      .send({ name: 'Stolen' });
    expect(update.status).toBe(404);
    expect(update.body).toEqual(NOT_FOUND);
    const del = await t.http.delete(`/v1/splash-pages/${id}`).set('Authorization', stranger.auth);
    expect(del.status).toBe(404);
    expect(del.body).toEqual(NOT_FOUND);
    expect(((await get(id)).body as { data: { name: string } }).data.name).toBe('Private');
    const none = await t.http.get('/v1/splash-pages').set('Authorization', stranger.auth);
    expect((none.body as { data: unknown[] }).data).toEqual([]);
  });

  it('answers 401 without an API key', async () => {
    const res = await t.http.get('/v1/splash-pages');
    expect(res.status).toBe(401);
  });

  it('lets links of every type take an own splash page, and refuses a foreign one', async () => {
    const mine = await create({ name: 'Mine' });
    const theirs = await create({ name: 'Theirs' }, stranger);
    const link = await createLink({ location_url: 'https://example.com/', splash_page_id: mine });
    expect((await linkOf(link)).data.splash_page_id).toBe(mine);
    const chat = await createLink({
      type: 'walink',
      phone_number: '15551234567',
      splash_page_id: mine,
    });
    expect((await linkOf(chat)).data.splash_page_id).toBe(mine);

    const refused = await t.http
      .post('/v1/links')
      .set('Authorization', owner.auth)
      .send({ location_url: 'https://example.com/', splash_page_id: theirs });
    expect(refused.status).toBe(400);
    expect(refused.body).toEqual({
      errors: [
        {
          status: 400,
          title: 'splash_page_id is not one of your splash pages.',
          field: 'splash_page_id',
          code: 'invalid_reference',
        },
      ],
    });
    const update = await t.http
      .post(`/v1/links/${link}`)
      .set('Authorization', owner.auth)
      .send({ splash_page_id: theirs });
    expect(update.status).toBe(400);
    expect((await linkOf(link)).data.splash_page_id).toBe(mine);

    const detach = await t.http
      .post(`/v1/links/${link}`)
      .set('Authorization', owner.auth)
      .send({ splash_page_id: '' });
    expect(detach.status).toBe(200);
    expect((await linkOf(link)).data.splash_page_id).toBeNull();
  });

  it('shows the splash page with escaped values, a nonce CSP and the destination, counting one visit', async () => {
    const page = await create({
      name: 'Escaped',
      title: '</title><script>alert(1)</script>',
      description: '<img src=x onerror=alert(2)>',
      link_unlock_seconds: 3,
    });
    const link = await createLink({
      location_url: 'https://example.com/dest?a=1&b=2',
      url: 'splash-escaped',
      splash_page_id: page,
    });
    const res = await visit('/splash-escaped');
    expect(res.status).toBe(200);
    const nonce = /<script nonce="([^"]+)">/.exec(res.text)?.[1] ?? '';
    expect(nonce).toMatch(/^[A-Za-z0-9+/]{22}==$/);
    expect(res.headers).toMatchObject({
      'content-type': 'text/html; charset=utf-8',
      'cache-control': 'no-store',
      'content-security-policy': STRICT_CSP(nonce),
      'x-content-type-options': 'nosniff',
      'referrer-policy': 'no-referrer',
    });
    expect(res.text).toContain(
      '<title>&lt;/title&gt;&lt;script&gt;alert(1)&lt;/script&gt;</title>',
    );
    expect(res.text).toContain('<p class="description">&lt;img src=x onerror=alert(2)&gt;</p>');
    expect(res.text).not.toContain('<img src=x');
    expect(res.text).toContain(
      '<a id="continue" class="button" href="https://example.com/dest?a=1&amp;b=2" rel="noopener noreferrer" data-seconds="3" data-auto="0">Continue</a>',
    );
    expect(res.text.match(/<script/g)).toHaveLength(1);
    const head = await t.http.head('/splash-escaped').set('User-Agent', CHROME);
    expect(head.status).toBe(200);
    await t.app.get(VisitRecorder).flush();
    expect((await linkOf(link)).data.clicks).toBe(1);
  });

  it('allows inline and https scripts only on a page that has custom JS or ads, which it outputs raw', async () => {
    const page = await create({
      name: 'Scripted',
      custom_js: 'var x = "</script><b>";',
      custom_css: 'p{color:red}</style><b>',
      ads_footer: '<div id="ad">Ad</div>',
    });
    await createLink({
      location_url: 'https://example.com/',
      url: 'splash-js',
      splash_page_id: page,
    });
    const res = await visit('/splash-js');
    expect(res.headers['content-security-policy']).toBe(
      `default-src 'none'; script-src 'unsafe-inline' https:; style-src 'unsafe-inline' https:; img-src http://links.test data: https:; font-src https: data:; connect-src https:; frame-src https:; media-src https:; base-uri 'none'; form-action 'none'; frame-ancestors 'none'; ${SANDBOX}`,
    );
    expect(res.text).toContain('<script>var x = "<\\/script><b>";</script>');
    expect(res.text).toContain('<style>p{color:red}<\\/style><b></style>');
    expect(res.text).toContain('<div class="ads ads-footer"><div id="ad">Ad</div></div>');
  });

  it('lets custom CSS alone import https stylesheets and fonts, without opening scripts', async () => {
    const page = await create({
      name: 'Fonts',
      custom_css: "@import url('https://fonts.googleapis.com/css2?family=Inter');",
    });
    await createLink({
      location_url: 'https://example.com/',
      url: 'splash-css',
      splash_page_id: page,
    });
    const res = await visit('/splash-css');
    const nonce = /<script nonce="([^"]+)">/.exec(res.text)?.[1] ?? '';
    expect(res.headers['content-security-policy']).toBe(
      `default-src 'none'; script-src 'nonce-${nonce}'; style-src 'unsafe-inline' https:; img-src http://links.test data: https:; font-src https: data:; base-uri 'none'; form-action 'none'; frame-ancestors 'none'; ${SANDBOX}`,
    );
  });

  it('paints the continue button in the page colour', async () => {
    const page = await create({ name: 'Green', color: '#0a7f3f' });
    await createLink({
      location_url: 'https://example.com/',
      url: 'splash-green',
      splash_page_id: page,
    });
    expect((await visit('/splash-green')).text).toContain(
      '<style>.button{background:#0a7f3f;color:#fff}</style>',
    );
  });

  it('refuses a URL a browser would read relative to the page, and stores the others as it resolves them', async () => {
    for (const url of ['https:evil.example', 'https:/evil.example']) {
      const res = await t.http
        .post('/v1/splash-pages')
        .set('Authorization', owner.auth)
        .send({ name: 'Relative', secondary_button_url: url });
      expect([url, res.status, res.body]).toEqual([
        url,
        400,
        {
          errors: [
            {
              status: 400,
              title:
                'secondary_button_url must be an http:// or https:// URL with a host, at most 1024 characters.',
              field: 'secondary_button_url',
              code: 'validation_failed',
            },
          ],
        },
      ]);
    }
    const id = await create({ name: 'Normalised', secondary_button_url: 'https://evil.example' });
    const settings = async () =>
      ((await get(id)).body as { data: { settings: { secondary_button_url: string } } }).data
        .settings.secondary_button_url;
    expect(await settings()).toBe('https://evil.example/');
    const update = await t.http
      .post(`/v1/splash-pages/${id}`)
      .set('Authorization', owner.auth)
      .send({ secondary_button_url: ' HTTPS://Shop.Example.COM:443/a/../b?q=1 ' });
    expect(update.status).toBe(200);
    expect(await settings()).toBe('https://shop.example.com/b?q=1');
    await createLink({
      location_url: 'https://example.com/',
      url: 'splash-normalised',
      splash_page_id: id,
    });
    expect((await visit('/splash-normalised')).text).toContain(
      'href="https://shop.example.com/b?q=1"',
    );
  });

  it('describes the image uploads in the OpenAPI document', async () => {
    const doc = (await t.http.get('/v1/openapi.json')).body as {
      paths: Record<
        string,
        Record<string, { requestBody: { content: Record<string, { schema: { $ref: string } }> } }>
      >;
      components: { schemas: Record<string, { properties: Record<string, unknown> }> };
    };
    for (const path of ['/v1/splash-pages', '/v1/splash-pages/{id}']) {
      const ref = doc.paths[path].post.requestBody.content['multipart/form-data'].schema.$ref;
      const properties = doc.components.schemas[ref.split('/').pop() as string].properties;
      for (const field of ['logo', 'favicon', 'opengraph']) {
        expect([path, field, properties[field]]).toEqual([
          path,
          field,
          expect.objectContaining({ type: 'string', format: 'binary' }),
        ]);
      }
      expect(properties.color).toEqual(
        expect.objectContaining({ type: 'string', pattern: '^#[0-9a-fA-F]{6}$' }),
      );
    }
  });

  it('answers 404 to an update whose page is deleted while its images are written, keeping no file and no row', async () => {
    const created = await t.http
      .post('/v1/splash-pages')
      .set('Authorization', owner.auth)
      .field({ name: 'Racing' })
      .attach('logo', png, 'logo.png');
    const id = (created.body as IdBody).data.id;
    const logo = ((await get(id)).body as { data: { settings: { logo: string } } }).data.settings
      .logo;
    const before = files();
    const splashFiles = t.app.get(SplashFiles);
    const write = splashFiles.write.bind(splashFiles);
    const spy = jest.spyOn(splashFiles, 'write').mockImplementationOnce(async (content) => {
      const del = await t.http.delete(`/v1/splash-pages/${id}`).set('Authorization', owner.auth);
      expect(del.status).toBe(200);
      return write(content);
    });
    try {
      const res = await t.http
        .post(`/v1/splash-pages/${id}`)
        .set('Authorization', owner.auth)
        .field({ title: 'Back from the dead' })
        .attach('favicon', png, 'favicon.png');
      expect(res.status).toBe(404);
      expect(res.body).toEqual(NOT_FOUND);
    } finally {
      spy.mockRestore();
    }
    expect(await t.dataSource.query(`SELECT id FROM splash_pages WHERE id = ${id}`)).toEqual([]);
    expect(files()).toEqual(before.filter((f) => f !== logo.split('/').pop()));
  });

  it('keeps both of two overlapping updates and exactly the images the page shows', async () => {
    const created = await t.http
      .post('/v1/splash-pages')
      .set('Authorization', owner.auth)
      .field({ name: 'Overlap' })
      .attach('logo', png, 'logo.png');
    const id = (created.body as IdBody).data.id;
    type Page = {
      data: { title: string | null; description: string | null; settings: { logo: string } };
    };
    const first = ((await get(id)).body as Page).data.settings.logo.split('/').pop() as string;
    const before = files();
    const splashFiles = t.app.get(SplashFiles);
    const write = splashFiles.write.bind(splashFiles);
    // The first update's image is written while a second update runs from start to end.
    const spy = jest.spyOn(splashFiles, 'write').mockImplementationOnce(async (content) => {
      const second = await t.http
        .post(`/v1/splash-pages/${id}`)
        .set('Authorization', owner.auth)
        .field({ title: 'Second' })
        .attach('logo', png, 'logo.png');
      expect(second.status).toBe(200);
      return write(content);
    });
    try {
      const res = await t.http
        .post(`/v1/splash-pages/${id}`)
        .set('Authorization', owner.auth)
        .field({ description: 'First' })
        .attach('logo', png, 'logo.png');
      expect(res.status).toBe(200);
    } finally {
      spy.mockRestore();
    }
    const page = ((await get(id)).body as Page).data;
    const logo = page.settings.logo.split('/').pop() as string;
    expect([page.title, page.description]).toEqual(['Second', 'First']);
    expect(files()).toEqual([...before.filter((f) => f !== first), logo].sort());
  });

  it('keeps exactly the shown image when updates race each other', async () => {
    const created = await t.http
      .post('/v1/splash-pages')
      .set('Authorization', owner.auth)
      .field({ name: 'Crowded' })
      .attach('logo', png, 'logo.png');
    const id = (created.body as IdBody).data.id;
    const logoOf = async () =>
      ((await get(id)).body as { data: { settings: { logo: string } } }).data.settings.logo
        .split('/')
        .pop() as string;
    const first = await logoOf();
    const before = files();
    const updates = await Promise.all(
      [1, 2, 3, 4].map((n) =>
        t.http
          .post(`/v1/splash-pages/${id}`)
          .set('Authorization', owner.auth)
          .field({ title: `Update ${n}` })
          .attach('logo', png, 'logo.png'),
      ),
    );
    expect(updates.map((u) => u.status)).toEqual([200, 200, 200, 200]);
    expect(files()).toEqual([...before.filter((f) => f !== first), await logoOf()].sort());
  });

  it('gates in order: password, then sensitive content, then the splash page', async () => {
    const page = await create({ name: 'Gated', title: 'Splash after gates' });
    await createLink({
      location_url: 'https://example.com/',
      url: 'splash-gated',
      password: 'open sesame',
      sensitive_content: 1,
      splash_page_id: page,
    });
    const first = await visit('/splash-gated');
    expect(first.text).toContain('<h1>This link is protected</h1>');
    const unlock = await t.http
      .post('/splash-gated')
      .type('form')
      .send({ type: 'password', password: 'open sesame' })
      .redirects(0);
    expect(unlock.status).toBe(303);
    const pw = (unlock.headers['set-cookie'] as unknown as string[])[0].split(';')[0];
    const second = await visit('/splash-gated').set('Cookie', pw);
    expect(second.text).toContain('<h1>Sensitive content ahead</h1>');
    const confirm = await t.http
      .post('/splash-gated')
      .set('Cookie', pw)
      .type('form')
      .send({ type: 'sensitive_content' })
      .redirects(0);
    const sc = (confirm.headers['set-cookie'] as unknown as string[])[0].split(';')[0];
    const third = await visit('/splash-gated').set('Cookie', `${pw}; ${sc}`);
    expect(third.status).toBe(200);
    expect(third.text).toContain('<h1>Splash after gates</h1>');
  });

  it('shows edits at once, and deleting the page detaches its links, which then redirect directly', async () => {
    const page = await create({ name: 'Doomed', title: 'First title' });
    const link = await createLink({
      location_url: 'https://example.com/direct',
      url: 'splash-doomed',
      splash_page_id: page,
    });
    expect((await visit('/splash-doomed')).text).toContain('<h1>First title</h1>');
    await t.http
      .post(`/v1/splash-pages/${page}`)
      .set('Authorization', owner.auth)
      .send({ title: 'Second title' });
    expect((await visit('/splash-doomed')).text).toContain('<h1>Second title</h1>');

    const del = await t.http.delete(`/v1/splash-pages/${page}`).set('Authorization', owner.auth);
    expect(del.status).toBe(200);
    expect((await linkOf(link)).data.splash_page_id).toBeNull();
    const direct = await visit('/splash-doomed');
    expect(direct.status).toBe(302);
    expect(direct.headers.location).toBe('https://example.com/direct');
  });
});
