import { firstDayOfMonth, monthOfDay, rollUp } from './rollups';
import type { NewVisit } from './visit-columns';

function visit(overrides: Partial<NewVisit>): NewVisit {
  return {
    link_id: 1,
    datetime: new Date('2026-10-24T22:40:00Z'),
    referrer_host: null,
    referrer_path: null,
    utm_source: null,
    utm_medium: null,
    utm_campaign: null,
    continent_code: 'EU',
    country_code: 'DE',
    city_name: null,
    os_name: 'Linux',
    browser_name: 'Firefox',
    device_type: 'desktop',
    browser_language: 'de',
    is_unique: true,
    visitor_hash: 'x',
    bot: null,
    qr_code_id: null,
    ...overrides,
  };
}

const BERLIN = new Map([
  [1, { userId: 7, timeZone: 'Europe/Berlin' }],
  [2, { userId: 7, timeZone: 'Europe/Berlin' }],
]);
// 2026-10-24T22:40Z is 00:40 on 25 October in Berlin: day 20751 there, 20750 in UTC.
const BERLIN_DAY = 20751;
const BUCKET = Math.floor(Date.parse('2026-10-24T22:40:00Z') / 900_000);

describe(rollUp.name, () => {
  it('sums a batch per quarter hour, per link and per account', () => {
    const rollups = rollUp(
      [
        visit({}),
        visit({ is_unique: false }),
        visit({ link_id: 2 }),
        visit({ link_id: 2, datetime: new Date('2026-10-24T22:45:00Z') }),
        visit({ link_id: 3 }), // deleted meanwhile: no owner
      ],
      BERLIN,
      Infinity,
    );
    expect(rollups.linkQuarters).toEqual([
      { scope: 1, bucket: BUCKET, pageviews: 2, visitors: 1 },
      { scope: 2, bucket: BUCKET, pageviews: 1, visitors: 1 },
      { scope: 2, bucket: BUCKET + 1, pageviews: 1, visitors: 1 },
    ]);
    expect(rollups.userQuarters).toEqual([
      { scope: 7, bucket: BUCKET, pageviews: 3, visitors: 2 },
      { scope: 7, bucket: BUCKET + 1, pageviews: 1, visitors: 1 },
    ]);
  });

  it("adds every dimension under the owner's local day, nested values outermost first", () => {
    const rollups = rollUp(
      [
        visit({
          referrer_host: 'news.example',
          referrer_path: '/a',
          utm_source: 'tw',
          utm_campaign: 'fall',
          city_name: 'Berlin',
        }),
        visit({ browser_language: null }),
      ],
      BERLIN,
      Infinity,
    );
    const row = (dimension: string, value1: string, value2 = '', value3 = '', pageviews = 1) => ({
      scope: 1,
      dimension,
      period: BERLIN_DAY,
      value1,
      value2,
      value3,
      pageviews,
    });
    expect(rollups.linkDimensions).toEqual([
      row('browser_language', ''),
      row('browser_language', 'de'),
      row('browser_name', 'Firefox', '', '', 2),
      row('city_name', 'DE'),
      row('city_name', 'DE', 'Berlin'),
      row('continent_code', 'EU', '', '', 2),
      row('country_code', 'DE', '', '', 2),
      row('device_type', 'desktop', '', '', 2),
      row('os_name', 'Linux', '', '', 2),
      row('referrer_host', ''),
      row('referrer_host', 'news.example'),
      row('referrer_path', 'news.example', '/a'),
      row('utm_campaign', 'tw', '', 'fall'),
      row('utm_medium', 'tw'),
      row('utm_source', 'tw'),
    ]);
    expect(rollups.userDimensions).toEqual(rollups.linkDimensions.map((r) => ({ ...r, scope: 7 })));
  });

  it("counts a bot's visits under bots only, and a scan under qr_codes besides the rest", () => {
    const bot = (family: string) =>
      visit({ bot: family, is_unique: false, country_code: null, continent_code: null });
    const rollups = rollUp(
      [visit({ qr_code_id: 12 }), visit({}), bot('curl'), bot('curl'), bot('Slackbot')],
      BERLIN,
      BERLIN_DAY,
    );
    const row = (dimension: string, value1: string, pageviews = 1, period = BERLIN_DAY) => ({
      scope: 1,
      dimension,
      period,
      value1,
      value2: '',
      value3: '',
      pageviews,
    });
    // Only the two visitors' visits: the bots add no pageviews and no visitors.
    expect(rollups.linkQuarters).toEqual([{ scope: 1, bucket: BUCKET, pageviews: 2, visitors: 2 }]);
    expect(rollups.userQuarters).toEqual([{ scope: 7, bucket: BUCKET, pageviews: 2, visitors: 2 }]);
    expect(rollups.linkDimensions).toEqual([
      row('bots', 'Slackbot'),
      row('bots', 'curl', 2),
      row('browser_language', 'de', 2),
      row('browser_name', 'Firefox', 2),
      row('city_name', 'DE', 2),
      row('continent_code', 'EU', 2),
      row('country_code', 'DE', 2),
      row('device_type', 'desktop', 2),
      row('os_name', 'Linux', 2),
      row('qr_codes', '12'),
      row('referrer_host', '', 2),
    ]);
    expect(rollups.userDimensions).toEqual(rollups.linkDimensions.map((r) => ({ ...r, scope: 7 })));
    // A closed month gets the same rows per month (a late visit, written after the close).
    expect(rollUp([bot('curl'), visit({ qr_code_id: 12 })], BERLIN, Infinity).linkMonths).toEqual(
      expect.arrayContaining([row('bots', 'curl', 1, 681), row('qr_codes', '12', 1, 681)]),
    );
  });

  it('counts days in UTC for an unknown stored zone', () => {
    const rollups = rollUp(
      [visit({})],
      new Map([[1, { userId: 7, timeZone: 'Nowhere/Null' }]]),
      Infinity,
    );
    expect(new Set(rollups.linkDimensions.map((r) => r.period))).toEqual(new Set([BERLIN_DAY - 1]));
  });
});

describe('rollUp and closed months', () => {
  it('adds month rows only for months up to the last closed one; day rows for every month', () => {
    // 25 October and 2 November 2026 in Berlin: months 681 and 682.
    const visits = [visit({}), visit({ datetime: new Date('2026-11-02T08:00:00Z') })];
    const all = rollUp(visits, BERLIN, 682);
    const october = rollUp(visits, BERLIN, 681);
    const none = rollUp(visits, BERLIN, 680);
    const periods = (rows: Array<{ period: number }>): number[] => [
      ...new Set(rows.map((r) => r.period)),
    ];
    expect(periods(all.linkMonths)).toEqual([681, 682]);
    expect(periods(october.linkMonths)).toEqual([681]);
    expect(periods(october.userMonths)).toEqual([681]);
    expect(october.linkMonths).toEqual(all.linkMonths.filter((r) => r.period === 681));
    expect([none.linkMonths, none.userMonths]).toEqual([[], []]);
    // The rest does not depend on the mark.
    for (const rollups of [october, none]) {
      expect([
        rollups.linkQuarters,
        rollups.userQuarters,
        rollups.linkDimensions,
        rollups.userDimensions,
      ]).toEqual([all.linkQuarters, all.userQuarters, all.linkDimensions, all.userDimensions]);
    }
    expect(periods(all.linkDimensions)).toEqual([BERLIN_DAY, BERLIN_DAY + 8]);
  });
});

describe('rollUp unsorted (for SQLite)', () => {
  it('gives the same rows as the sorted roll-up, only not in key order', () => {
    const visits = [
      visit({ link_id: 2, country_code: 'FR', utm_source: 'tw' }),
      visit({}),
      visit({ link_id: 2, browser_name: 'Chrome', utm_source: 'tw', utm_medium: 'mail' }),
      visit({ datetime: new Date('2026-11-02T08:00:00Z'), browser_language: null }),
      visit({}),
    ];
    const sorted = rollUp(visits, BERLIN, Infinity);
    const unsorted = rollUp(visits, BERLIN, Infinity, false);
    const key = (row: object): string => JSON.stringify(row);
    for (const table of Object.keys(sorted) as (keyof typeof sorted)[]) {
      expect([table, unsorted[table].map(key).sort()]).toEqual([
        table,
        sorted[table].map(key).sort(),
      ]);
    }
    expect(unsorted.linkDimensions.map(key)).not.toEqual(sorted.linkDimensions.map(key));
  });
});

describe('months', () => {
  const day = (ymd: string): number => Date.parse(`${ymd}T00:00:00Z`) / 86_400_000;

  it('numbers months from January 1970 and finds their first days', () => {
    expect(monthOfDay(day('1970-01-31'))).toBe(0);
    expect(monthOfDay(day('2026-10-25'))).toBe(681);
    expect(firstDayOfMonth(681)).toBe(day('2026-10-01'));
    expect(firstDayOfMonth(682)).toBe(day('2026-11-01'));
  });
});
