import { StatisticsRepository, VisitRecorder, VisitWriter } from '@app/analytics';
import { Clock } from '@app/common';
import {
  closeMonth,
  Db,
  latestMonth,
  monthsClosedThrough,
  revertLastMigration,
  runMigrations,
  sqliteConnection,
  subtractLinkInChunks,
  type NewVisit,
} from '@app/database';
import { createTestApp, currentTestDb, TestApp, TestUser } from '@app/testing';
import { StatisticsMonthsJob } from '../apps/worker/src/jobs/statistics-months.job';

const CHROME =
  'Mozilla/5.0 (Windows NT 10.0; Win64; x64) AppleWebKit/537.36 (KHTML, like Gecko) Chrome/131.0.0.0 Safari/537.36';
const IPHONE =
  'Mozilla/5.0 (iPhone; CPU iPhone OS 17_0 like Mac OS X) AppleWebKit/605.1.15 (KHTML, like Gecko) Version/17.0 Mobile/15E148 Safari/604.1';
const LONDON = '81.2.69.160';
const MOUNTAIN_VIEW = '8.8.8.8';

/** Only Date is faked: the edge and the recorder stamp visits with the chosen time. */
const REAL_TIMERS = [
  'hrtime',
  'nextTick',
  'performance',
  'queueMicrotask',
  'requestAnimationFrame',
  'cancelAnimationFrame',
  'requestIdleCallback',
  'cancelIdleCallback',
  'setImmediate',
  'clearImmediate',
  'setInterval',
  'clearInterval',
  'setTimeout',
  'clearTimeout',
] as const;

function at(iso: string): void {
  jest.useFakeTimers({ doNotFake: [...REAL_TIMERS], now: new Date(iso) });
}

type Row = Record<string, unknown>;

describe('Statistics', () => {
  let t: TestApp;
  let owner: TestUser;
  let stranger: TestUser;

  beforeAll(async () => {
    // 127.0.0.1 (supertest's peer) is a trusted proxy here, so tests choose the visitor's IP.
    t = await createTestApp({ env: { TRUSTED_PROXIES: '127.0.0.1,::1' } });
    owner = await t.createUser();
    stranger = await t.createUser();
    await setZone(owner, 'Europe/Berlin');
  });
  afterEach(() => {
    jest.useRealTimers();
    jest.restoreAllMocks();
  });
  afterAll(() => t?.close());

  async function setZone(user: TestUser, zone: string): Promise<void> {
    const p = currentTestDb() === 'postgres' ? ['$1', '$2'] : ['?', '?'];
    await t.dataSource.query(`UPDATE "users" SET "timezone" = ${p[0]} WHERE "id" = ${p[1]}`, [
      zone,
      user.id,
    ]);
  }

  async function create(path: string, fields: Row, user = owner): Promise<number> {
    const res = await t.http.post(path).set('Authorization', user.auth).send(fields);
    expect(res.status).toBe(201);
    return (res.body as { data: { id: number } }).data.id;
  }

  /** `count` links of `user`, aliased `${prefix}-0`, `${prefix}-1`, …; their ids in that order. */
  async function createLinks(user: TestUser, count: number, prefix: string): Promise<number[]> {
    const ids: number[] = [];
    for (let i = 0; i < count; i += 1) {
      ids.push(
        await create(
          '/v1/links',
          { location_url: 'https://example.com/r', url: `${prefix}-${i}` },
          user,
        ),
      );
    }
    return ids;
  }

  function visit(alias: string, ua: string, ip: string) {
    return t.http.get(`/${alias}`).set('User-Agent', ua).set('X-Forwarded-For', ip).redirects(0);
  }

  async function flush(): Promise<void> {
    await t.app.get(VisitRecorder).flush();
  }

  async function stats(query: string, user = owner): Promise<{ status: number; body: Row }> {
    const res = await t.http.get(`/v1/statistics${query}`).set('Authorization', user.auth);
    return { status: res.status, body: res.body as Row };
  }

  async function data(query: string, user = owner): Promise<Row[]> {
    const res = await stats(query, user);
    expect([query, res.status]).toEqual([query, 200]);
    return res.body.data as Row[];
  }

  /** Visits written through the visit writer itself, at chosen instants. */
  async function record(linkId: number, instants: string[], unique = true): Promise<void> {
    const visits = visitRows(linkId, instants, unique);
    expect(await t.app.get(VisitWriter).recordBatch(visits)).toBe(visits.length);
  }

  function visitRows(linkId: number, instants: string[], unique = true): NewVisit[] {
    return instants.map((iso) => ({
      link_id: linkId,
      datetime: new Date(iso),
      referrer_host: null,
      referrer_path: null,
      utm_source: null,
      utm_medium: null,
      utm_campaign: null,
      continent_code: 'EU',
      country_code: 'DE',
      city_name: 'Berlin',
      os_name: 'Linux',
      browser_name: 'Firefox',
      device_type: 'desktop',
      browser_language: 'de',
      is_unique: unique,
      visitor_hash: '0'.repeat(32),
      bot: null,
      qr_code_id: null,
    }));
  }

  /**
   * Like the recorder: a batch that meets a link deleted meanwhile fails as data, and its visits
   * are written again without the user's links deleted by then (another delete may still land in
   * between, hence a few tries).
   */
  async function writeRetrying(user: TestUser, rows: NewVisit[]): Promise<void> {
    let left = rows;
    for (let attempt = 1; ; attempt += 1) {
      try {
        await t.app.get(VisitWriter).recordBatch(left);
        return;
      } catch (error) {
        if (attempt === 5) {
          throw error;
        }
        const alive = new Set(
          (
            await t.dataSource.query<Array<{ id: number }>>(
              `SELECT "id" FROM "links" WHERE "user_id" = ${Number(user.id)}`,
            )
          ).map((r) => Number(r.id)),
        );
        left = left.filter((r) => alive.has(r.link_id));
      }
    }
  }

  function nonZero(rows: Row[]): Row[] {
    return rows.filter((r) => r.pageviews !== 0);
  }

  describe('visits through the edge, every type', () => {
    let linkA: number;
    let linkB: number;
    let project: number;

    beforeAll(async () => {
      project = await create('/v1/projects', { name: 'Campaigns' });
      linkA = await create('/v1/links', { location_url: 'https://example.com/a', url: 'st-a' });
      linkB = await create('/v1/links', {
        location_url: 'https://example.com/b',
        url: 'st-b',
        project_id: project,
      });
      // 10:15 UTC = 11:15 in Berlin, 10 March 2026.
      at('2026-03-10T10:15:00Z');
      const first = await t.http
        .get('/st-a?utm_source=tw&utm_medium=social&utm_campaign=launch')
        .set('User-Agent', CHROME)
        .set('X-Forwarded-For', LONDON)
        .set('Referer', 'https://news.example.org/story/42')
        .set('Accept-Language', 'en-GB,en;q=0.9')
        .redirects(0);
      expect(first.status).toBe(302);
      await visit('st-a', IPHONE, LONDON);
      await visit('st-a', IPHONE, LONDON); // the same visitor again: a pageview, not a visitor
      await t.http
        .get('/st-b?utm_source=tw&utm_medium=email')
        .set('User-Agent', CHROME)
        .set('X-Forwarded-For', MOUNTAIN_VIEW)
        .set('Referer', 'https://news.example.org/other')
        .set('Accept-Language', 'de-DE')
        .redirects(0);
      await flush();
      jest.useRealTimers();
    });

    const DAY = '&start_date=2026-03-10&end_date=2026-03-10';

    it('overview: every day of the default 30 days, zero-filled, in the account zone', async () => {
      // The default range ends today; 22:59 UTC is still 10 March in Berlin.
      jest.spyOn(t.app.get(Clock), 'now').mockReturnValue(new Date('2026-03-10T22:59:00Z'));
      const res = await stats('/');
      expect(res.status).toBe(200);
      const rows = res.body.data as Row[];
      expect(rows).toHaveLength(30);
      expect(rows[0]).toEqual({ pageviews: 0, visitors: 0, formatted_date: '2026-02-09' });
      expect(rows[29]).toEqual({ pageviews: 4, visitors: 3, formatted_date: '2026-03-10' });
      expect(nonZero(rows)).toEqual([rows[29]]);
      expect(res.body.meta).toEqual({
        page: 1,
        results_per_page: 30,
        total: 30,
        total_results: 30,
        total_pages: 1,
      });
    });

    it('overview of one day is by hour, in the account zone or the one asked for', async () => {
      const berlin = await data(`/?x=1${DAY}`);
      expect(berlin).toHaveLength(24);
      expect(berlin[0].formatted_date).toBe('2026-03-10 00');
      expect(nonZero(berlin)).toEqual([
        { pageviews: 4, visitors: 3, formatted_date: '2026-03-10 11' },
      ]);
      const tokyo = await data(`/?timezone=Asia/Tokyo${DAY}`);
      expect(nonZero(tokyo)).toEqual([
        { pageviews: 4, visitors: 3, formatted_date: '2026-03-10 19' },
      ]);
      const kolkata = await data(`/?timezone=Asia/Kolkata${DAY}`);
      expect(nonZero(kolkata)).toEqual([
        { pageviews: 4, visitors: 3, formatted_date: '2026-03-10 15' },
      ]);
    });

    it('filters by link and by project, on both routes', async () => {
      const row = (pageviews: number, visitors: number) => [
        { pageviews, visitors, formatted_date: '2026-03-10' },
      ];
      const q = '&start_date=2026-03-09&end_date=2026-03-10';
      expect(nonZero(await data(`/${linkA}?x=1${q}`))).toEqual(row(3, 2));
      expect(nonZero(await data(`/?link_id=${linkA}${q}`))).toEqual(row(3, 2));
      expect(nonZero(await data(`/${linkB}?x=1${q}`))).toEqual(row(1, 1));
      expect(nonZero(await data(`/?project_id=${project}${q}`))).toEqual(row(1, 1));
      expect(nonZero(await data(`/?project_id=${project}&link_id=${linkA}${q}`))).toEqual([]);
    });

    it('breaks pageviews down by every dimension, most first', async () => {
      const cases: Array<[string, Row[]]> = [
        [
          'referrer_host',
          [
            { referrer_host: null, pageviews: 2 },
            { referrer_host: 'news.example.org', pageviews: 2 },
          ],
        ],
        [
          'referrer_path&referrer_host=news.example.org',
          [
            { referrer_host: 'news.example.org', referrer_path: '/other', pageviews: 1 },
            { referrer_host: 'news.example.org', referrer_path: '/story/42', pageviews: 1 },
          ],
        ],
        [
          'continent_code',
          [
            { continent_code: 'EU', pageviews: 3 },
            { continent_code: 'NA', pageviews: 1 },
          ],
        ],
        [
          'country_code',
          [
            { country_code: 'GB', pageviews: 3 },
            { country_code: 'US', pageviews: 1 },
          ],
        ],
        [
          'city_name',
          [
            {
              country_code: 'GB',
              country_name: 'United Kingdom',
              city_name: 'London',
              pageviews: 3,
            },
            {
              country_code: 'US',
              country_name: 'United States',
              city_name: 'Mountain View',
              pageviews: 1,
            },
          ],
        ],
        [
          'city_name&country_code=us',
          [
            {
              country_code: 'US',
              country_name: 'United States',
              city_name: 'Mountain View',
              pageviews: 1,
            },
          ],
        ],
        [
          'os_name',
          [
            { os_name: 'Windows', pageviews: 2 },
            { os_name: 'iOS', pageviews: 2 },
          ],
        ],
        [
          'browser_name',
          [
            { browser_name: 'Chrome', pageviews: 2 },
            { browser_name: 'Mobile Safari', pageviews: 2 },
          ],
        ],
        [
          'device_type',
          [
            { device_type: 'desktop', pageviews: 2 },
            { device_type: 'mobile', pageviews: 2 },
          ],
        ],
        [
          'browser_language',
          [
            { browser_language: null, pageviews: 2 },
            { browser_language: 'de', pageviews: 1 },
            { browser_language: 'en', pageviews: 1 },
          ],
        ],
        ['utm_source', [{ utm_source: 'tw', pageviews: 2 }]],
        [
          'utm_medium&utm_source=tw',
          [
            { utm_source: 'tw', utm_medium: 'email', pageviews: 1 },
            { utm_source: 'tw', utm_medium: 'social', pageviews: 1 },
          ],
        ],
        [
          'utm_campaign&utm_source=tw&utm_medium=social',
          [{ utm_source: 'tw', utm_medium: 'social', utm_campaign: 'launch', pageviews: 1 }],
        ],
      ];
      for (const [type, expected] of cases) {
        expect([type, await data(`/?type=${type}${DAY}`)]).toEqual([type, expected]);
      }
      expect(
        await data(`/${linkB}?type=utm_campaign&utm_source=tw&utm_medium=email${DAY}`),
      ).toEqual([{ utm_source: 'tw', utm_medium: 'email', utm_campaign: null, pageviews: 1 }]);
      expect(await data(`/${linkA}?type=country_code${DAY}`)).toEqual([
        { country_code: 'GB', pageviews: 3 },
      ]);
    });

    it('counts by hour of the day, all 24 hours', async () => {
      const res = await stats(`/?type=hour&results_per_page=50${DAY}`);
      expect(res.status).toBe(200);
      const rows = res.body.data as Row[];
      expect(rows).toHaveLength(24);
      expect(rows[0]).toEqual({ hour: '00:00 - 01:00', pageviews: 0 });
      expect(rows[23]).toEqual({ hour: '23:00 - 00:00', pageviews: 0 });
      expect(nonZero(rows)).toEqual([{ hour: '11:00 - 12:00', pageviews: 4 }]);
    });

    it('paginates breakdowns with the list envelope', async () => {
      const res = await stats(`/?type=browser_language&results_per_page=10&page=2${DAY}`);
      expect(res.status).toBe(200);
      expect(res.body.data).toEqual([]);
      expect(res.body.meta).toEqual({
        page: 2,
        results_per_page: 10,
        total: 3,
        total_results: 3,
        total_pages: 1,
      });
    });

    it("answers 404 for another user's link or project, and shows strangers nothing", async () => {
      const notFound = (what: string, code: string) => ({
        errors: [{ status: 404, title: `The ${what} you are looking for does not exist.`, code }],
      });
      expect(await stats(`/${linkA}`, stranger)).toEqual({
        status: 404,
        body: notFound('link', 'link_not_found'),
      });
      expect(await stats(`/?link_id=${linkA}`, stranger)).toEqual({
        status: 404,
        body: notFound('link', 'link_not_found'),
      });
      expect(await stats(`/?project_id=${project}`, stranger)).toEqual({
        status: 404,
        body: notFound('project', 'project_not_found'),
      });
      expect(nonZero(await data(`/?x=1${DAY}`, stranger))).toEqual([]);
    });

    it('uses the primary keys of the roll-ups, never the raw visits', async () => {
      const repo = t.app.get(StatisticsRepository);
      const postgres = currentTestDb() === 'postgres';
      const user = { kind: 'user', userId: owner.id } as const;
      const link = { kind: 'links', userId: owner.id, linkId: linkA, projectId: null } as const;
      const byProject = {
        kind: 'links',
        userId: owner.id,
        linkId: null,
        projectId: project,
      } as const;
      const day = Math.floor(Date.UTC(2026, 2, 10) / 86_400_000);
      const yearStart = Math.floor(Date.UTC(2026, 0, 1) / 86_400_000);
      const range = { startBucket: 1, endBucket: 2, offsetQuarters: 4 };
      const queries = {
        userSeries: repo.seriesQuery(user, range, 96),
        linkSeries: repo.seriesQuery(link, range, 4),
        linkDays: repo.dimensionQuery(
          link,
          { dimension: 'country_code', firstDay: day, lastDay: day },
          25,
          0,
          Infinity,
        ),
        // 2026-01-01 to 2026-03-10: January and February whole (months), 1-10 March (days).
        userMonths: repo.dimensionQuery(
          user,
          { dimension: 'referrer_host', firstDay: yearStart, lastDay: day },
          25,
          0,
          Infinity,
        ),
        projectMonths: repo.dimensionQuery(
          byProject,
          { dimension: 'city_name', firstDay: yearStart, lastDay: day, value1: 'GB' },
          25,
          0,
          Infinity,
        ),
      };
      // Tiny tables make a sequential scan cheapest on PostgreSQL: plans are read with it off, on
      // the transaction's own connection (the benchmark shows the plans at 10 million visits).
      const db = t.app.get(Db);
      const plans = await db.write(async () => {
        if (postgres) {
          await db.manager.query('SET LOCAL enable_seqscan = off');
        }
        const out: Record<string, string> = {};
        for (const [name, query] of Object.entries(queries)) {
          out[name] = await repo.explain(query);
        }
        return out;
      });
      const uses = (plan: string, table: string, key: string): void => {
        expect([table, plan]).toEqual([
          table,
          postgres
            ? expect.stringMatching(new RegExp(`Index (Only )?Scan using "${key}" on ${table}`))
            : expect.stringMatching(
                new RegExp(`SEARCH ${table} USING PRIMARY KEY \\((user|link)_id=\\?`),
              ),
        ]);
      };
      uses(plans.userSeries, 'stats_user_quarters', 'PK_a2cfec12715e1dc951a908ee690');
      uses(plans.linkSeries, 'stats_link_quarters', 'PK_db38d8d9f7b165557df22f16160');
      uses(plans.linkDays, 'stats_link_dimensions', 'PK_70a99ad6f0d05e20036b56cf0ea');
      uses(plans.userMonths, 'stats_user_dimension_months', 'PK_358b6b19eb4d4a12152af4fb460');
      uses(plans.userMonths, 'stats_user_dimensions', 'PK_29ab67cd73c835f305c1eeda08f');
      uses(plans.projectMonths, 'stats_link_dimension_months', 'PK_46a4545692aa0c0c5a47b53429c');
      uses(plans.projectMonths, 'stats_link_dimensions', 'PK_70a99ad6f0d05e20036b56cf0ea');
      expect(plans.projectMonths).toMatch(postgres ? /links/ : /SEARCH links USING INDEX/);
      if (!postgres) {
        expect(plans.userSeries).toMatch(/\(user_id=\? AND bucket>\? AND bucket<\?\)/);
        expect(plans.linkDays).toMatch(/\(link_id=\? AND dimension=\? AND day>\? AND day<\?\)/);
        expect(plans.userMonths).toMatch(
          /stats_user_dimension_months USING PRIMARY KEY \(user_id=\? AND dimension=\? AND month>\? AND month<\?\)/,
        );
      }
      expect(Object.values(plans).join('\n')).not.toMatch(/visits/);
    });
  });

  describe('time zones and periods', () => {
    let link: number;

    beforeAll(async () => {
      link = await create('/v1/links', { location_url: 'https://example.com/z', url: 'st-zone' });
      // Berlin leaves summer time on 25 October 2026 at 01:00 UTC (03:00 CEST becomes 02:00 CET).
      await record(link, [
        '2026-10-24T22:30:00Z', // 00:30 CEST, 25 Oct
        '2026-10-25T00:30:00Z', // 02:30 CEST
        '2026-10-25T01:30:00Z', // 02:30 CET, the same wall-clock hour again
        '2026-10-25T23:30:00Z', // 00:30 CET, 26 Oct
      ]);
      // And enters it on 29 March 2026 at 01:00 UTC (02:00 CET becomes 03:00 CEST).
      await record(link, ['2026-03-29T00:59:00Z', '2026-03-29T01:00:00Z'], false);
    });

    const of = (query: string) => data(`/${link}?${query}`);

    it('puts the visits around a DST change into the local days', async () => {
      expect(await of('start_date=2026-10-24&end_date=2026-10-26')).toEqual([
        { pageviews: 0, visitors: 0, formatted_date: '2026-10-24' },
        { pageviews: 3, visitors: 3, formatted_date: '2026-10-25' },
        { pageviews: 1, visitors: 1, formatted_date: '2026-10-26' },
      ]);
      expect(await of('start_date=2026-10-24&end_date=2026-10-26&timezone=UTC')).toEqual([
        { pageviews: 1, visitors: 1, formatted_date: '2026-10-24' },
        { pageviews: 3, visitors: 3, formatted_date: '2026-10-25' },
        { pageviews: 0, visitors: 0, formatted_date: '2026-10-26' },
      ]);
    });

    it('has 24 hour labels on the 25-hour day (02 twice, merged) and 23 on the 23-hour day', async () => {
      const autumn = await of('start_date=2026-10-25&end_date=2026-10-25');
      expect(autumn.map((r) => r.formatted_date)).toEqual(
        Array.from({ length: 24 }, (_, h) => `2026-10-25 ${String(h).padStart(2, '0')}`),
      );
      expect(nonZero(autumn)).toEqual([
        { pageviews: 1, visitors: 1, formatted_date: '2026-10-25 00' },
        { pageviews: 2, visitors: 2, formatted_date: '2026-10-25 02' },
      ]);
      const spring = await of('start_date=2026-03-29&end_date=2026-03-29');
      expect(spring.map((r) => r.formatted_date)).toEqual(
        [0, 1, ...Array.from({ length: 21 }, (_, i) => i + 3)].map(
          (h) => `2026-03-29 ${String(h).padStart(2, '0')}`,
        ),
      );
      expect(nonZero(spring)).toEqual([
        { pageviews: 1, visitors: 0, formatted_date: '2026-03-29 01' },
        { pageviews: 1, visitors: 0, formatted_date: '2026-03-29 03' },
      ]);
    });

    it('counts hours of the day across the change in local time', async () => {
      const hours = await of('type=hour&start_date=2026-10-25&end_date=2026-10-25');
      expect(nonZero(hours)).toEqual([
        { hour: '00:00 - 01:00', pageviews: 1 },
        { hour: '02:00 - 03:00', pageviews: 2 },
      ]);
    });

    it('keeps breakdown days in the account zone', async () => {
      expect(await of('type=city_name&start_date=2026-10-25&end_date=2026-10-25')).toEqual([
        { country_code: 'DE', country_name: 'Germany', city_name: 'Berlin', pageviews: 3 },
      ]);
    });

    it('adds whole months and the days around them in long breakdowns', async () => {
      // Partial March (10-31), April to September whole, partial October (1-25), all accounts'.
      expect(await data('/?type=city_name&start_date=2026-03-10&end_date=2026-10-25')).toEqual([
        { country_code: 'DE', country_name: 'Germany', city_name: 'Berlin', pageviews: 5 },
        { country_code: 'GB', country_name: 'United Kingdom', city_name: 'London', pageviews: 3 },
        {
          country_code: 'US',
          country_name: 'United States',
          city_name: 'Mountain View',
          pageviews: 1,
        },
      ]);
      expect(await of('type=country_code&start_date=2026-03-30&end_date=2026-10-24')).toEqual([]);
      expect(await of('type=country_code&start_date=2026-03-01&end_date=2026-10-31')).toEqual([
        { country_code: 'DE', pageviews: 6 },
      ]);
    });

    it('picks months within two years and years beyond, zero-filled, or the period asked for', async () => {
      expect(await of('start_date=2026-01-01&end_date=2026-12-31')).toEqual(
        Array.from({ length: 12 }, (_, m) => {
          const month = `2026-${String(m + 1).padStart(2, '0')}`;
          const counts = month === '2026-10' ? [4, 4] : month === '2026-03' ? [2, 0] : [0, 0];
          return { pageviews: counts[0], visitors: counts[1], formatted_date: month };
        }),
      );
      expect(await of('start_date=2024-06-01&end_date=2026-12-31')).toEqual([
        { pageviews: 0, visitors: 0, formatted_date: '2024' },
        { pageviews: 0, visitors: 0, formatted_date: '2025' },
        { pageviews: 6, visitors: 4, formatted_date: '2026' },
      ]);
      expect(await of('start_date=2026-10-01&end_date=2026-11-30&granularity=month')).toEqual([
        { pageviews: 4, visitors: 4, formatted_date: '2026-10' },
        { pageviews: 0, visitors: 0, formatted_date: '2026-11' },
      ]);
      expect(await of('start_date=2026-10-25&end_date=2026-10-25&granularity=year')).toEqual([
        { pageviews: 3, visitors: 3, formatted_date: '2026' },
      ]);
      const twoMonths = await of('start_date=2026-09-01&end_date=2026-11-01');
      expect([twoMonths.length, twoMonths[0].formatted_date]).toEqual([62, '2026-09-01']);
      const longer = await of('start_date=2026-09-01&end_date=2026-11-02');
      expect(longer.map((r) => r.formatted_date)).toEqual(['2026-09', '2026-10', '2026-11']);
    });

    it('takes a link out of the account totals when it is deleted', async () => {
      const doomed = await create('/v1/links', {
        location_url: 'https://example.com/d',
        url: 'st-doomed',
      });
      await record(doomed, ['2026-10-25T12:00:00Z', '2026-10-25T12:10:00Z']);
      const day = '&start_date=2026-10-25&end_date=2026-10-25&granularity=day';
      expect(await data(`/?x=1${day}`)).toEqual([
        { pageviews: 5, visitors: 5, formatted_date: '2026-10-25' },
      ]);
      const res = await t.http.delete(`/v1/links/${doomed}`).set('Authorization', owner.auth);
      expect(res.status).toBe(200);
      expect(await data(`/?x=1${day}`)).toEqual([
        { pageviews: 3, visitors: 3, formatted_date: '2026-10-25' },
      ]);
      expect(await data(`/?type=city_name${day}`)).toEqual([
        { country_code: 'DE', country_name: 'Germany', city_name: 'Berlin', pageviews: 3 },
      ]);
    });
  });

  describe('deleting links while visits are written', () => {
    it('keeps the account totals equal to the sum of its remaining links', async () => {
      const user = await t.createUser();
      const ids = await createLinks(user, 12, 'st-race');
      const batch = (links: number[], round: number): NewVisit[] =>
        links.flatMap((link, i) =>
          Array.from({ length: 20 }, (_, j) => ({
            link_id: link,
            datetime: new Date(Date.now() - ((i * 7 + j * 13 + round) % 48) * 900_000),
            referrer_host: null,
            referrer_path: null,
            utm_source: `s${(i + j) % 5}`,
            utm_medium: null,
            utm_campaign: null,
            continent_code: 'EU',
            country_code: ['DE', 'FR', 'GB'][j % 3],
            city_name: null,
            os_name: 'Linux',
            browser_name: 'Firefox',
            device_type: 'desktop',
            browser_language: 'de',
            is_unique: j % 2 === 0,
            visitor_hash: '0'.repeat(32),
            bot: null,
            qr_code_id: null,
          })),
        );
      const write = (rows: NewVisit[]) => writeRetrying(user, rows);
      let alive = [...ids];
      for (let round = 0; round < 5; round += 1) {
        const doomed = alive.slice(0, 2);
        const results = await Promise.all([
          write(batch(alive.slice(0, 6), round)),
          write(batch(alive.slice(3), round)),
          ...doomed.map((id) =>
            t.http
              .delete(`/v1/links/${id}`)
              .set('Authorization', user.auth)
              .then((r) => r.status),
          ),
        ]);
        expect(results.slice(2)).toEqual([200, 200]);
        alive = alive.filter((id) => !doomed.includes(id));
      }
      expect(alive).toHaveLength(2);

      const sum = (rows: Row[][], key: string): Record<string, number> => {
        const out: Record<string, number> = {};
        for (const row of rows.flat()) {
          const name = String(row[key]);
          out[name] = (out[name] ?? 0) + (row.pageviews as number);
        }
        return out;
      };
      for (const [type, key] of [
        ['overview&granularity=day', 'formatted_date'],
        ['country_code', 'country_code'],
        ['utm_source', 'utm_source'],
      ]) {
        const account = await data(`/?type=${type}&results_per_page=100`, user);
        const links = await Promise.all(
          alive.map((id) => data(`/${id}?type=${type}&results_per_page=100`, user)),
        );
        expect([type, sum([account], key)]).toEqual([type, sum(links, key)]);
        expect(Object.values(sum([account], key)).reduce((a, b) => a + b, 0)).toBeGreaterThan(0);
      }
      const visitors = (rows: Row[]) => rows.reduce((n, r) => n + (r.visitors as number), 0);
      const accountDays = await data('/?granularity=day', user);
      const linkDays = await Promise.all(alive.map((id) => data(`/${id}?granularity=day`, user)));
      expect(visitors(accountDays)).toBe(linkDays.reduce((n, rows) => n + visitors(rows), 0));
    });
  });

  describe('deleting a link with many visits', () => {
    const visitsOf = async (linkId: number): Promise<number> => {
      const p = currentTestDb() === 'postgres' ? '$1' : '?';
      const rows = await t.dataSource.query<Array<{ n: unknown }>>(
        `SELECT COUNT(*) AS "n" FROM "visits" WHERE "link_id" = ${p}`,
        [linkId],
      );
      return Number(rows[0].n);
    };
    const rollupRowsOf = async (linkId: number): Promise<number> => {
      const p = currentTestDb() === 'postgres' ? '$1' : '?';
      const rows = await t.dataSource.query<Array<{ n: unknown }>>(
        `SELECT (SELECT COUNT(*) FROM "stats_link_quarters" WHERE "link_id" = ${p})
          + (SELECT COUNT(*) FROM "stats_link_dimensions" WHERE "link_id" = ${p})
          + (SELECT COUNT(*) FROM "stats_link_dimension_months" WHERE "link_id" = ${p}) AS "n"`,
        currentTestDb() === 'postgres' ? [linkId] : [linkId, linkId, linkId],
      );
      return Number(rows[0].n);
    };
    const hours = (count: number): string[] =>
      Array.from({ length: count }, (_, i) => `2026-10-20T${String(i).padStart(2, '0')}:00:00Z`);

    it('empties the link of its roll-up rows in chunks, serving requests between them, then deletes it', async () => {
      const user = await t.createUser();
      const other = await t.createUser();
      const [doomed, kept] = await createLinks(user, 2, 'st-many');
      const [others] = await createLinks(other, 1, 'st-many-other');
      await record(doomed, hours(12));
      await record(kept, hours(3));
      await record(others, hours(5));

      expect(await visitsOf(doomed)).toBe(12);
      // (Its raw visits, which a deletion empties first in chunks on SQLite: see
      // test/medium/link-visits.db-spec.ts.)
      const connection = sqliteConnection(t.dataSource);
      // Its roll-up rows, taken out of the account's: chunks of 2 rows a transaction.
      const account = '/?type=country_code&start_date=2026-10-19&end_date=2026-10-21';
      const days = '/?start_date=2026-10-19&end_date=2026-10-21&granularity=day';
      expect((await data(account, user)).map((r) => r.pageviews)).toEqual([15]);
      const rows = await rollupRowsOf(doomed);
      expect(rows).toBeGreaterThan(12);
      expect(await subtractLinkInChunks(t.app.get(Db), other.id, doomed, 2)).toBe(0);
      const turned: { rows?: unknown } = {};
      setImmediate(() => {
        turned.rows = connection
          ?.prepare('SELECT COUNT(*) FROM "stats_link_quarters" WHERE "link_id" = ?')
          .pluck()
          .get(doomed);
      });
      const subtracted = await subtractLinkInChunks(t.app.get(Db), user.id, doomed, 2);
      if (currentTestDb() === 'sqlite') {
        // 12 quarter rows: the event loop turned after the first 2.
        expect({ subtracted, turned: turned.rows, left: await rollupRowsOf(doomed) }).toEqual({
          subtracted: rows,
          turned: 10,
          left: 0,
        });
        // The account is the kept link alone, in every table.
        expect((await data(account, user)).map((r) => r.pageviews)).toEqual([3]);
        expect((await data(days, user)).reduce((sum, r) => sum + Number(r.pageviews), 0)).toBe(3);
      } else {
        expect({ subtracted, left: await rollupRowsOf(doomed) }).toEqual({
          subtracted: 0,
          left: rows,
        });
      }

      const res = await t.http.delete(`/v1/links/${doomed}`).set('Authorization', user.auth);
      expect(res.status).toBe(200);
      expect([await visitsOf(doomed), await visitsOf(kept), await visitsOf(others)]).toEqual([
        0, 3, 5,
      ]);
      expect((await data(account, user)).map((r) => r.pageviews)).toEqual([3]);
      expect((await data(account, other)).map((r) => r.pageviews)).toEqual([5]);
      // Another owner's link id answers 404 and keeps its visits.
      const refused = await t.http.delete(`/v1/links/${others}`).set('Authorization', user.auth);
      expect(refused.status).toBe(404);
      expect(await visitsOf(others)).toBe(5);
    });
  });

  describe('closed months', () => {
    const FEBRUARY_2026 = 673;
    const MARCH_2026 = 674;
    const p = (n: number): string => (currentTestDb() === 'postgres' ? `$${n}` : '?');
    const setMark = (month: number) =>
      t.dataSource.query(`UPDATE "stats_closed_months" SET "months_closed_through" = ${p(1)}`, [
        month,
      ]);
    const userMonthRows = (userId: number, month: number) =>
      t.dataSource.query<Row[]>(
        `SELECT "dimension", "value1", "value2", "value3", "pageviews" FROM "stats_user_dimension_months"
          WHERE "user_id" = ${p(1)} AND "month" = ${p(2)} AND "pageviews" <> 0
          ORDER BY "dimension", "value1", "value2", "value3"`,
        [userId, month],
      );
    /** The user's day rows of March 2026, summed per value: what its month rows must hold. */
    const marchFromDays = (userId: number) =>
      t.dataSource.query<Row[]>(
        `SELECT "dimension", "value1", "value2", "value3", SUM("pageviews") AS "pageviews"
          FROM "stats_user_dimensions" WHERE "user_id" = ${p(1)} AND "day" >= ${p(2)} AND "day" <= ${p(3)}
          GROUP BY "dimension", "value1", "value2", "value3" HAVING SUM("pageviews") <> 0
          ORDER BY "dimension", "value1", "value2", "value3"`,
        [userId, Date.UTC(2026, 2, 1) / 86_400_000, Date.UTC(2026, 2, 31) / 86_400_000],
      );
    const numbers = (rows: Row[]): Row[] =>
      rows.map((r) => ({ ...r, pageviews: Number(r.pageviews) }));

    afterAll(async () => {
      // As after the migration: every month a visit can be in so far is closed again.
      const db = t.app.get(Db);
      await db.write(async () => {
        for (let m = await monthsClosedThrough(db.manager); m < latestMonth(Date.now()); m += 1) {
          expect(await closeMonth(db, m + 1)).toBe(true);
        }
      });
    });

    it('reads open months from the day rows and closes them into their sums', async () => {
      const user = await t.createUser();
      const link = await create(
        '/v1/links',
        { location_url: 'https://example.com/c', url: 'st-cm-a' },
        user,
      );
      const other = await create(
        '/v1/links',
        { location_url: 'https://example.com/c', url: 'st-cm-b' },
        user,
      );
      await setMark(FEBRUARY_2026);
      await record(link, ['2026-03-05T10:00:00Z', '2026-03-20T10:00:00Z', '2026-04-02T10:00:00Z']);
      await record(other, ['2026-03-31T23:00:00Z', '2026-02-10T10:00:00Z']);
      // Open months get day rows only; February, closed, gets its month rows as before.
      expect(await userMonthRows(user.id, MARCH_2026)).toEqual([]);
      expect(numbers(await userMonthRows(user.id, FEBRUARY_2026))).toContainEqual({
        dimension: 'country_code',
        value1: 'DE',
        value2: '',
        value3: '',
        pageviews: 1,
      });
      const queries = [
        '/?type=country_code&start_date=2026-01-01&end_date=2026-12-31',
        '/?type=city_name&start_date=2026-03-01&end_date=2026-03-31',
        `/${link}?type=os_name&start_date=2026-03-01&end_date=2026-04-30`,
      ];
      const read = () => Promise.all(queries.map((q) => data(q, user)));
      const before = await read();
      expect(before.map((rows) => rows.map((r) => r.pageviews))).toEqual([[5], [3], [3]]);

      // 15 April: March has ended everywhere, April has not.
      at('2026-04-15T00:00:00Z');
      expect(await t.app.get(StatisticsMonthsJob).closeEnded()).toBe(1);
      jest.useRealTimers();
      expect(await monthsClosedThrough(t.dataSource.manager)).toBe(MARCH_2026);
      const march = numbers(await userMonthRows(user.id, MARCH_2026));
      expect(march).toEqual(numbers(await marchFromDays(user.id)));
      expect(march).toContainEqual({
        dimension: 'country_code',
        value1: 'DE',
        value2: '',
        value3: '',
        pageviews: 3,
      });
      expect(await read()).toEqual(before);

      // A late visit of March, after the close, adds to its month rows too.
      await record(link, ['2026-03-06T10:00:00Z']);
      expect(numbers(await userMonthRows(user.id, MARCH_2026))).toEqual(
        numbers(await marchFromDays(user.id)),
      );
      expect((await read()).map((rows) => rows.map((r) => r.pageviews))).toEqual([[6], [4], [4]]);

      // Deleting a link takes it out of the closed month's account rows as well.
      const gone = await t.http.delete(`/v1/links/${other}`).set('Authorization', user.auth);
      expect(gone.status).toBe(200);
      expect(numbers(await userMonthRows(user.id, MARCH_2026))).toEqual(
        numbers(await marchFromDays(user.id)),
      );
      expect((await read()).map((rows) => rows.map((r) => r.pageviews))).toEqual([[4], [3], [4]]);

      // Closing is done once: a second run, or a closed month, changes nothing.
      at('2026-04-15T00:00:00Z');
      expect(await t.app.get(StatisticsMonthsJob).closeEnded()).toBe(0);
      jest.useRealTimers();
      expect(await t.app.get(Db).write(() => closeMonth(t.app.get(Db), MARCH_2026))).toBe(false);
    });

    it('serves requests between the statements of a close, which read the month right meanwhile', async () => {
      const user = await t.createUser();
      const links = await createLinks(user, 4, 'st-cm-turns');
      // One link far up the id range: at one owner a statement, the close below then takes
      // thousands of statements and turns of the event loop, enough for requests whose reads go
      // through the SQLite reader thread to finish meanwhile even on a busy machine.
      const [far] = await createLinks(user, 1, 'st-cm-far');
      await t.dataSource.query(
        currentTestDb() === 'postgres'
          ? 'UPDATE "links" SET "id" = "id" + 5000 WHERE "id" = $1'
          : 'UPDATE "links" SET "id" = "id" + 5000 WHERE "id" = ?',
        [far],
      );
      await setMark(FEBRUARY_2026);
      for (const [i, link] of links.entries()) {
        await record(link, ['2026-03-02T10:00:00Z', `2026-03-1${i}T10:00:00Z`]);
      }
      const query = '/?type=country_code&start_date=2026-03-01&end_date=2026-03-31';
      const before = await data(query, user);
      expect(before.map((r) => r.pageviews)).toEqual([8]);
      let closing = true;
      // One link (or user) a statement: a close of many statements.
      const close = t.app
        .get(Db)
        .write(() => closeMonth(t.app.get(Db), MARCH_2026, 1))
        .finally(() => (closing = false));
      const during: Row[][] = [];
      // A few are enough; asking all along the close would run into the key's rate limit.
      while (closing && during.length < 10) {
        const rows = await data(query, user);
        if (closing) during.push(rows);
      }
      expect(await close).toBe(true);
      if (currentTestDb() === 'sqlite') {
        // The close runs on the event loop there: requests were answered while it ran.
        expect(during.length).toBeGreaterThan(0);
      }
      expect(during).toEqual(during.map(() => before));
      expect(await data(query, user)).toEqual(before);
      expect(numbers(await userMonthRows(user.id, MARCH_2026))).toEqual(
        numbers(await marchFromDays(user.id)),
      );
    });

    it('closes a month while its visits are written and its links deleted, to the exact sums', async () => {
      const user = await t.createUser();
      const links = await createLinks(user, 6, 'st-cm-race');
      await setMark(FEBRUARY_2026);
      const march = (round: number, ids: number[]): NewVisit[] =>
        ids.flatMap((id, i) =>
          visitRows(
            id,
            Array.from(
              { length: 15 },
              (_, j) => `2026-03-${String(1 + ((i + j + round) % 31)).padStart(2, '0')}T12:00:00Z`,
            ),
          ),
        );
      await writeRetrying(user, march(0, links));
      const results = await Promise.all([
        writeRetrying(user, march(1, links)),
        t.http
          .delete(`/v1/links/${links[0]}`)
          .set('Authorization', user.auth)
          .then((r) => r.status),
        t.app.get(Db).write(() => closeMonth(t.app.get(Db), MARCH_2026)),
        writeRetrying(user, march(2, links.slice(2))),
        t.http
          .delete(`/v1/links/${links[1]}`)
          .set('Authorization', user.auth)
          .then((r) => r.status),
        writeRetrying(user, march(3, links.slice(3))),
      ]);
      expect(results).toEqual([undefined, 200, true, undefined, 200, undefined]);
      const month = numbers(await userMonthRows(user.id, MARCH_2026));
      expect(month).toEqual(numbers(await marchFromDays(user.id)));
      // 15 visits of each link a round: rounds 0 and 1 of the 4 links kept, round 2 of those 4
      // (links 2 to 5), round 3 of links 3 to 5.
      expect(month.find((r) => r.dimension === 'country_code')?.pageviews).toBe(
        15 * (4 + 4 + 4 + 3),
      );
      const linkMonths = await t.dataSource.query<Row[]>(
        `SELECT "link_id", SUM("pageviews") AS "pageviews" FROM "stats_link_dimension_months"
          WHERE "month" = ${p(1)} AND "dimension" = 'country_code' AND "link_id" IN (${links.map((id) => Number(id)).join(', ')})
          GROUP BY "link_id" ORDER BY "link_id"`,
        [MARCH_2026],
      );
      expect(numbers(linkMonths).map((r) => [Number(r.link_id), r.pageviews])).toEqual([
        [links[2], 45],
        [links[3], 60],
        [links[4], 60],
        [links[5], 60],
      ]);
    });
  });

  describe('the roll-up migration', () => {
    it('rebuilds the same statistics from the stored visits', async () => {
      const queries = [
        '/?start_date=2026-01-01&end_date=2026-12-31&granularity=day',
        '/?start_date=2026-03-10&end_date=2026-03-10',
        '/?type=city_name&start_date=2026-01-01&end_date=2026-12-31&results_per_page=100',
        '/?type=referrer_path&referrer_host=news.example.org&start_date=2026-03-01&end_date=2026-03-31',
        '/?type=utm_campaign&utm_source=tw&utm_medium=social&start_date=2026-03-10&end_date=2026-03-10',
        '/?type=hour&start_date=2026-01-01&end_date=2026-12-31',
      ];
      const before = await Promise.all(queries.map((q) => data(q)));
      expect(before.flat().some((r) => (r.pageviews as number) > 0)).toBe(true);

      const applied = async (): Promise<string[]> =>
        (await t.dataSource.query<Array<{ name: string }>>('SELECT name FROM migrations')).map(
          (m) => m.name,
        );
      while ((await applied()).includes('StatisticsRollups1764200000000')) {
        await revertLastMigration(t.dataSource);
      }
      await runMigrations(t.dataSource);
      expect(await applied()).toContain('StatisticsRollups1764200000000');

      expect(await Promise.all(queries.map((q) => data(q)))).toEqual(before);
    });

    it('adds the month tables, summed from the day tables, and leaves them alone where they exist', async () => {
      // Whole months of 2026 come from the month tables, the days around them from the day tables.
      const [{ id: linkA }] = await t.dataSource.query<Array<{ id: number }>>(
        `SELECT "id" FROM "links" WHERE "url" = 'st-a'`,
      );
      const queries = [
        '/?type=city_name&start_date=2026-01-01&end_date=2026-12-31&results_per_page=100',
        '/?type=country_code&start_date=2026-02-15&end_date=2026-11-10',
        '/?type=referrer_host&start_date=2026-01-01&end_date=2026-12-31',
        `/${linkA}?type=os_name&start_date=2026-01-01&end_date=2026-12-31`,
      ];
      const before = await Promise.all(queries.map((q) => data(q)));
      expect(before.flat().some((r) => (r.pageviews as number) > 0)).toBe(true);
      const monthRows = () =>
        t.dataSource.query<Array<{ n: unknown }>>(
          'SELECT COUNT(*) AS "n" FROM "stats_user_dimension_months"',
        );
      const rows = Number((await monthRows())[0].n);
      expect(rows).toBeGreaterThan(0);
      const applied = async (): Promise<string[]> =>
        (await t.dataSource.query<Array<{ name: string }>>('SELECT name FROM migrations')).map(
          (m) => m.name,
        );

      // A database migrated before the month tables existed.
      while ((await applied()).includes('StatisticsMonthRollups1764500000000')) {
        await revertLastMigration(t.dataSource);
      }
      await expect(monthRows()).rejects.toThrow();
      await runMigrations(t.dataSource);
      expect(Number((await monthRows())[0].n)).toBe(rows);
      expect(await Promise.all(queries.map((q) => data(q)))).toEqual(before);

      // A database whose roll-up migration created (and filled) the month tables itself.
      await t.dataSource.query(
        `DELETE FROM migrations WHERE name = 'StatisticsMonthRollups1764500000000'`,
      );
      await runMigrations(t.dataSource);
      expect(await applied()).toContain('StatisticsMonthRollups1764500000000');
      expect(Number((await monthRows())[0].n)).toBe(rows);
      expect(await Promise.all(queries.map((q) => data(q)))).toEqual(before);
    });
  });

  describe('bad requests', () => {
    async function problems(query: string): Promise<unknown> {
      const res = await stats(query);
      expect([query, res.status]).toEqual([query, 400]);
      return (res.body as { errors: unknown }).errors;
    }
    const problem = (field: string, title: string) => ({
      status: 400,
      title,
      field,
      code: 'validation_failed',
    });

    it('names an unknown type and each missing companion parameter', async () => {
      expect(await problems('/?type=visits')).toEqual([
        problem(
          'type',
          'type must be one of: overview, referrer_host, referrer_path, continent_code, country_code, city_name, os_name, browser_name, device_type, browser_language, utm_source, utm_medium, utm_campaign, bots, qr_codes, hour.',
        ),
      ]);
      expect(await problems('/?type=referrer_path')).toEqual([
        problem('referrer_host', 'referrer_host is required for type=referrer_path.'),
      ]);
      expect(await problems('/?type=utm_medium')).toEqual([
        problem('utm_source', 'utm_source is required for type=utm_medium.'),
      ]);
      expect(await problems('/?type=utm_campaign')).toEqual([
        problem('utm_source', 'utm_source is required for type=utm_campaign.'),
        problem('utm_medium', 'utm_medium is required for type=utm_campaign.'),
      ]);
      expect(await problems('/?type=city_name&country_code=Germany')).toEqual([
        problem('country_code', 'country_code must be a two-letter ISO 3166 country code.'),
      ]);
    });

    it('refuses bad dates, an end before the start, a bad zone and a bad period', async () => {
      expect(await problems('/?start_date=2026-02-30&end_date=yesterday')).toEqual([
        problem('end_date', 'end_date must be a date as Y-m-d.'),
        problem('start_date', 'start_date must be a date as Y-m-d.'),
      ]);
      expect(await problems('/?start_date=2026-03-10&end_date=2026-03-09')).toEqual([
        problem('end_date', 'end_date must not be before start_date.'),
      ]);
      expect(await problems('/?timezone=Mars/Olympus')).toEqual([
        problem('timezone', 'timezone must be an IANA time zone such as Europe/Berlin.'),
      ]);
      expect(await problems('/?granularity=week')).toEqual([
        problem('granularity', 'granularity must be one of: hour, day, month, year.'),
      ]);
      expect(
        await problems('/?granularity=hour&start_date=2026-01-01&end_date=2026-02-01'),
      ).toEqual([problem('granularity', 'granularity=hour covers at most 31 days.')]);
      expect(await problems('/?start_date=2000-01-01&end_date=2026-01-01')).toEqual([
        problem('start_date', 'The range may cover at most 3660 days.'),
      ]);
      expect(await problems('/?link_id=abc&project_id=-1')).toEqual([
        problem('link_id', 'link_id must be a positive whole number.'),
        problem('project_id', 'project_id must be a positive whole number.'),
      ]);
    });

    it('refuses dates before 1970, ids beyond the id range, and a start after today without an end', async () => {
      expect(
        await problems('/?start_date=0100-01-01&end_date=0100-01-01&timezone=America/New_York'),
      ).toEqual([
        problem('end_date', 'end_date must be 1970-01-01 or later.'),
        problem('start_date', 'start_date must be 1970-01-01 or later.'),
      ]);
      expect(await problems('/?start_date=1969-12-31&end_date=1970-01-01')).toEqual([
        problem('start_date', 'start_date must be 1970-01-01 or later.'),
      ]);
      expect(await problems('/?link_id=2147483648&project_id=9999999999')).toEqual([
        problem('link_id', 'link_id must be a positive whole number.'),
        problem('project_id', 'project_id must be a positive whole number.'),
      ]);
      expect(await problems('/?start_date=2999-01-01')).toEqual([
        problem('start_date', 'start_date must not be after today (the default end_date).'),
      ]);
    });

    it('answers a page far past the end with no rows, and ignores granularity on breakdowns', async () => {
      const far = await stats('/?type=country_code&page=9007199254740991');
      expect(far.status).toBe(200);
      expect(far.body).toMatchObject({
        data: [],
        meta: { page: 9007199254740991, results_per_page: 25 },
      });
      const range = '&start_date=2026-01-01&end_date=2026-12-31';
      expect(await data(`/?type=country_code&granularity=hour${range}`)).toEqual(
        await data(`/?type=country_code${range}`),
      );
    });

    it('refuses a bad link id in the path', async () => {
      expect(await stats('/abc')).toEqual({
        status: 404,
        body: {
          errors: [
            {
              status: 404,
              title: 'The link you are looking for does not exist.',
              code: 'link_not_found',
            },
          ],
        },
      });
    });
  });
});
