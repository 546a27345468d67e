import { isValidTimeZone, localDayNumber, parseDay, usableTimeZone } from '@app/common';
import type { Granularity } from './statistics-types';

/** The longest range one request may cover (ten years), and the longest in hours (31 days). */
export const MAX_RANGE_DAYS = 3660;
export const MAX_HOURLY_DAYS = 31;

/** What the rules of a statistics query need besides the query: the account's zone and now. */
export interface StatisticsContext {
  accountZone: string;
  now: Date;
}

/** The dates and zone of a query, as the rules and the reader see them. */
export interface DatedQuery {
  start_date?: string;
  end_date?: string;
  timezone?: string;
}

/**
 * A day parameter: undefined when absent, null when it is no date of 1970 or later (no visit is
 * older, and the roll-ups count days and quarters from 1970), else days since 1970-01-01.
 */
export function givenDay(value: string | undefined): number | null | undefined {
  if (value === undefined) return undefined;
  const day = parseDay(value);
  return day === null || day < 0 ? null : day;
}

/** The zone of the periods: the query's when it names a valid one, else the account's. */
export function zoneOf(query: { timezone?: string }, accountZone: string): string {
  return query.timezone !== undefined && isValidTimeZone(query.timezone)
    ? query.timezone
    : usableTimeZone(accountZone);
}

/**
 * The first and last day of the range a query covers: a date that is absent or not valid takes
 * its default (today in the zone; 29 days before the end).
 */
export function rangeOf(
  query: DatedQuery,
  { accountZone, now }: StatisticsContext,
): { firstDay: number; lastDay: number } {
  const end = givenDay(query.end_date);
  const lastDay = end ?? localDayNumber(zoneOf(query, accountZone), now.getTime());
  return { firstDay: givenDay(query.start_date) ?? lastDay - 29, lastDay };
}

/** The period of an overview when the request names none. */
export function defaultGranularity(days: number): Granularity {
  if (days <= 1) {
    return 'hour';
  }
  if (days <= 62) {
    return 'day';
  }
  return days <= 731 ? 'month' : 'year';
}
