import { createTestApp, TestApp, TestUser } from '@app/testing';
import { VisitorCache } from '../apps/api/src/visitor/cache/visitor-cache.service';
import type { VisitorLink } from '../apps/api/src/visitor/cache/visitor-link';

const CHROME =
  'Mozilla/5.0 (Windows NT 10.0; Win64; x64) AppleWebKit/537.36 (KHTML, like Gecko) Chrome/131.0.0.0 Safari/537.36';
const URL_TITLE = (field: string) =>
  `${field} must be an http:// or https:// URL with a host, at most 2048 characters.`;

/**
 * Values that once stopped the whole process on a visitor's first visit (issue 14): the API
 * refuses or normalises them, rows stored before it did are served safely, and a fault inside the
 * edge's asynchronous steps is a 503, never an exit.
 */
describe('Hostile values', () => {
  let t: TestApp;
  let owner: TestUser;

  beforeAll(async () => {
    t = await createTestApp();
    owner = await t.createUser();
  });
  afterAll(() => t?.close());

  const post = (path: string, body: Record<string, unknown>) =>
    t.http.post(path).set('Authorization', owner.auth).send(body);
  const visit = (path: string) => t.http.get(path).set('User-Agent', CHROME).redirects(0);

  async function createLink(fields: Record<string, unknown>): Promise<number> {
    const res = await post('/v1/links', fields);
    expect(res.status).toBe(201);
    return (res.body as { data: { id: number } }).data.id;
  }

  async function linkOf(id: number): Promise<Record<string, unknown>> {
    const res = await t.http.get(`/v1/links/${id}`).set('Authorization', owner.auth);
    expect(res.status).toBe(200);
    return (res.body as { data: Record<string, unknown> }).data;
  }

  async function expectAlive(): Promise<void> {
    expect((await t.http.get('/health')).status).toBe(200);
  }

  describe('at the API', () => {
    it.each([
      [
        'http_status_code null',
        { location_url: 'https://example.com/', http_status_code: null },
        'http_status_code must be one of 301, 302, 307, 308.',
        'http_status_code',
      ],
      [
        'CR LF in the destination',
        { location_url: 'https://example.com/a\r\nSet-Cookie: x=1' },
        URL_TITLE('location_url'),
        'location_url',
      ],
      [
        'a tab in the destination',
        { location_url: 'https://exa\tmple.com/' },
        URL_TITLE('location_url'),
        'location_url',
      ],
      [
        'a lone surrogate in utm_source',
        { location_url: 'https://example.com/', utm_source: '\ud800x' },
        'utm_source is not well-formed Unicode text (it has a lone surrogate).',
        'utm_source',
      ],
      [
        'a lone surrogate in an expiration URL',
        {
          location_url: 'https://example.com/',
          clicks_limit: 1,
          expiration_url: 'https://e.com/\udc00',
        },
        'expiration_url is not well-formed Unicode text (it has a lone surrogate).',
        'expiration_url',
      ],
    ])('refuses %s with a 400 naming the field', async (_name, body, title, field) => {
      const res = await post('/v1/links', body);
      expect(res.status).toBe(400);
      expect(res.body).toEqual({
        errors: [{ status: 400, title, field, code: 'validation_failed' }],
      });
    });

    it.each([
      ['an emoji in the path', 'https://example.com/😀', 'https://example.com/%F0%9F%98%80'],
      ['a fullwidth dot in the host', 'https://example。com/', 'https://example.com/'],
      [
        'an IDN host, non-ASCII path and query',
        'https://bücher.example/straße?q=ä b#Ü',
        'https://xn--bcher-kva.example/stra%C3%9Fe?q=%C3%A4%20b#%C3%9C',
      ],
      ['an emoji host', 'http://😀.example/', 'http://xn--e28h.example/'],
      [
        'upper case, a default port and dot segments',
        'HTTPS://Shop.Example:443/a/../b',
        'https://shop.example/b',
      ],
    ])('stores %s as the ASCII URL a browser resolves', async (_name, input, stored) => {
      const id = await createLink({ location_url: input });
      expect((await linkOf(id)).location_url).toBe(stored);
    });

    it('normalises rotation targets and the expiration URL the same way', async () => {
      const id = await createLink({
        location_url: 'https://example.com/',
        targeting_type: 'rotation',
        targeting_rotation_key: ['1'],
        targeting_rotation_value: ['https://example.com/😀'],
        clicks_limit: 5,
        expiration_url: 'https://example。com/over',
      });
      const settings = (await linkOf(id)).settings as Record<string, unknown>;
      expect(settings.targeting_rotation).toEqual([
        { key: '1', value: 'https://example.com/%F0%9F%98%80' },
      ]);
      expect(settings.expiration_url).toBe('https://example.com/over');
    });

    it('reads JSON null as the empty value on update: refused, kept or cleared, never stored', async () => {
      const id = await createLink({
        location_url: 'https://example.com/',
        url: 'null-update',
        http_status_code: 301,
        password: 'secret',
      });
      const refused = await post(`/v1/links/${id}`, { http_status_code: null });
      expect(refused.status).toBe(400);
      expect(refused.body).toEqual({
        errors: [
          {
            status: 400,
            title: 'http_status_code must be one of 301, 302, 307, 308.',
            field: 'http_status_code',
            code: 'validation_failed',
          },
        ],
      });
      // An empty alias keeps the alias; an empty password removes the password.
      const kept = await post(`/v1/links/${id}`, { url: null, password: null });
      expect(kept.status).toBe(200);
      const link = await linkOf(id);
      expect(link.url).toBe('null-update');
      expect((link.settings as Record<string, unknown>).http_status_code).toBe(301);
      expect((link.settings as Record<string, unknown>).password).toBe(false);
      const res = await visit('/null-update');
      expect(res.status).toBe(301);
      expect(res.headers.location).toBe('https://example.com/');
    });
  });

  describe('every URL field of every resource', () => {
    // What Node's WHATWG URL parser (Ada) writes for the typed value: punycode host, UTF-8
    // percent-encoded path and query.
    const TYPED = 'https://bücher.example/straße?q=ä b';
    const STORED = 'https://xn--bcher-kva.example/stra%C3%9Fe?q=%C3%A4%20b';

    async function read(path: string): Promise<Record<string, unknown>> {
      const res = await t.http.get(path).set('Authorization', owner.auth);
      expect(res.status).toBe(200);
      return (res.body as { data: Record<string, unknown> }).data;
    }

    it('stores a splash page button URL as ASCII', async () => {
      const res = await post('/v1/splash-pages', { name: 'IDN', secondary_button_url: TYPED });
      expect(res.status).toBe(201);
      const page = await read(`/v1/splash-pages/${(res.body as { data: { id: number } }).data.id}`);
      expect((page.settings as Record<string, unknown>).secondary_button_url).toBe(STORED);
    });

    it('stores signature URLs as ASCII', async () => {
      const res = await post('/v1/signatures', {
        name: 'IDN',
        website_url: TYPED,
        address_url: 'https://example。com/map',
      });
      expect(res.status).toBe(201);
      const signature = await read(
        `/v1/signatures/${(res.body as { data: { id: number } }).data.id}`,
      );
      expect(signature.settings).toMatchObject({
        website_url: STORED,
        address_url: 'https://example.com/map',
      });
    });

    it('stores a QR code url as ASCII (other text as it is)', async () => {
      const res = await post('/v1/qr-codes', { name: 'IDN', type: 'url', url: TYPED });
      expect(res.status).toBe(201);
      const qr = await read(`/v1/qr-codes/${(res.body as { data: { id: number } }).data.id}`);
      expect((qr.settings as Record<string, unknown>).url).toBe(STORED);
    });

    it('stores a bio page link block URL as ASCII', async () => {
      const bio = await createLink({ type: 'biolink', url: 'idn-bio' });
      const res = await post('/v1/biolink-blocks', {
        link_id: bio,
        type: 'link',
        name: 'Shop',
        location_url: TYPED,
      });
      expect(res.status).toBe(201);
      const block = await read(
        `/v1/biolink-blocks/${(res.body as { data: { id: number } }).data.id}`,
      );
      expect((block.settings as Record<string, unknown>).location_url).toBe(STORED);
    });

    it('stores a webhook URL as ASCII (shown masked: its origin and last four characters)', async () => {
      const res = await post('/v1/notification-handlers', {
        name: 'IDN',
        type: 'webhook',
        webhook: 'https://bücher.example/hooké',
      });
      expect(res.status).toBe(201);
      const handler = await read(
        `/v1/notification-handlers/${(res.body as { data: { id: number } }).data.id}`,
      );
      // The stored value ends in `%C3%A9`; as typed it would end in `ooké`.
      expect((handler.settings as Record<string, unknown>).webhook).toBe(
        'https://xn--bcher-kva.example/****3%A9',
      );
    });
  });

  describe('stored before the API refused them', () => {
    /** Writes a row as an older version could have, bypassing the API's checks. */
    async function storeRaw(
      id: number,
      location: string | null,
      settings: Record<string, unknown>,
    ): Promise<void> {
      const row = await t.dataSource.query<Array<{ settings: string }>>(
        `SELECT settings FROM links WHERE id = ${Number(id)}`,
      );
      const merged = JSON.stringify({ ...JSON.parse(row[0].settings), ...settings });
      const pg = t.dataSource.options.type === 'postgres';
      await t.dataSource.query(
        pg
          ? 'UPDATE links SET location_url = $1, settings = $2 WHERE id = $3'
          : 'UPDATE links SET location_url = ?, settings = ? WHERE id = ?',
        [location, merged, id],
      );
    }

    it.each([
      [
        'a null status code',
        'https://example.com/',
        { http_status_code: null },
        302,
        'https://example.com/',
      ],
      [
        'an emoji in the destination',
        'https://example.com/😀',
        {},
        302,
        'https://example.com/%F0%9F%98%80',
      ],
      ['a fullwidth dot', 'https://example。com/', {}, 302, 'https://example.com/'],
      ['CR LF in the destination', 'https://example.com/\r\nX-Evil: 1', {}, 404, undefined],
      [
        'an emoji rotation target',
        'https://example.com/',
        { targeting_type: 'rotation', targeting: [{ key: '1', value: 'https://example.com/ü' }] },
        302,
        'https://example.com/%C3%BC',
      ],
      [
        'a lone surrogate in utm_source',
        'https://example.com/',
        { utm: { source: '\ud800x', medium: null, campaign: null } },
        302,
        'https://example.com/?utm_source=%EF%BF%BDx',
      ],
      [
        'an emoji expiration URL past the click limit',
        'https://example.com/',
        { clicks_limit: 0, expiration_url: 'https://example.com/😀' },
        302,
        'https://example.com/%F0%9F%98%80',
      ],
    ])('serves a row with %s safely', async (name, location, settings, status, expected) => {
      const alias = `raw-${name.replace(/[^a-z]+/g, '-').slice(0, 40)}`;
      const id = await createLink({ location_url: 'https://example.com/', url: alias });
      await storeRaw(id, location, settings);
      const res = await visit(`/${alias}`);
      expect(res.status).toBe(status);
      expect(res.headers.location).toBe(expected);
      await expectAlive();
    });
  });

  it('answers 503 when a step after an asynchronous load throws, and keeps serving', async () => {
    const id = await createLink({ location_url: 'https://example.com/', url: 'throws-late' });
    const cache = t.app.get(VisitorCache);
    const real = await cache.loadLink(0, 'throws-late');
    expect(real?.id).toBe(id);
    // A compiled link the edge cannot write (a status line that throws), delivered by the
    // asynchronous path: the throw happens inside the load's continuation.
    const broken = { ...real, statusCode: 1000 } as unknown as VisitorLink;
    const peek = jest.spyOn(cache, 'peekLink').mockReturnValue(undefined);
    const load = jest.spyOn(cache, 'loadLink').mockResolvedValue(broken);
    try {
      const res = await visit('/throws-late');
      expect(res.status).toBe(503);
      expect(res.headers['retry-after']).toBe('5');
      expect(res.text).toBe('Temporarily unavailable, try again in a moment.\n');
    } finally {
      peek.mockRestore();
      load.mockRestore();
    }
    await expectAlive();
    expect((await visit('/throws-late')).status).toBe(302);
  });
});
