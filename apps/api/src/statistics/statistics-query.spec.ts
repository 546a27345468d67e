import { thrownEntries } from '@app/testing/app-error-entries';
import { readStatisticsQuery } from './statistics-query';

// 2026-03-10 23:30 UTC: already 2026-03-11 in Berlin.
const NOW = new Date(Date.UTC(2026, 2, 10, 23, 30));
const DAY_2026_03_10 = Date.UTC(2026, 2, 10) / 86_400_000;

function problem(field: string, title: string) {
  return { status: 400, title, field, code: 'validation_failed' };
}

function entriesOf(query: Record<string, unknown>, zone = 'UTC') {
  return thrownEntries(() => readStatisticsQuery(query, zone, NOW));
}

describe(readStatisticsQuery.name, () => {
  it('reads an empty query as the overview of the last 30 days in the account zone', () => {
    expect(readStatisticsQuery({}, 'UTC', NOW)).toEqual({
      type: 'overview',
      zone: 'UTC',
      firstDay: DAY_2026_03_10 - 29,
      lastDay: DAY_2026_03_10,
      granularity: 'day',
      linkId: null,
      projectId: null,
      companions: {},
      page: 1,
      resultsPerPage: 25,
    });
    expect(readStatisticsQuery({}, 'Europe/Berlin', NOW).lastDay).toBe(DAY_2026_03_10 + 1);
    expect(readStatisticsQuery({}, 'Not/AZone', NOW).zone).toBe('UTC');
  });

  it('reads every parameter, trimmed, with companions normalised', () => {
    expect(
      readStatisticsQuery(
        {
          type: ' city_name ',
          timezone: 'Europe/Berlin',
          start_date: '2026-03-01',
          end_date: '2026-03-02',
          link_id: ' 7 ',
          project_id: '0',
          country_code: 'de',
          referrer_host: 'Ignored.example',
          page: '2',
          results_per_page: '10',
          unknown: 'x',
        },
        'UTC',
        NOW,
      ),
    ).toEqual({
      type: 'city_name',
      zone: 'Europe/Berlin',
      firstDay: DAY_2026_03_10 - 9,
      lastDay: DAY_2026_03_10 - 8,
      granularity: 'day',
      linkId: 7,
      projectId: 0,
      companions: { country_code: 'DE' },
      page: 2,
      resultsPerPage: 10,
    });
  });

  it('reports every problem at once, in the order of the parameters', () => {
    expect(
      entriesOf({
        type: 'visits',
        timezone: 'Mars/Olympus',
        start_date: '2026-02-30',
        end_date: 'yesterday',
        granularity: 'week',
        link_id: '0',
        project_id: '-1',
        page: ' 2',
        results_per_page: '7',
      }),
    ).toEqual([
      problem(
        'type',
        'type must be one of: overview, referrer_host, referrer_path, continent_code, country_code, city_name, os_name, browser_name, device_type, browser_language, utm_source, utm_medium, utm_campaign, bots, qr_codes, hour.',
      ),
      problem('timezone', 'timezone must be an IANA time zone such as Europe/Berlin.'),
      problem('end_date', 'end_date must be a date as Y-m-d.'),
      problem('start_date', 'start_date must be a date as Y-m-d.'),
      problem('granularity', 'granularity must be one of: hour, day, month, year.'),
      problem('link_id', 'link_id must be a positive whole number.'),
      problem('project_id', 'project_id must be a positive whole number.'),
      problem('page', 'page must be a whole number of 1 or more.'),
      problem(
        'results_per_page',
        'results_per_page must be one of 10, 25, 50, 100, 250, 500, 1000.',
      ),
    ]);
  });

  it('names a parameter given more than once among the other problems', () => {
    expect(entriesOf({ type: ['hour', 'bots'], start_date: 'x' })).toEqual([
      problem('type', 'type must be a string.'),
      problem('start_date', 'start_date must be a date as Y-m-d.'),
    ]);
  });

  it('ends a range without end_date today in the zone of the query, or else of the account', () => {
    const tomorrowUtc = { start_date: '2026-03-11' };
    expect(entriesOf(tomorrowUtc)).toEqual([
      problem('start_date', 'start_date must not be after today (the default end_date).'),
    ]);
    expect(readStatisticsQuery(tomorrowUtc, 'Europe/Berlin', NOW).firstDay).toBe(
      DAY_2026_03_10 + 1,
    );
    expect(
      readStatisticsQuery({ ...tomorrowUtc, timezone: 'Europe/Berlin' }, 'UTC', NOW).lastDay,
    ).toBe(DAY_2026_03_10 + 1);
    expect(entriesOf({ start_date: '2026-02-07', granularity: 'hour' })).toEqual([
      problem('granularity', 'granularity=hour covers at most 31 days.'),
    ]);
    expect(
      readStatisticsQuery(
        { start_date: '2026-02-07', granularity: 'hour', type: 'hour' },
        'UTC',
        NOW,
      ).granularity,
    ).toBe('hour');
  });

  it('refuses an end before the start on end_date, a range too long on start_date', () => {
    expect(entriesOf({ start_date: '2026-03-10', end_date: '2026-03-09' })).toEqual([
      problem('end_date', 'end_date must not be before start_date.'),
    ]);
    expect(entriesOf({ start_date: '2000-01-01', end_date: 'x' })).toEqual([
      problem('end_date', 'end_date must be a date as Y-m-d.'),
      problem('start_date', 'The range may cover at most 3660 days.'),
    ]);
  });

  it('requires the companions of a breakdown, and checks country_code only where it is read', () => {
    expect(entriesOf({ type: 'utm_campaign', utm_medium: ' ' })).toEqual([
      problem('utm_source', 'utm_source is required for type=utm_campaign.'),
      problem('utm_medium', 'utm_medium is required for type=utm_campaign.'),
    ]);
    expect(entriesOf({ type: 'city_name', country_code: 'Germany' })).toEqual([
      problem('country_code', 'country_code must be a two-letter ISO 3166 country code.'),
    ]);
    expect(readStatisticsQuery({ country_code: 'Germany' }, 'UTC', NOW).companions).toEqual({});
  });
});
