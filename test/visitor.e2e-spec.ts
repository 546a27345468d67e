import { EventEmitter2 } from '@nestjs/event-emitter';
import {
  LIMITED_LINKS_WRITTEN,
  type LimitedLinksWrittenEvent,
  type LinkAddress,
  VisitRecorder,
} from '@app/analytics';
import {
  closeAfterAll,
  createTestApp,
  createTestDatabase,
  currentTestDb,
  insertDomain,
  TestApp,
  TestDatabase,
  TestUser,
} from '@app/testing';
import { VisitorListener } from '../apps/api/src/visitor/visitor-listener';

const CHROME =
  'Mozilla/5.0 (Windows NT 10.0; Win64; x64) AppleWebKit/537.36 (KHTML, like Gecko) Chrome/131.0.0.0 Safari/537.36';
const IPHONE =
  'Mozilla/5.0 (iPhone; CPU iPhone OS 17_0 like Mac OS X) AppleWebKit/605.1.15 (KHTML, like Gecko) Version/17.0 Mobile/15E148 Safari/604.1';
const SLACKBOT = 'Slackbot-LinkExpanding 1.0 (+https://api.slack.com/robots)';

interface VisitRow {
  link_id: number;
  referrer_host: string | null;
  referrer_path: string | null;
  utm_source: string | null;
  utm_medium: string | null;
  utm_campaign: string | null;
  continent_code: string | null;
  country_code: string | null;
  city_name: string | null;
  os_name: string | null;
  browser_name: string | null;
  device_type: string | null;
  browser_language: string | null;
  is_unique: boolean | number;
  visitor_hash: string;
}

describe('Visitor edge', () => {
  let t: TestApp;
  let owner: TestUser;

  beforeAll(async () => {
    // 127.0.0.1 (supertest's peer) is a trusted proxy here, so tests can choose the visitor's IP.
    t = await createTestApp({ env: { TRUSTED_PROXIES: '127.0.0.1,::1' } });
    owner = await t.createUser();
  });
  afterAll(() => t?.close());

  async function createLink(fields: Record<string, unknown>): Promise<number> {
    const res = await t.http.post('/v1/links').set('Authorization', owner.auth).send(fields);
    expect(res.status).toBe(201);
    return (res.body as { data: { id: number } }).data.id;
  }

  async function update(id: number, fields: Record<string, unknown>): Promise<void> {
    const res = await t.http.post(`/v1/links/${id}`).set('Authorization', owner.auth).send(fields);
    expect(res.status).toBe(200);
  }

  function visit(path: string, ua = CHROME) {
    return t.http.get(path).set('User-Agent', ua).redirects(0);
  }

  async function visitsOf(linkId: number): Promise<VisitRow[]> {
    await t.app.get(VisitRecorder).flush();
    return t.dataSource.query<VisitRow[]>(
      `SELECT * FROM visits WHERE link_id = ${Number(linkId)} ORDER BY id`,
    );
  }

  async function clicksOf(linkId: number): Promise<number> {
    const res = await t.http.get(`/v1/links/${linkId}`).set('Authorization', owner.auth);
    return (res.body as { data: { clicks: number } }).data.clicks;
  }

  it('redirects with the link status code, UTM values and a cache header, and counts the visit', async () => {
    const id = await createLink({
      location_url: 'https://example.com/page?x=1',
      url: 'edge-basic',
      utm_source: 'news letter',
      utm_campaign: 'fall',
    });
    const res = await visit('/edge-basic');
    expect(res.status).toBe(302);
    expect(res.headers.location).toBe(
      'https://example.com/page?x=1&utm_source=news%20letter&utm_campaign=fall',
    );
    expect(res.headers['cache-control']).toBe('no-store');
    expect(await visitsOf(id)).toHaveLength(1);
    expect(await clicksOf(id)).toBe(1);

    await update(id, { http_status_code: 301 });
    const permanent = await visit('/edge-basic');
    expect(permanent.status).toBe(301);
    expect(permanent.headers['cache-control']).toBe('private, max-age=90');
  });

  it('forwards the query string only when asked to', async () => {
    await createLink({ location_url: 'https://example.com/a', url: 'edge-noforward' });
    await createLink({
      location_url: 'https://example.com/b?keep=1',
      url: 'edge-forward',
      forward_query_parameters_is_enabled: 1,
    });
    expect((await visit('/edge-noforward?q=1')).headers.location).toBe('https://example.com/a');
    expect((await visit('/edge-forward?q=1&r=two')).headers.location).toBe(
      'https://example.com/b?keep=1&q=1&r=two',
    );
  });

  it.each([
    // Forwarded and UTM parameters go into the query, before the fragment (read back by the URL
    // parser a browser uses): a hash route keeps its own `?`, a lone `?` gets no empty pair.
    [
      'https://example.com/path?x=1#section-2',
      'https://example.com/path?x=1&ref=tw&utm_source=qr#section-2',
    ],
    [
      'https://example.com/app#/route?tab=1',
      'https://example.com/app?ref=tw&utm_source=qr#/route?tab=1',
    ],
    ['https://example.com/x?', 'https://example.com/x?ref=tw&utm_source=qr'],
    [
      'https://example.com/s?sig=a%2Fb~c%20d',
      'https://example.com/s?sig=a%2Fb~c%20d&ref=tw&utm_source=qr',
    ],
  ])('forwards the query of %s into its query, before the fragment', async (location, expected) => {
    const alias = `edge-frag-${Buffer.from(location).toString('hex').slice(-12)}`;
    await createLink({
      location_url: location,
      url: alias,
      forward_query_parameters_is_enabled: 1,
    });
    // The UTM parameter is the visitor's here: the link itself has none.
    const location1 = (await visit(`/${alias}?ref=tw&utm_source=qr`)).headers.location;
    expect(location1).toBe(expected);
    const read = new URL(location1);
    expect(read.searchParams.get('ref')).toBe('tw');
    expect(read.hash).toBe(new URL(location).hash);
  });

  it('sends a splash page continue link built the same way', async () => {
    const page = await t.http
      .post('/v1/splash-pages')
      .set('Authorization', owner.auth)
      .send({ name: 'Frag', title: 'Frag' });
    expect(page.status).toBe(201);
    await createLink({
      location_url: 'https://example.com/app#/route?tab=1',
      url: 'edge-frag-splash',
      forward_query_parameters_is_enabled: 1,
      utm_medium: 'qr',
      splash_page_id: (page.body as { data: { id: number } }).data.id,
    });
    const res = await visit('/edge-frag-splash?ref=tw');
    expect(res.status).toBe(200);
    expect(res.text).toContain(
      'href="https://example.com/app?utm_medium=qr&amp;ref=tw#/route?tab=1"',
    );
  });

  it('sends a plain ASCII Location for a non-ASCII destination stored before URLs were normalised', async () => {
    const id = await createLink({ location_url: 'https://example.com/', url: 'edge-legacy-idn' });
    await t.dataSource.query(
      `UPDATE links SET location_url = 'https://bücher.example/straße?q=ä b#ü' WHERE id = ${id}`,
    );
    const res = await visit('/edge-legacy-idn');
    expect(res.status).toBe(302);
    expect(res.headers.location).toBe(
      'https://xn--bcher-kva.example/stra%C3%9Fe?q=%C3%A4%20b#%C3%BC',
    );
  });

  it('goes disabled → 404 page → enabled → redirect, and unknown aliases are a 404 page', async () => {
    const id = await createLink({ location_url: 'https://example.com/', url: 'edge-toggle' });
    expect((await visit('/edge-toggle')).status).toBe(302);
    await update(id, { is_enabled: 0 });
    const off = await visit('/edge-toggle');
    expect(off.status).toBe(404);
    expect(off.headers['content-type']).toBe('text/html; charset=utf-8');
    expect(off.headers['content-security-policy']).toContain("default-src 'none'");
    expect(off.headers['x-request-id']).toMatch(/^[0-9a-f-]{36}$/);
    expect(off.text).toContain('<h1>Link not found</h1>');
    await update(id, { is_enabled: 1 });
    expect((await visit('/edge-toggle')).status).toBe(302);
    expect((await visit('/edge-never-made')).status).toBe(404);
    // Deleting drops it from the cache too.
    await t.http.delete(`/v1/links/${id}`).set('Authorization', owner.auth);
    expect((await visit('/edge-toggle')).status).toBe(404);
  });

  it('answers / on the main domain with a page that links to the docs, the OpenAPI document and /health', async () => {
    for (const host of ['links.test', '203.0.113.9']) {
      // Even a client that asks for JSON gets the page: `/` is a place for people, not the API.
      const root = await visit('/').set('Host', host).set('Accept', 'application/json');
      expect(root.status).toBe(200);
      expect(root.headers).toMatchObject({
        'content-type': 'text/html; charset=utf-8',
        'cache-control': 'no-store',
        'x-content-type-options': 'nosniff',
        'referrer-policy': 'no-referrer',
        'content-security-policy': expect.stringContaining("default-src 'none'"),
      });
      expect(root.text).toContain('<title>Linkdock</title>');
      const hrefs = [...root.text.matchAll(/<a [^>]*href="([^"]*)"/g)].map((m) => m[1]);
      expect(hrefs).toEqual(['/docs', '/v1/openapi.json', '/health']);
    }
    const head = await t.http.head('/').set('Host', 'links.test');
    expect([head.status, head.headers['content-type'], head.text]).toEqual([
      200,
      'text/html; charset=utf-8',
      undefined,
    ]);
    // A post to it is still the API's.
    const post = await t.http.post('/').set('Host', 'links.test');
    expect([post.status, post.body.errors[0].code]).toEqual([404, 'route_not_found']);
  });

  it('leaves reserved and multi-segment paths to the API', async () => {
    const health = await t.http.get('/health');
    expect(health.status).toBe(200);
    const api = await t.http.get('/v1/links/abc/def');
    expect(api.status).toBe(404);
    expect(api.body.errors[0].code).toBe('route_not_found');
  });

  it('honours the schedule: 404 before the start, expiration_url after the end', async () => {
    await createLink({
      location_url: 'https://example.com/',
      url: 'edge-future',
      schedule: 1,
      start_date: '2099-01-01 00:00:00',
    });
    expect((await visit('/edge-future')).status).toBe(404);
    await createLink({
      location_url: 'https://example.com/',
      url: 'edge-past',
      schedule: 1,
      start_date: '2020-01-01 00:00:00',
      end_date: '2020-02-01 00:00:00',
      expiration_url: 'https://example.com/ended',
    });
    const past = await visit('/edge-past');
    expect([past.status, past.headers.location]).toEqual([302, 'https://example.com/ended']);
    await createLink({
      location_url: 'https://example.com/',
      url: 'edge-past-plain',
      schedule: 1,
      end_date: '2020-02-01 00:00:00',
    });
    expect((await visit('/edge-past-plain')).status).toBe(404);
  });

  it('sends visitors to expiration_url once the click limit is reached', async () => {
    const id = await createLink({
      location_url: 'https://example.com/live',
      url: 'edge-limit',
      clicks_limit: 2,
      expiration_url: 'https://example.com/sold-out',
    });
    expect((await visit('/edge-limit')).headers.location).toBe('https://example.com/live');
    expect((await visit('/edge-limit')).headers.location).toBe('https://example.com/live');
    expect((await visit('/edge-limit')).headers.location).toBe('https://example.com/sold-out');
    expect(await visitsOf(id)).toHaveLength(2);
    // After the flush and a reload of the entry, the limit still holds.
    await update(id, { utm_source: 'x' });
    expect((await visit('/edge-limit')).headers.location).toBe('https://example.com/sold-out');
    await update(id, { clicks_limit: 0 });
    expect((await visit('/edge-limit')).headers.location).toBe(
      'https://example.com/live?utm_source=x',
    );
  });

  it('tells the visitor cache which links under a clicks limit got visits written (for other instances)', async () => {
    const limited = await createLink({
      location_url: 'https://example.com/l',
      url: 'edge-limit-told',
      clicks_limit: 2,
    });
    await createLink({ location_url: 'https://example.com/u', url: 'edge-unlimited-told' });
    const recorder = t.app.get(VisitRecorder);
    const events = t.app.get(EventEmitter2);
    const told: LinkAddress[][] = [];
    const listener = ({ links }: LimitedLinksWrittenEvent) => told.push(links);
    events.on(LIMITED_LINKS_WRITTEN, listener);
    try {
      await recorder.flush();
      told.length = 0;
      expect((await visit('/edge-limit-told')).status).toBe(302);
      expect((await visit('/edge-unlimited-told')).status).toBe(302);
      await visitsOf(limited);
      expect((await visit('/edge-limit-told')).status).toBe(302);
      await visitsOf(limited);
      // At the limit: the link answers 404 and counts nothing more, so nothing more is told.
      expect((await visit('/edge-limit-told')).status).toBe(404);
      await visitsOf(limited);
      expect(told).toEqual([
        [{ domainId: 0, alias: 'edge-limit-told' }],
        [{ domainId: 0, alias: 'edge-limit-told' }],
      ]);
    } finally {
      events.off(LIMITED_LINKS_WRITTEN, listener);
    }
  });

  it('asks for the password, sets a signed cookie on the right one, and redirects with it', async () => {
    const id = await createLink({
      location_url: 'https://example.com/secret',
      url: 'edge-locked',
      password: 'hunter2',
    });
    const form = await visit('/edge-locked?a=1');
    expect(form.status).toBe(200);
    expect(form.headers['cache-control']).toBe('no-store');
    expect(form.text).toContain('<form method="post" action="/edge-locked?a=1">');
    expect(await visitsOf(id)).toHaveLength(0);

    const wrong = await t.http
      .post('/edge-locked?a=1')
      .type('form')
      .send({ type: 'password', password: 'nope' })
      .redirects(0);
    expect(wrong.status).toBe(403);
    expect(wrong.text).toContain('That password is not correct.');

    const right = await t.http
      .post('/edge-locked?a=1')
      .type('form')
      .send({ type: 'password', password: 'hunter2' })
      .redirects(0);
    expect(right.status).toBe(303);
    expect(right.headers.location).toBe('/edge-locked?a=1');
    const cookie = (right.headers['set-cookie'] as unknown as string[])[0];
    expect(cookie).toMatch(
      new RegExp(
        `^ld_pw_${id}=[A-Za-z0-9_-]{43}; Max-Age=2592000; Path=/edge-locked; HttpOnly; SameSite=Lax$`,
      ),
    );
    const pair = cookie.split(';')[0];

    const unlocked = await visit('/edge-locked').set('Cookie', pair);
    expect([unlocked.status, unlocked.headers.location]).toEqual([
      302,
      'https://example.com/secret',
    ]);
    const tampered = await visit('/edge-locked').set('Cookie', `${pair.slice(0, -2)}xx`);
    expect(tampered.status).toBe(200);

    // A new password invalidates cookies issued for the old one.
    await update(id, { password: 'changed' });
    expect((await visit('/edge-locked').set('Cookie', pair)).status).toBe(200);
  });

  it('limits password attempts per link as well as per address: 30 a minute from all addresses', async () => {
    await createLink({
      location_url: 'https://example.com/guarded',
      url: 'edge-guessed',
      password: 'right one',
    });
    const attempt = (address: string, password: string) =>
      t.http
        .post('/edge-guessed')
        .set('X-Forwarded-For', address)
        .type('form')
        .send({ type: 'password', password })
        .redirects(0);
    const statuses: number[] = [];
    for (let i = 0; i < 35; i += 1) {
      // Each guess from its own address: the per-address limit (10 a minute) never applies.
      statuses.push((await attempt(`203.0.113.${i + 1}`, `guess ${i}`)).status);
    }
    expect(statuses).toEqual([...Array(30).fill(403), ...Array(5).fill(429)]);
    // Once the link is blocked even the right password is refused: a block confirms no guess.
    const right = await attempt('198.51.100.7', 'right one');
    expect(right.status).toBe(429);
    expect(right.headers['retry-after']).toBe('60');
    expect(right.headers['set-cookie']).toBeUndefined();
    expect(right.text).toContain('<h1>Too many attempts</h1>');
    // Other links are not affected.
    await createLink({
      location_url: 'https://example.com/other',
      url: 'edge-other',
      password: 'x',
    });
    const other = await t.http
      .post('/edge-other')
      .set('X-Forwarded-For', '198.51.100.7')
      .type('form')
      .send({ type: 'password', password: 'x' })
      .redirects(0);
    expect(other.status).toBe(303);
  });

  it('shows a warning before sensitive content and remembers the confirmation', async () => {
    const id = await createLink({
      location_url: 'https://example.com/nsfw',
      url: 'edge-sensitive',
      sensitive_content: 1,
    });
    const warning = await visit('/edge-sensitive');
    expect(warning.status).toBe(200);
    expect(warning.text).toContain('Sensitive content ahead');
    const confirm = await t.http
      .post('/edge-sensitive')
      .type('form')
      .send({ type: 'sensitive_content' })
      .redirects(0);
    expect(confirm.status).toBe(303);
    const pair = (confirm.headers['set-cookie'] as unknown as string[])[0].split(';')[0];
    expect(pair).toBe(`ld_sc_${id}=1`);
    const through = await visit('/edge-sensitive').set('Cookie', pair);
    expect([through.status, through.headers.location]).toEqual([302, 'https://example.com/nsfw']);
    const post = await t.http.post('/edge-basic').type('form').send({ a: 1 }).redirects(0);
    expect(post.status).toBe(405);
  });

  it('targets by device, operating system, language, country and weighted rotation', async () => {
    await createLink({
      location_url: 'https://example.com/default',
      url: 'edge-device',
      targeting_type: 'device_type',
      targeting_device_type_key: ['mobile'],
      targeting_device_type_value: ['https://example.com/mobile'],
    });
    expect((await visit('/edge-device', IPHONE)).headers.location).toBe(
      'https://example.com/mobile',
    );
    expect((await visit('/edge-device', CHROME)).headers.location).toBe(
      'https://example.com/default',
    );

    await createLink({
      location_url: 'https://example.com/default',
      url: 'edge-os',
      targeting_type: 'os_name',
      targeting_os_name_key: ['ios', 'Windows'],
      targeting_os_name_value: ['https://example.com/ios', 'https://example.com/win'],
    });
    expect((await visit('/edge-os', IPHONE)).headers.location).toBe('https://example.com/ios');
    expect((await visit('/edge-os', CHROME)).headers.location).toBe('https://example.com/win');

    await createLink({
      location_url: 'https://example.com/default',
      url: 'edge-lang',
      targeting_type: 'browser_language',
      targeting_browser_language_key: ['de'],
      targeting_browser_language_value: ['https://example.com/de'],
    });
    expect(
      (await visit('/edge-lang').set('Accept-Language', 'de-CH,de;q=0.9,en;q=0.8')).headers
        .location,
    ).toBe('https://example.com/de');
    expect((await visit('/edge-lang').set('Accept-Language', 'fr')).headers.location).toBe(
      'https://example.com/default',
    );

    await createLink({
      location_url: 'https://example.com/default',
      url: 'edge-country',
      targeting_type: 'country_code',
      targeting_country_code_key: ['GB'],
      targeting_country_code_value: ['https://example.co.uk/'],
    });
    const fromLondon = await visit('/edge-country').set('X-Forwarded-For', '81.2.69.160');
    expect(fromLondon.headers.location).toBe('https://example.co.uk/');
    const fromUs = await visit('/edge-country').set('X-Forwarded-For', '8.8.8.8');
    expect(fromUs.headers.location).toBe('https://example.com/default');

    await createLink({
      location_url: 'https://example.com/default',
      url: 'edge-rotate',
      targeting_type: 'rotation',
      targeting_rotation_key: ['1', '1'],
      targeting_rotation_value: ['https://a.example/', 'https://b.example/'],
    });
    const seen = new Set<string>();
    for (let i = 0; i < 40; i += 1) {
      seen.add((await visit('/edge-rotate')).headers.location);
    }
    expect([...seen].sort()).toEqual(['https://a.example/', 'https://b.example/']);
  }, 30_000);

  it('records each visit with its dimensions, marks repeat visitors, and records bots and HEAD apart', async () => {
    const id = await createLink({ location_url: 'https://example.com/', url: 'edge-record' });
    await visit('/edge-record?utm_source=tw&utm_medium=social&utm_campaign=launch')
      .set('X-Forwarded-For', '81.2.69.160')
      .set('Referer', 'https://news.example.org/story/42?ref=x')
      .set('Accept-Language', 'en-GB,en;q=0.9');
    await visit('/edge-record', IPHONE).set('X-Forwarded-For', '81.2.69.160');
    await visit('/edge-record', IPHONE).set('X-Forwarded-For', '81.2.69.160');
    await visit('/edge-record', SLACKBOT);
    await t.http.get('/edge-record').redirects(0);
    const head = await t.http.head('/edge-record').set('User-Agent', CHROME).redirects(0);
    expect(head.status).toBe(302);

    const all = await visitsOf(id);
    // A bot's visit (Slackbot, no user agent at all, HEAD) keeps its family and time, nothing else.
    expect(all.slice(3)).toEqual(
      ['Slackbot', 'other', 'HEAD'].map((bot) => ({
        id: expect.any(Number),
        link_id: id,
        datetime: expect.anything(),
        referrer_host: null,
        referrer_path: null,
        utm_source: null,
        utm_medium: null,
        utm_campaign: null,
        continent_code: null,
        country_code: null,
        city_name: null,
        os_name: null,
        browser_name: null,
        device_type: null,
        browser_language: null,
        is_unique: all[3].is_unique,
        visitor_hash: '',
        bot,
        qr_code_id: null,
      })),
    );
    expect(Boolean(all[3].is_unique)).toBe(false);
    const rows = all.slice(0, 3);
    const normalised = rows.map((r) => ({ ...r, is_unique: Boolean(r.is_unique) }));
    expect(normalised[0]).toEqual({
      id: expect.any(Number),
      link_id: id,
      datetime: expect.anything(),
      referrer_host: 'news.example.org',
      referrer_path: '/story/42',
      utm_source: 'tw',
      utm_medium: 'social',
      utm_campaign: 'launch',
      continent_code: 'EU',
      country_code: 'GB',
      city_name: 'London',
      os_name: 'Windows',
      browser_name: 'Chrome',
      device_type: 'desktop',
      browser_language: 'en',
      is_unique: true,
      visitor_hash: expect.stringMatching(/^[0-9a-f]{32}$/),
      bot: null,
      qr_code_id: null,
    });
    expect(normalised[1]).toMatchObject({
      os_name: 'iOS',
      browser_name: 'Mobile Safari',
      device_type: 'mobile',
      referrer_host: null,
      is_unique: true,
    });
    expect(normalised[2]).toMatchObject({
      is_unique: false,
      visitor_hash: normalised[1].visitor_hash,
    });
    expect(normalised[0].visitor_hash).not.toBe(normalised[1].visitor_hash);
    expect(JSON.stringify(all)).not.toContain('81.2.69.160');
    expect(await clicksOf(id)).toBe(3);
    const link = await t.http.get(`/v1/links/${id}`).set('Authorization', owner.auth);
    expect((link.body as { data: { bot_clicks: number } }).data.bot_clicks).toBe(3);
  });

  it('stores UTM values without control characters or half characters, in one batch with the rest', async () => {
    const id = await createLink({ location_url: 'https://example.com/', url: 'edge-utm-text' });
    const long = 'a'.repeat(127);
    await visit('/edge-utm-text?utm_source=%00news%01&utm_medium=%20%09mail%7F');
    // 127 + a 2-unit emoji: cut at 128 units, the emoji would be split (and two different
    // emoji the same text to PostgreSQL).
    await visit(`/edge-utm-text?utm_source=${long}${encodeURIComponent('\u{1F300}')}`);
    await visit(`/edge-utm-text?utm_source=${long}${encodeURIComponent('\u{1F600}')}`);
    await visit('/edge-utm-text?utm_source=ok&utm_campaign=%F0%9F');
    await visit('/edge-utm-text?utm_source=%00%01');

    const rows = await visitsOf(id);
    expect(rows.map((r) => [r.utm_source, r.utm_medium, r.utm_campaign])).toEqual([
      ['news', 'mail', null],
      [long, null, null],
      [long, null, null],
      ['ok', null, '\ufffd'],
      [null, null, null],
    ]);
    const stats = await t.http
      .get(`/v1/statistics/${id}?type=utm_source`)
      .set('Authorization', owner.auth);
    expect([stats.status, (stats.body as { data: unknown }).data]).toEqual([
      200,
      [
        { utm_source: long, pageviews: 2 },
        { utm_source: 'news', pageviews: 1 },
        { utm_source: 'ok', pageviews: 1 },
      ],
    ]);
    expect(await clicksOf(id)).toBe(5);
  });

  it('answers 503 instead of crashing when the edge itself fails, and keeps serving', async () => {
    const edge = t.app.get(VisitorListener);
    const spy = jest.spyOn(edge, 'handle').mockImplementationOnce(() => {
      throw new Error('edge fault for the test');
    });
    const failed = await visit('/edge-anything');
    expect([failed.status, failed.text]).toEqual([
      503,
      'Temporarily unavailable, try again in a moment.\n',
    ]);
    spy.mockRestore();
    expect((await t.http.get('/health')).status).toBe(200);
  });

  it('routes custom domains by Host: links, index, not-found URL, and disabled domains', async () => {
    const domainId = await insertDomain(t, owner.id, 'go.brand.example', {
      custom_index_url: 'https://brand.example/',
      custom_not_found_url: 'https://brand.example/missing',
    });
    await createLink({ location_url: 'https://example.com/main', url: 'edge-host' });
    await createLink({
      location_url: 'https://example.com/brand',
      url: 'edge-host',
      domain_id: domainId,
    });

    const onDomain = await visit('/edge-host').set('Host', 'GO.brand.example:443');
    expect(onDomain.headers.location).toBe('https://example.com/brand');
    const onMain = await visit('/edge-host').set('Host', 'links.test');
    expect(onMain.headers.location).toBe('https://example.com/main');
    const root = await visit('/').set('Host', 'go.brand.example');
    expect([root.status, root.headers.location]).toEqual([302, 'https://brand.example/']);
    const missing = await visit('/edge-nothing').set('Host', 'go.brand.example');
    expect([missing.status, missing.headers.location]).toEqual([
      302,
      'https://brand.example/missing',
    ]);

    // Disabling the domain through the API reaches the edge at once.
    const disabled = await t.http
      .post(`/v1/domains/${domainId}`)
      .set('Authorization', owner.auth)
      .send({ is_enabled: 0 });
    expect(disabled.status).toBe(200);
    expect((await visit('/edge-host').set('Host', 'go.brand.example')).status).toBe(404);
    await t.http.delete(`/v1/domains/${domainId}`).set('Authorization', owner.auth);
    expect((await visit('/edge-host').set('Host', 'go.brand.example')).headers.location).toBe(
      'https://example.com/main',
    );

    await insertDomain(t, owner.id, 'off.brand.example', {
      is_enabled: false,
      verified_datetime: null,
    });
    const off = await visit('/edge-host').set('Host', 'off.brand.example');
    expect(off.status).toBe(404);

    // A custom domain without an index URL has no page at its root: the main domain's is not it.
    await insertDomain(t, owner.id, 'bare.brand.example');
    const bare = await visit('/').set('Host', 'bare.brand.example');
    expect([bare.status, bare.text]).toEqual([404, expect.stringContaining('Link not found')]);
  });
});

describe('Visitor edge shutdown', () => {
  let database: TestDatabase;
  const opened = closeAfterAll();
  beforeAll(async () => {
    database = opened.add(await createTestDatabase(), (db) => db.drop());
  });

  it('writes every buffered visit when the app stops', async () => {
    const first = opened.add(await createTestApp({ database }));
    const user = await first.createUser();
    const created = await first.http
      .post('/v1/links')
      .set('Authorization', user.auth)
      .send({ location_url: 'https://example.com/', url: 'edge-shutdown' });
    const id = (created.body as { data: { id: number } }).data.id;
    for (let i = 0; i < 25; i += 1) {
      await first.http.get('/edge-shutdown').set('User-Agent', CHROME).redirects(0);
    }
    const recorder = first.app.get(VisitRecorder);
    expect(recorder.counted).toBe(25);
    await first.close();

    const second = opened.add(await createTestApp({ database }));
    const rows: Array<{ n: number | string }> = await second.dataSource.query(
      `SELECT COUNT(*) AS n FROM visits WHERE link_id = ${Number(id)}`,
    );
    expect(Number(rows[0].n)).toBe(25);
    // bigint: node-postgres reads it as a string.
    const links: Array<{ clicks: number | string }> = await second.dataSource.query(
      `SELECT clicks FROM links WHERE id = ${Number(id)}`,
    );
    expect(Number(links[0].clicks)).toBe(25);
    await second.close();
  });
});

if (currentTestDb() === 'postgres') {
  describe('Visitor edge across instances (Redis)', () => {
    let database: TestDatabase;
    let a: TestApp;
    let b: TestApp;
    const opened = closeAfterAll();
    beforeAll(async () => {
      database = opened.add(await createTestDatabase(), (db) => db.drop());
      const env = {
        REDIS_URL: process.env.TEST_REDIS_URL ?? 'redis://127.0.0.1:6379',
        TRUSTED_PROXIES: '127.0.0.1,::1',
      };
      a = opened.add(await createTestApp({ database, env }));
      b = opened.add(await createTestApp({ database, env }));
    });

    it('drops a link from every instance cache when one instance changes it', async () => {
      const user = await a.createUser();
      const created = await a.http
        .post('/v1/links')
        .set('Authorization', user.auth)
        .send({ location_url: 'https://example.com/v1', url: 'edge-shared' });
      const id = (created.body as { data: { id: number } }).data.id;
      const before = await b.http.get('/edge-shared').set('User-Agent', CHROME).redirects(0);
      expect(before.headers.location).toBe('https://example.com/v1');

      await a.http
        .post(`/v1/links/${id}`)
        .set('Authorization', user.auth)
        .send({ location_url: 'https://example.com/v2' });
      let location: string | undefined;
      for (let i = 0; i < 50 && location !== 'https://example.com/v2'; i += 1) {
        await new Promise((resolve) => setTimeout(resolve, 20));
        location = (await b.http.get('/edge-shared').set('User-Agent', CHROME).redirects(0)).headers
          .location;
      }
      expect(location).toBe('https://example.com/v2');
    });

    it('counts password attempts at a link across instances: 30 a minute in all', async () => {
      const user = await a.createUser();
      const created = await a.http
        .post('/v1/links')
        .set('Authorization', user.auth)
        .send({ location_url: 'https://example.com/x', url: 'edge-shared-pw', password: 'right' });
      expect(created.status).toBe(201);
      const statuses: number[] = [];
      for (let i = 0; i < 32; i += 1) {
        const res = await (i % 2 === 0 ? a : b).http
          .post('/edge-shared-pw')
          .set('X-Forwarded-For', `203.0.113.${i + 1}`)
          .type('form')
          .send({ type: 'password', password: `guess ${i}` })
          .redirects(0);
        statuses.push(res.status);
      }
      expect(statuses).toEqual([...Array(30).fill(403), 429, 429]);
    });
  });
}
