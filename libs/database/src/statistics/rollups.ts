import { DAY_MS, localDayNumber, QUARTER_MS, usableTimeZone } from '@app/common';
import type { VisitEntity } from '../visits/visit.entity';

type RolledVisit = Omit<VisitEntity, 'id' | 'link'>;

/** The statistics dimensions other than the time series, as the API names them. */
export const DIMENSIONS = [
  'referrer_host',
  'referrer_path',
  'continent_code',
  'country_code',
  'city_name',
  'os_name',
  'browser_name',
  'device_type',
  'browser_language',
  'utm_source',
  'utm_medium',
  'utm_campaign',
] as const;
export type Dimension = (typeof DIMENSIONS)[number];

type Values = readonly [string, string, string];

const v = (value: string | null): string => value ?? '';

/**
 * The values a visit adds to each dimension, outermost first ('' = none), or null when the
 * dimension does not apply: paths only under a referrer host, and UTM rows only with a source.
 */
const VALUES_OF: Record<Dimension, (visit: RolledVisit) => Values | null> = {
  referrer_host: (x) => [v(x.referrer_host), '', ''],
  referrer_path: (x) => (x.referrer_host ? [x.referrer_host, v(x.referrer_path), ''] : null),
  continent_code: (x) => [v(x.continent_code), '', ''],
  country_code: (x) => [v(x.country_code), '', ''],
  city_name: (x) => [v(x.country_code), v(x.city_name), ''],
  os_name: (x) => [v(x.os_name), '', ''],
  browser_name: (x) => [v(x.browser_name), '', ''],
  device_type: (x) => [v(x.device_type), '', ''],
  browser_language: (x) => [v(x.browser_language), '', ''],
  utm_source: (x) => (x.utm_source ? [x.utm_source, '', ''] : null),
  utm_medium: (x) => (x.utm_source ? [x.utm_source, v(x.utm_medium), ''] : null),
  utm_campaign: (x) => (x.utm_source ? [x.utm_source, v(x.utm_medium), v(x.utm_campaign)] : null),
};

/** Whose a link is, and the zone its visits' days are counted in. */
export interface LinkOwner {
  userId: number;
  timeZone: string;
}

export interface QuarterRow {
  /** link_id or user_id */
  scope: number;
  bucket: number;
  pageviews: number;
  visitors: number;
}

export interface DimensionRow {
  scope: number;
  dimension: Dimension;
  /** The local day (days since 1970-01-01) or month (months since January 1970). */
  period: number;
  value1: string;
  value2: string;
  value3: string;
  pageviews: number;
}

export interface Rollups {
  linkQuarters: QuarterRow[];
  userQuarters: QuarterRow[];
  linkDimensions: DimensionRow[];
  userDimensions: DimensionRow[];
  linkMonths: DimensionRow[];
  userMonths: DimensionRow[];
}

/** The month (months since January 1970) of a day (days since 1970-01-01). */
export function monthOfDay(day: number): number {
  const date = new Date(day * DAY_MS);
  return (date.getUTCFullYear() - 1970) * 12 + date.getUTCMonth();
}

/** The first day of a month (months since January 1970), as days since 1970-01-01. */
export function firstDayOfMonth(month: number): number {
  return Date.UTC(1970 + Math.floor(month / 12), month % 12, 1) / DAY_MS;
}

const SEPARATOR = '\u0000';

/** Local days change only on a quarter hour, so one lookup per zone and quarter is enough. */
class DayCache {
  private readonly days = new Map<string, number>();

  day(zone: string, epochMs: number): number {
    const quarter = Math.floor(epochMs / QUARTER_MS);
    const key = `${zone}${SEPARATOR}${quarter}`;
    let day = this.days.get(key);
    if (day === undefined) {
      day = localDayNumber(zone, quarter * QUARTER_MS);
      this.days.set(key, day);
    }
    return day;
  }
}

function addQuarter(
  rows: Map<string, QuarterRow>,
  scope: number,
  bucket: number,
  unique: boolean,
): void {
  const key = `${scope}${SEPARATOR}${bucket}`;
  const row = rows.get(key);
  if (row) {
    row.pageviews += 1;
    row.visitors += unique ? 1 : 0;
  } else {
    rows.set(key, { scope, bucket, pageviews: 1, visitors: unique ? 1 : 0 });
  }
}

function addDimension(
  rows: Map<string, DimensionRow>,
  scope: number,
  dimension: Dimension,
  period: number,
  values: Values,
): void {
  const key = [scope, dimension, period, ...values].join(SEPARATOR);
  const row = rows.get(key);
  if (row) {
    row.pageviews += 1;
  } else {
    rows.set(key, {
      scope,
      dimension,
      period,
      value1: values[0],
      value2: values[1],
      value3: values[2],
      pageviews: 1,
    });
  }
}

/**
 * What a batch of visits adds to the roll-ups, summed per row so that each row is written once per
 * batch. Visits of links without an owner (deleted meanwhile) are left out. Rows come sorted by
 * key, so that concurrent writers lock them in the same order.
 */
export function rollUp(
  visits: readonly RolledVisit[],
  owners: ReadonlyMap<number, LinkOwner>,
): Rollups {
  const days = new DayCache();
  const linkQuarters = new Map<string, QuarterRow>();
  const userQuarters = new Map<string, QuarterRow>();
  const linkDimensions = new Map<string, DimensionRow>();
  const userDimensions = new Map<string, DimensionRow>();
  const linkMonths = new Map<string, DimensionRow>();
  const userMonths = new Map<string, DimensionRow>();
  const zones = new Map<string, string>();
  for (const visit of visits) {
    const owner = owners.get(visit.link_id);
    if (owner === undefined) {
      continue;
    }
    let zone = zones.get(owner.timeZone);
    if (zone === undefined) {
      zone = usableTimeZone(owner.timeZone);
      zones.set(owner.timeZone, zone);
    }
    const time = visit.datetime.getTime();
    const bucket = Math.floor(time / QUARTER_MS);
    addQuarter(linkQuarters, visit.link_id, bucket, visit.is_unique);
    addQuarter(userQuarters, owner.userId, bucket, visit.is_unique);
    const day = days.day(zone, time);
    const month = monthOfDay(day);
    for (const dimension of DIMENSIONS) {
      const values = VALUES_OF[dimension](visit);
      if (values !== null) {
        addDimension(linkDimensions, visit.link_id, dimension, day, values);
        addDimension(userDimensions, owner.userId, dimension, day, values);
        addDimension(linkMonths, visit.link_id, dimension, month, values);
        addDimension(userMonths, owner.userId, dimension, month, values);
      }
    }
  }
  return {
    linkQuarters: sortedQuarters(linkQuarters),
    userQuarters: sortedQuarters(userQuarters),
    linkDimensions: sortedDimensions(linkDimensions),
    userDimensions: sortedDimensions(userDimensions),
    linkMonths: sortedDimensions(linkMonths),
    userMonths: sortedDimensions(userMonths),
  };
}

function sortedQuarters(rows: Map<string, QuarterRow>): QuarterRow[] {
  return [...rows.values()].sort((a, b) => a.scope - b.scope || a.bucket - b.bucket);
}

function compareText(a: string, b: string): number {
  return a < b ? -1 : a > b ? 1 : 0;
}

function sortedDimensions(rows: Map<string, DimensionRow>): DimensionRow[] {
  return [...rows.values()].sort(
    (a, b) =>
      a.scope - b.scope ||
      compareText(a.dimension, b.dimension) ||
      a.period - b.period ||
      compareText(a.value1, b.value1) ||
      compareText(a.value2, b.value2) ||
      compareText(a.value3, b.value3),
  );
}
