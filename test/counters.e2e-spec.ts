import { VisitRecorder } from '@app/analytics';
import { createTestApp, TestApp, TestUser } from '@app/testing';

const CHROME =
  'Mozilla/5.0 (Windows NT 10.0; Win64; x64) AppleWebKit/537.36 (KHTML, like Gecko) Chrome/131.0.0.0 Safari/537.36';
const IPHONE =
  'Mozilla/5.0 (iPhone; CPU iPhone OS 17_0 like Mac OS X) AppleWebKit/605.1.15 (KHTML, like Gecko) Version/17.0 Mobile/15E148 Safari/604.1';
const LONDON = '81.2.69.160';

/** Only Date is faked: the edge and the recorder stamp visits with the chosen time. */
const REAL_TIMERS = [
  'hrtime',
  'nextTick',
  'performance',
  'queueMicrotask',
  'setImmediate',
  'clearImmediate',
  'setInterval',
  'clearInterval',
  'setTimeout',
  'clearTimeout',
] as const;

/** Past what a 32-bit integer holds (2^31 - 1), and past 2^32. */
const PAGEVIEWS = 5_000_000_000;
const VISITORS = 4_000_000_000;

type Row = Record<string, unknown>;

describe('Counters', () => {
  let t: TestApp;
  let owner: TestUser;
  let linkId: number;

  beforeAll(async () => {
    // 127.0.0.1 (supertest's peer) is a trusted proxy here, so the test chooses the visitor's IP.
    t = await createTestApp({ env: { TRUSTED_PROXIES: '127.0.0.1,::1' } });
    owner = await t.createUser();
    const res = await t.http
      .post('/v1/links')
      .set('Authorization', owner.auth)
      .send({ location_url: 'https://example.com/big', url: 'big-counters' });
    expect(res.status).toBe(201);
    linkId = (res.body as { data: { id: number } }).data.id;
  });
  afterEach(() => jest.useRealTimers());
  afterAll(() => t?.close());

  async function visitAt(iso: string, userAgent: string): Promise<void> {
    jest.useFakeTimers({ doNotFake: [...REAL_TIMERS], now: new Date(iso) });
    const res = await t.http
      .get('/big-counters')
      .set('User-Agent', userAgent)
      .set('X-Forwarded-For', LONDON)
      .redirects(0);
    expect([res.status, res.headers.location]).toEqual([302, 'https://example.com/big']);
    await t.app.get(VisitRecorder).flush();
    jest.useRealTimers();
  }

  async function get(path: string): Promise<{ status: number; body: Row; text: string }> {
    const res = await t.http.get(path).set('Authorization', owner.auth);
    return { status: res.status, body: res.body as Row, text: res.text };
  }

  it('count past 2^31 on both databases, and the API returns them as exact JSON numbers', async () => {
    await visitAt('2026-03-10T10:15:00Z', CHROME);
    // Every counter, in every roll-up table, pushed past what an integer holds.
    const add = (table: string, scope: string, id: number, visitors: boolean): Promise<unknown> =>
      t.dataSource.query(
        `UPDATE "${table}" SET "pageviews" = "pageviews" + ${PAGEVIEWS}${
          visitors ? `, "visitors" = "visitors" + ${VISITORS}` : ''
        } WHERE "${scope}" = ${id}`,
      );
    await t.dataSource.query(
      `UPDATE "links" SET "clicks" = "clicks" + ${PAGEVIEWS} WHERE "id" = ${linkId}`,
    );
    await add('stats_link_quarters', 'link_id', linkId, true);
    await add('stats_user_quarters', 'user_id', owner.id, true);
    for (const period of ['dimensions', 'dimension_months']) {
      await add(`stats_link_${period}`, 'link_id', linkId, false);
      await add(`stats_user_${period}`, 'user_id', owner.id, false);
    }

    // Another visitor through the edge: the recorder adds to those rows.
    await visitAt('2026-03-10T10:20:00Z', IPHONE);
    const stored = await t.dataSource.query<Array<{ n: unknown }>>(
      `SELECT COUNT(*) AS "n" FROM "visits" WHERE "link_id" = ${linkId}`,
    );
    expect(Number(stored[0].n)).toBe(2);

    const clicks = PAGEVIEWS + 2;
    const link = await get(`/v1/links/${linkId}`);
    expect(link.status).toBe(200);
    expect((link.body.data as Row).clicks).toBe(clicks);
    expect(link.text).toContain(`"clicks":${clicks},`);
    const list = await get('/v1/links');
    expect(list.status).toBe(200);
    expect((list.body.data as Row[]).map((l) => [l.id, l.clicks])).toEqual([[linkId, clicks]]);

    const total = { pageviews: PAGEVIEWS + 2, visitors: VISITORS + 2 };
    const day = '&start_date=2026-03-10&end_date=2026-03-10';
    for (const scope of [`/${linkId}?x=1`, '/?x=1']) {
      const hours = await get(`/v1/statistics${scope}${day}`);
      expect([scope, hours.status]).toEqual([scope, 200]);
      expect((hours.body.data as Row[]).filter((r) => r.pageviews !== 0)).toEqual([
        { ...total, formatted_date: '2026-03-10 10' },
      ]);
      expect(hours.text).toContain(`"pageviews":${total.pageviews},"visitors":${total.visitors}`);
      // One day from the day tables, the whole month from the month tables.
      for (const range of [day, '&start_date=2026-03-01&end_date=2026-03-31']) {
        const countries = await get(`/v1/statistics${scope}&type=country_code${range}`);
        expect([scope, range, countries.status, countries.body.data]).toEqual([
          scope,
          range,
          200,
          [{ country_code: 'GB', pageviews: total.pageviews }],
        ]);
      }
    }
  });
});
