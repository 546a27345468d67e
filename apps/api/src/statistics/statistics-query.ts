import {
  AppError,
  isValidTimeZone,
  localDayNumber,
  parseDay,
  parseId,
  parseListQuery,
  type Problem,
  usableTimeZone,
} from '@app/common';
import type { StatisticsQuery } from './dto/statistics.query';
import {
  COMPANIONS,
  type CompanionParameter,
  GRANULARITIES,
  type Granularity,
  STATISTICS_TYPES,
  type StatisticsType,
} from './statistics-types';

/** The longest range one request may cover (ten years), and the longest in hours (31 days). */
export const MAX_RANGE_DAYS = 3660;
export const MAX_HOURLY_DAYS = 31;

export interface ParsedStatisticsQuery {
  type: StatisticsType;
  zone: string;
  firstDay: number;
  lastDay: number;
  granularity: Granularity;
  linkId: number | null;
  projectId: number | null;
  companions: Partial<Record<CompanionParameter, string>>;
  page: number;
  resultsPerPage: number;
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

/**
 * Checks and reads a statistics query; every problem is reported at once, each naming its
 * parameter. `accountZone` is the zone of the account, `now` the current instant.
 */
export function parseStatisticsQuery(
  query: StatisticsQuery,
  accountZone: string,
  now: Date,
): ParsedStatisticsQuery {
  const problems: Problem[] = [];
  const given = (value: string | undefined): string | undefined => {
    const trimmed = value?.trim();
    return trimmed === undefined || trimmed === '' ? undefined : trimmed;
  };

  const rawType = given(query.type) ?? 'overview';
  const type = (STATISTICS_TYPES as readonly string[]).includes(rawType)
    ? (rawType as StatisticsType)
    : null;
  if (type === null) {
    problems.push({
      field: 'type',
      title: `type must be one of: ${STATISTICS_TYPES.join(', ')}.`,
    });
  }

  const rawZone = given(query.timezone);
  let zone = usableTimeZone(accountZone);
  if (rawZone !== undefined) {
    if (isValidTimeZone(rawZone)) {
      zone = rawZone;
    } else {
      problems.push({
        field: 'timezone',
        title: 'timezone must be an IANA time zone such as Europe/Berlin.',
      });
    }
  }

  const day = (name: 'start_date' | 'end_date'): number | null | undefined => {
    const raw = given(query[name]);
    if (raw === undefined) {
      return undefined;
    }
    const parsed = parseDay(raw);
    if (parsed === null) {
      problems.push({ field: name, title: `${name} must be a date as Y-m-d.` });
    } else if (parsed < 0) {
      // No visit is older than 1970, and the roll-ups count days and quarters from it.
      problems.push({ field: name, title: `${name} must be 1970-01-01 or later.` });
      return null;
    }
    return parsed;
  };
  const endGiven = day('end_date');
  const startGiven = day('start_date');
  const lastDay = endGiven ?? localDayNumber(zone, now.getTime());
  const firstDay = startGiven ?? lastDay - 29;
  if (typeof startGiven === 'number' || typeof endGiven === 'number') {
    if (lastDay < firstDay && endGiven !== null && startGiven !== null) {
      problems.push(
        endGiven === undefined
          ? {
              field: 'start_date',
              title: 'start_date must not be after today (the default end_date).',
            }
          : { field: 'end_date', title: 'end_date must not be before start_date.' },
      );
    } else if (lastDay - firstDay + 1 > MAX_RANGE_DAYS) {
      problems.push({
        field: 'start_date',
        title: `The range may cover at most ${MAX_RANGE_DAYS} days.`,
      });
    }
  }
  const days = lastDay - firstDay + 1;

  let granularity = defaultGranularity(days);
  const rawGranularity = given(query.granularity);
  if (rawGranularity !== undefined) {
    if ((GRANULARITIES as readonly string[]).includes(rawGranularity)) {
      granularity = rawGranularity as Granularity;
      if (granularity === 'hour' && days > MAX_HOURLY_DAYS && type === 'overview') {
        problems.push({
          field: 'granularity',
          title: `granularity=hour covers at most ${MAX_HOURLY_DAYS} days.`,
        });
      }
    } else {
      problems.push({
        field: 'granularity',
        title: `granularity must be one of: ${GRANULARITIES.join(', ')}.`,
      });
    }
  }

  const id = (name: 'link_id' | 'project_id'): number | null => {
    const raw = given(query[name]);
    if (raw === undefined) {
      return null;
    }
    const id = parseId(raw);
    if (id === null) {
      problems.push({ field: name, title: `${name} must be a positive whole number.` });
    }
    return id;
  };
  const linkId = id('link_id');
  // project_id=0 is "links without a project", as on every list that filters by project.
  const projectId = given(query.project_id) === '0' ? 0 : id('project_id');

  const companions: Partial<Record<CompanionParameter, string>> = {};
  const rules = type !== null && type !== 'overview' && type !== 'hour' ? COMPANIONS[type] : null;
  for (const name of rules?.required ?? []) {
    const value = given(query[name]);
    if (value === undefined) {
      problems.push({ field: name, title: `${name} is required for type=${type}.` });
    } else {
      companions[name] = value;
    }
  }
  for (const name of rules?.optional ?? []) {
    const value = given(query[name]);
    if (value !== undefined) {
      companions[name] = value;
    }
  }
  if (companions.country_code !== undefined) {
    if (/^[A-Za-z]{2}$/.test(companions.country_code)) {
      companions.country_code = companions.country_code.toUpperCase();
    } else {
      problems.push({
        field: 'country_code',
        title: 'country_code must be a two-letter ISO 3166 country code.',
      });
    }
  }
  if (companions.referrer_host !== undefined) {
    companions.referrer_host = companions.referrer_host.toLowerCase();
  }

  let page = 1;
  let resultsPerPage = 25;
  try {
    ({ page, resultsPerPage } = parseListQuery(
      { page: query.page, results_per_page: query.results_per_page },
      { orderBy: {} },
    ));
  } catch (error) {
    if (!(error instanceof AppError)) {
      throw error;
    }
    problems.push(...error.problems);
  }

  if (problems.length > 0 || type === null) {
    throw new AppError('validation_failed', problems);
  }
  return {
    type,
    zone,
    firstDay,
    lastDay,
    granularity,
    linkId,
    projectId,
    companions,
    page,
    resultsPerPage,
  };
}
