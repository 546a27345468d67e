// The time helpers' own file, not @app/common's index: the visit writer thread loads this and
// should not load the HTTP layer with it.
import { DAY_MS, localDayNumber, QUARTER_MS, usableTimeZone } from '@app/common/time/time-zone';
import { type NewVisit as RolledVisit, VISIT_DIMENSION_COLUMNS } from './visit-columns';

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
  'bots',
  'qr_codes',
] as const;
export type Dimension = (typeof DIMENSIONS)[number];

type Values = readonly [string, string, string];

const v = (value: string | null): string => value ?? '';

/** The visitors' dimensions: every one but `bots`. */
const VISITOR_DIMENSIONS = DIMENSIONS.filter((d) => d !== 'bots');
const BOT_DIMENSIONS: readonly Dimension[] = ['bots'];

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
  // A visitor's visit is no bot's; a bot's visit adds to this dimension only (see rollUp).
  bots: () => null,
  qr_codes: (x) => (x.qr_code_id === null ? null : [String(x.qr_code_id), '', '']),
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

/**
 * The local day of an instant in a zone. Local days change only on a quarter hour, so one lookup
 * per zone and quarter is enough; kept across batches (visits arrive in time order), bounded.
 */
const dayCache = new Map<string, number>();
const DAY_CACHE_LIMIT = 10_000;

function localDay(zone: string, epochMs: number): number {
  const quarter = Math.floor(epochMs / QUARTER_MS);
  const key = `${zone}${SEPARATOR}${quarter}`;
  let day = dayCache.get(key);
  if (day === undefined) {
    day = localDayNumber(zone, quarter * QUARTER_MS);
    if (dayCache.size >= DAY_CACHE_LIMIT) {
      dayCache.clear();
    }
    dayCache.set(key, day);
  }
  return day;
}

/** Stored zones as usable zones (an unknown one is UTC), checked once each. */
const zoneCache = new Map<string, string>();

function zoneOf(stored: string): string {
  let zone = zoneCache.get(stored);
  if (zone === undefined) {
    zone = usableTimeZone(stored);
    if (zoneCache.size >= DAY_CACHE_LIMIT) {
      zoneCache.clear();
    }
    zoneCache.set(stored, zone);
  }
  return zone;
}

function addQuarter(
  rows: Map<string, QuarterRow>,
  scope: number,
  bucket: number,
  pageviews: number,
  visitors: number,
): void {
  const key = `${scope}${SEPARATOR}${bucket}`;
  const row = rows.get(key);
  if (row) {
    row.pageviews += pageviews;
    row.visitors += visitors;
  } else {
    rows.set(key, { scope, bucket, pageviews, visitors });
  }
}

/** One scope's rows of one period, by dimension and values. */
interface PeriodRows {
  scope: number;
  period: number;
  byValues: Map<string, DimensionRow>;
}

/**
 * One dimension table's rows, by scope and period, then by dimension and values: a group of visits
 * looks its scope and period up once, and each dimension's values key (one string, hashed once) in
 * the four tables' inner maps. About half the work of one flat key per row.
 */
class DimensionRows {
  readonly rows: DimensionRow[] = [];
  private readonly byPeriod = new Map<string, PeriodRows>();

  of(scope: number, period: number): PeriodRows {
    const key = `${scope}${SEPARATOR}${period}`;
    let rows = this.byPeriod.get(key);
    if (rows === undefined) {
      rows = { scope, period, byValues: new Map() };
      this.byPeriod.set(key, rows);
    }
    return rows;
  }

  add(
    into: PeriodRows,
    valuesKey: string,
    dimension: Dimension,
    values: Values,
    pageviews: number,
  ): void {
    const row = into.byValues.get(valuesKey);
    if (row) {
      row.pageviews += pageviews;
      return;
    }
    const added: DimensionRow = {
      scope: into.scope,
      dimension,
      period: into.period,
      value1: values[0],
      value2: values[1],
      value3: values[2],
      pageviews,
    };
    into.byValues.set(valuesKey, added);
    this.rows.push(added);
  }
}

/** Visits that add to exactly the same roll-up rows, counted once. */
interface VisitGroup {
  visit: RolledVisit;
  userId: number;
  bucket: number;
  day: number;
  pageviews: number;
  visitors: number;
}

const FIELDS = VISIT_DIMENSION_COLUMNS;

/** Everything about a visit that decides its roll-up rows (null kept apart from any text). */
function signature(visit: RolledVisit, bucket: number, day: number): string {
  let key = `${visit.link_id}${SEPARATOR}${bucket}${SEPARATOR}${day}${SEPARATOR}${visit.bot ?? '\u0001'}${SEPARATOR}${visit.qr_code_id ?? 0}`;
  for (const field of FIELDS) {
    const value = visit[field];
    key += value === null ? `${SEPARATOR}\u0001` : `${SEPARATOR}${value}`;
  }
  return key;
}

function sameGroup(group: VisitGroup, visit: RolledVisit, bucket: number, day: number): boolean {
  if (
    group.visit.link_id !== visit.link_id ||
    group.bucket !== bucket ||
    group.day !== day ||
    group.visit.bot !== visit.bot ||
    group.visit.qr_code_id !== visit.qr_code_id
  ) {
    return false;
  }
  for (const field of FIELDS) {
    if (group.visit[field] !== visit[field]) {
      return false;
    }
  }
  return true;
}

/**
 * What a batch of visits adds to the roll-ups, summed per row so that each row is written once per
 * batch. Identical visits (same link, quarter hour and values) are grouped first, so a burst of
 * the same visit costs one expansion into rows. Visits of links without an owner (deleted
 * meanwhile) are left out. Rows come sorted by key, so that concurrent writers lock them in the
 * same order; `sorted` false skips that where there are no concurrent writers (SQLite writes one
 * transaction at a time), about a tenth of the visit writer's work.
 *
 * Month rows come only for months up to `monthsClosedThrough` (closed-months.ts): a later month's
 * rows are summed from its day rows once it is over.
 */
export function rollUp(
  visits: readonly RolledVisit[],
  owners: ReadonlyMap<number, LinkOwner>,
  monthsClosedThrough: number,
  sorted = true,
): Rollups {
  const groups = new Map<string, VisitGroup>();
  let last: VisitGroup | null = null;
  for (const visit of visits) {
    const owner = owners.get(visit.link_id);
    if (owner === undefined) {
      continue;
    }
    const time = visit.datetime.getTime();
    const bucket = Math.floor(time / QUARTER_MS);
    const day = localDay(zoneOf(owner.timeZone), time);
    const unique = visit.is_unique ? 1 : 0;
    // A run of identical visits (one link shared in a burst) skips building the signature.
    let group: VisitGroup | undefined =
      last !== null && sameGroup(last, visit, bucket, day) ? last : undefined;
    if (group === undefined) {
      const key = signature(visit, bucket, day);
      group = groups.get(key);
      if (group === undefined) {
        group = { visit, userId: owner.userId, bucket, day, pageviews: 0, visitors: 0 };
        groups.set(key, group);
      }
    }
    group.pageviews += 1;
    group.visitors += unique;
    last = group;
  }

  const linkQuarters = new Map<string, QuarterRow>();
  const userQuarters = new Map<string, QuarterRow>();
  const linkDimensions = new DimensionRows();
  const userDimensions = new DimensionRows();
  const linkMonths = new DimensionRows();
  const userMonths = new DimensionRows();
  for (const g of groups.values()) {
    const linkId = g.visit.link_id;
    const bot = g.visit.bot;
    if (bot === null) {
      addQuarter(linkQuarters, linkId, g.bucket, g.pageviews, g.visitors);
      addQuarter(userQuarters, g.userId, g.bucket, g.pageviews, g.visitors);
    }
    const month = monthOfDay(g.day);
    const linkDay = linkDimensions.of(linkId, g.day);
    const userDay = userDimensions.of(g.userId, g.day);
    const closed = month <= monthsClosedThrough;
    const linkMonth = closed ? linkMonths.of(linkId, month) : null;
    const userMonth = closed ? userMonths.of(g.userId, month) : null;
    // A bot's visits count in no pageviews or visitors and no breakdown but `bots`.
    for (const dimension of bot === null ? VISITOR_DIMENSIONS : BOT_DIMENSIONS) {
      const values: Values | null = bot === null ? VALUES_OF[dimension](g.visit) : [bot, '', ''];
      if (values === null) {
        continue;
      }
      const key = `${dimension}${SEPARATOR}${values[0]}${SEPARATOR}${values[1]}${SEPARATOR}${values[2]}`;
      const n = g.pageviews;
      linkDimensions.add(linkDay, key, dimension, values, n);
      userDimensions.add(userDay, key, dimension, values, n);
      if (linkMonth !== null && userMonth !== null) {
        linkMonths.add(linkMonth, key, dimension, values, n);
        userMonths.add(userMonth, key, dimension, values, n);
      }
    }
  }
  if (!sorted) {
    return {
      linkQuarters: [...linkQuarters.values()],
      userQuarters: [...userQuarters.values()],
      linkDimensions: linkDimensions.rows,
      userDimensions: userDimensions.rows,
      linkMonths: linkMonths.rows,
      userMonths: userMonths.rows,
    };
  }
  return {
    linkQuarters: sortedQuarters(linkQuarters),
    userQuarters: sortedQuarters(userQuarters),
    linkDimensions: sortedDimensions(linkDimensions.rows),
    userDimensions: sortedDimensions(userDimensions.rows),
    linkMonths: sortedDimensions(linkMonths.rows),
    userMonths: sortedDimensions(userMonths.rows),
  };
}

function sortedQuarters(rows: Map<string, QuarterRow>): QuarterRow[] {
  return [...rows.values()].sort((a, b) => a.scope - b.scope || a.bucket - b.bucket);
}

function compareText(a: string, b: string): number {
  return a < b ? -1 : a > b ? 1 : 0;
}

function sortedDimensions(rows: DimensionRow[]): DimensionRow[] {
  return rows.sort(
    (a, b) =>
      a.scope - b.scope ||
      compareText(a.dimension, b.dimension) ||
      a.period - b.period ||
      compareText(a.value1, b.value1) ||
      compareText(a.value2, b.value2) ||
      compareText(a.value3, b.value3),
  );
}
