import { VisitRecorder } from '@app/analytics';
import { createTestApp, expectDocumented, insertDomain, TestApp, TestUser } from '@app/testing';

const CHROME =
  'Mozilla/5.0 (Windows NT 10.0; Win64; x64) AppleWebKit/537.36 (KHTML, like Gecko) Chrome/131.0.0.0 Safari/537.36';
const IPHONE =
  'Mozilla/5.0 (iPhone; CPU iPhone OS 17_0 like Mac OS X) AppleWebKit/605.1.15 (KHTML, like Gecko) Version/17.0 Mobile/15E148 Safari/604.1';
const CURL = 'curl/8.5.0';
const SLACKBOT = 'Slackbot-LinkExpanding 1.0 (+https://api.slack.com/robots)';
const DESTINATION = 'https://example.com/dest?keep=1';

type Row = Record<string, unknown>;

describe('Bots counted apart, QR scans tracked', () => {
  let t: TestApp;
  let owner: TestUser;
  let stranger: TestUser;
  let appUrl: string;

  beforeAll(async () => {
    t = await createTestApp();
    owner = await t.createUser();
    stranger = await t.createUser();
    appUrl = t.config.appUrl.replace(/\/$/, '');
  });
  afterAll(() => t?.close());

  async function createLink(alias: string, user = owner, domainId = 0): Promise<number> {
    const res = await t.http.post('/v1/links').set('Authorization', user.auth).send({
      location_url: DESTINATION,
      url: alias,
      forward_query_parameters_is_enabled: 1,
      domain_id: domainId,
    });
    expect(res.status).toBe(201);
    return (res.body as { data: { id: number } }).data.id;
  }

  async function createCode(url: string, user = owner): Promise<number> {
    const res = await t.http
      .post('/v1/qr-codes')
      .set('Authorization', user.auth)
      .field({ name: 'Poster', type: 'url', url });
    expect(res.status).toBe(201);
    return (res.body as { data: { id: number } }).data.id;
  }

  async function get(path: string, user = owner): Promise<{ status: number; body: Row }> {
    const res = expectDocumented(await t.http.get(path).set('Authorization', user.auth));
    return { status: res.status, body: res.body as Row };
  }

  async function data(path: string, user = owner): Promise<unknown> {
    const res = await get(path, user);
    expect([path, res.status]).toEqual([path, 200]);
    return res.body.data;
  }

  /** A visit of `path` (with its query), answered with a redirect whose Location is returned. */
  async function visit(path: string, userAgent: string, method: 'GET' | 'HEAD' = 'GET') {
    const req = method === 'GET' ? t.http.get(path) : t.http.head(path);
    const res = await req.set('User-Agent', userAgent).redirects(0);
    expect([path, method, res.status]).toEqual([path, method, 302]);
    return res.headers.location;
  }

  const flush = (): Promise<void> => t.app.get(VisitRecorder).flushAll();

  it('records curl, a preview fetcher and HEAD requests as bots, never as clicks or pageviews', async () => {
    const linkId = await createLink('bs-bots');
    expect(await visit('/bs-bots', CURL)).toBe(DESTINATION);
    expect(await visit('/bs-bots', CURL)).toBe(DESTINATION);
    expect(await visit('/bs-bots', CURL, 'HEAD')).toBe(DESTINATION);
    expect(await visit('/bs-bots', CHROME, 'HEAD')).toBe(DESTINATION);
    expect(await visit('/bs-bots', SLACKBOT)).toBe(DESTINATION);
    expect(await visit('/bs-bots', CHROME)).toBe(DESTINATION);
    await flush();

    const link = (await data(`/v1/links/${linkId}`)) as Row;
    expect({ clicks: link.clicks, bot_clicks: link.bot_clicks }).toEqual({
      clicks: 1,
      bot_clicks: 5,
    });
    const bots = [
      { bot: 'curl', pageviews: 3 },
      { bot: 'HEAD', pageviews: 1 },
      { bot: 'Slackbot', pageviews: 1 },
    ];
    expect(await data(`/v1/statistics/${linkId}?type=bots`)).toEqual(bots);
    // The browser's visit alone, in the overview and every other breakdown.
    const overview = (await data(`/v1/statistics/${linkId}`)) as Row[];
    expect(overview.filter((r) => r.pageviews !== 0)).toEqual([
      { pageviews: 1, visitors: 1, formatted_date: expect.any(String) },
    ]);
    expect(await data(`/v1/statistics/${linkId}?type=browser_name`)).toEqual([
      { browser_name: 'Chrome', pageviews: 1 },
    ]);
    expect(await data(`/v1/statistics/${linkId}?type=referrer_host`)).toEqual([
      { referrer_host: null, pageviews: 1 },
    ]);
    // The account's: this link is the owner's only one with bots so far.
    expect(await data('/v1/statistics?type=bots')).toEqual(bots);
    expect(await data(`/v1/statistics?type=bots&link_id=${linkId}`)).toEqual(bots);
    // Stored without address, device or place.
    const rows = await t.dataSource.query<Row[]>(
      `SELECT "bot", "visitor_hash", "country_code", "browser_name" FROM "visits"
        WHERE "link_id" = ${linkId} AND "bot" IS NOT NULL ORDER BY "id"`,
    );
    expect(rows).toEqual(
      ['curl', 'curl', 'curl', 'HEAD', 'Slackbot'].map((bot) => ({
        bot,
        visitor_hash: '',
        country_code: null,
        browser_name: null,
      })),
    );
  });

  it('gives a code of an own link the scan marker and counts a phone visit through it as a scan', async () => {
    const linkId = await createLink('bs-scan');
    const url = `${appUrl}/bs-scan?utm_source=poster`;
    const id = await createCode(url);
    const marked = `${url}&ld_qr=${id.toString(36)}`;
    const code = (await data(`/v1/qr-codes/${id}`)) as Row;
    expect({
      embedded_data: code.embedded_data,
      link_id: code.link_id,
      scans: code.scans,
      url: (code.settings as Row).url,
      is_readable: code.is_readable,
      last_datetime: code.last_datetime,
    }).toEqual({
      embedded_data: marked,
      link_id: linkId,
      scans: 0,
      // What the user asked to encode is kept as given; the marker is added to it.
      url,
      is_readable: true,
      last_datetime: null,
    });

    // The destination gets the link's forwarded query, never the marker.
    const path = marked.slice(appUrl.length);
    expect(await visit(path, IPHONE)).toBe(`${DESTINATION}&utm_source=poster`);
    // A bot following the code is a bot, not a scan.
    expect(await visit(path, SLACKBOT)).toBe(`${DESTINATION}&utm_source=poster`);
    await flush();

    expect(((await data(`/v1/qr-codes/${id}`)) as Row).scans).toBe(1);
    const link = (await data(`/v1/links/${linkId}`)) as Row;
    expect({ clicks: link.clicks, bot_clicks: link.bot_clicks }).toEqual({
      clicks: 1,
      bot_clicks: 1,
    });
    expect(await data(`/v1/statistics/${linkId}?type=qr_codes`)).toEqual([
      { qr_code_id: id, pageviews: 1 },
    ]);
    expect(await data(`/v1/statistics/${linkId}?type=utm_source`)).toEqual([
      { utm_source: 'poster', pageviews: 1 },
    ]);
    expect(await data(`/v1/statistics/${linkId}?type=os_name`)).toEqual([
      { os_name: 'iOS', pageviews: 1 },
    ]);
    expect(await data(`/v1/statistics?type=qr_codes`)).toEqual([{ qr_code_id: id, pageviews: 1 }]);
  });

  it("counts a marker of another owner's, another link's or a deleted code as an ordinary visit", async () => {
    const linkId = await createLink('bs-plain');
    const otherLinkId = await createLink('bs-other');
    const strangersLink = await createLink('bs-strangers', stranger);
    const strangersCode = await createCode(`${appUrl}/bs-strangers`, stranger);
    const otherLinksCode = await createCode(`${appUrl}/bs-other`);
    const external = await createCode('https://example.org/menu');
    const deleted = await createCode(`${appUrl}/bs-plain`);
    expect(((await data(`/v1/qr-codes/${strangersCode}`, stranger)) as Row).link_id).toBe(
      strangersLink,
    );
    expect(((await data(`/v1/qr-codes/${otherLinksCode}`)) as Row).link_id).toBe(otherLinkId);
    const plain = (await data(`/v1/qr-codes/${external}`)) as Row;
    expect([plain.embedded_data, plain.link_id]).toEqual(['https://example.org/menu', null]);
    const removed = await t.http.delete(`/v1/qr-codes/${deleted}`).set('Authorization', owner.auth);
    expect(removed.status).toBe(200);

    const unknown = [999_999, 2_147_483_648, Number.MAX_SAFE_INTEGER];
    for (const code of [strangersCode, otherLinksCode, external, deleted, ...unknown]) {
      expect(await visit(`/bs-plain?ld_qr=${code.toString(36)}`, CHROME)).toBe(DESTINATION);
    }
    await flush();

    const link = (await data(`/v1/links/${linkId}`)) as Row;
    expect({ clicks: link.clicks, bot_clicks: link.bot_clicks }).toEqual({
      clicks: 7,
      bot_clicks: 0,
    });
    expect(await data(`/v1/statistics/${linkId}?type=qr_codes`)).toEqual([]);
    expect(((await data(`/v1/qr-codes/${strangersCode}`, stranger)) as Row).scans).toBe(0);
    expect(((await data(`/v1/qr-codes/${otherLinksCode}`)) as Row).scans).toBe(0);
    const stored = await t.dataSource.query<Array<{ n: unknown }>>(
      `SELECT COUNT(*) AS "n" FROM "visits" WHERE "link_id" = ${linkId} AND "qr_code_id" IS NULL AND "bot" IS NULL`,
    );
    expect(Number(stored[0].n)).toBe(7);
  });

  it("counts scans of a link on the owner's custom domain, not of a stranger's domain", async () => {
    const domainId = await insertDomain(t, owner.id, 'go.scan.example');
    await insertDomain(t, stranger.id, 'theirs.scan.example');
    const linkId = await createLink('bs-domain', owner, domainId);
    const id = await createCode('https://go.scan.example/bs-domain');
    // The same alias on the main domain, on a stranger's domain and on another scheme: no link.
    const mainLink = await createLink('bs-domain');
    const unmarked = [
      await createCode('https://theirs.scan.example/bs-domain'),
      await createCode('http://go.scan.example/bs-domain'),
      await createCode('https://go.scan.example/bs-domain/'),
    ];
    const code = (await data(`/v1/qr-codes/${id}`)) as Row;
    expect([code.embedded_data, code.link_id]).toEqual([
      `https://go.scan.example/bs-domain?ld_qr=${id.toString(36)}`,
      linkId,
    ]);
    for (const other of unmarked) {
      expect(((await data(`/v1/qr-codes/${other}`)) as Row).link_id).toBeNull();
    }

    const res = await t.http
      .get(`/bs-domain?ld_qr=${id.toString(36)}`)
      .set('Host', 'go.scan.example')
      .set('User-Agent', IPHONE)
      .redirects(0);
    expect([res.status, res.headers.location]).toEqual([302, DESTINATION]);
    // The code's marker on the main domain's link of the same alias is an ordinary visit there.
    expect(await visit(`/bs-domain?ld_qr=${id.toString(36)}`, IPHONE)).toBe(DESTINATION);
    await flush();
    expect(((await data(`/v1/qr-codes/${id}`)) as Row).scans).toBe(1);
    expect(await data(`/v1/statistics/${linkId}?type=qr_codes`)).toEqual([
      { qr_code_id: id, pageviews: 1 },
    ]);
    expect(await data(`/v1/statistics/${mainLink}?type=qr_codes`)).toEqual([]);
    expect(((await data(`/v1/links/${mainLink}`)) as Row).clicks).toBe(1);
  });

  it('adds the marker to an existing code on its next update', async () => {
    const linkId = await createLink('bs-later');
    const url = `${appUrl}/bs-later`;
    const id = await createCode(url);
    // As a code made before scans were tracked: no marker, no link.
    await t.dataSource.query(
      `UPDATE "qr_codes" SET "embedded_data" = '${url}', "link_id" = NULL WHERE "id" = ${id}`,
    );
    expect(await visit(`/bs-later?ld_qr=${id.toString(36)}`, CHROME)).toBe(DESTINATION);
    await flush();
    expect(((await data(`/v1/qr-codes/${id}`)) as Row).scans).toBe(0);

    const updated = await t.http
      .post(`/v1/qr-codes/${id}`)
      .set('Authorization', owner.auth)
      .field({ name: 'Poster, reprinted' });
    expect([updated.status, updated.body]).toEqual([200, { data: { id } }]);
    const code = (await data(`/v1/qr-codes/${id}`)) as Row;
    expect([code.embedded_data, code.link_id, code.scans]).toEqual([
      `${url}?ld_qr=${id.toString(36)}`,
      linkId,
      0,
    ]);
    expect(await visit(`/bs-later?ld_qr=${id.toString(36)}`, IPHONE)).toBe(DESTINATION);
    await flush();
    expect(((await data(`/v1/qr-codes/${id}`)) as Row).scans).toBe(1);
    expect(await data(`/v1/statistics/${linkId}?type=qr_codes`)).toEqual([
      { qr_code_id: id, pageviews: 1 },
    ]);

    // Pointed elsewhere, the code loses its marker.
    const away = await t.http
      .post(`/v1/qr-codes/${id}`)
      .set('Authorization', owner.auth)
      .field({ url: 'https://example.org/elsewhere' });
    expect(away.status).toBe(200);
    const moved = (await data(`/v1/qr-codes/${id}`)) as Row;
    expect([moved.embedded_data, moved.link_id, moved.scans]).toEqual([
      'https://example.org/elsewhere',
      null,
      1,
    ]);
  });

  it('refuses an unknown statistics type naming bots and qr_codes among the allowed ones', async () => {
    const res = await get('/v1/statistics?type=robots');
    expect(res.status).toBe(400);
    expect(res.body).toEqual({
      errors: [
        {
          status: 400,
          code: 'validation_failed',
          title: expect.stringContaining('bots, qr_codes'),
          field: 'type',
        },
      ],
    });
  });
});
