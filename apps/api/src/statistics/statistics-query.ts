import { AppError, DEFAULT_RESULTS_PER_PAGE, parseId, validateAs } from '@app/common';
import { StatisticsQuery } from './dto/statistics.query';
import { defaultGranularity, rangeOf, type StatisticsContext, zoneOf } from './statistics-days';
import {
  COMPANIONS,
  type CompanionParameter,
  type Granularity,
  type StatisticsType,
} from './statistics-types';

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

/**
 * Validates a statistics query as received (`StatisticsQuery`, whose rules read the account's
 * zone and the clock: one 400 naming every problem), then reads it: the zone, the range of days
 * in it, the defaults. `accountZone` is the zone of the account, `now` the current instant.
 */
export function readStatisticsQuery(
  received: object,
  accountZone: string,
  now: Date,
): ParsedStatisticsQuery {
  const context: StatisticsContext = { accountZone, now };
  const { value: query, problems } = validateAs(
    StatisticsQuery,
    { ...(received as Record<string, unknown>) },
    { context },
  );
  if (problems.length > 0) {
    throw new AppError('validation_failed', problems);
  }
  const type = query.type ?? 'overview';
  const { firstDay, lastDay } = rangeOf(query, context);
  return {
    type,
    zone: zoneOf(query, accountZone),
    firstDay,
    lastDay,
    granularity: query.granularity ?? defaultGranularity(lastDay - firstDay + 1),
    linkId: query.link_id === undefined ? null : parseId(query.link_id),
    projectId:
      query.project_id === undefined
        ? null
        : query.project_id === '0'
          ? 0
          : parseId(query.project_id),
    companions: companionsOf(type, query),
    page: query.page === undefined ? 1 : Number(query.page),
    resultsPerPage:
      query.results_per_page === undefined
        ? DEFAULT_RESULTS_PER_PAGE
        : Number(query.results_per_page),
  };
}

/** The companions the type reads, normalised as the roll-ups store them. */
function companionsOf(
  type: StatisticsType,
  query: StatisticsQuery,
): Partial<Record<CompanionParameter, string>> {
  const rules = Object.hasOwn(COMPANIONS, type)
    ? COMPANIONS[type as keyof typeof COMPANIONS]
    : null;
  const companions: Partial<Record<CompanionParameter, string>> = {};
  for (const name of [...(rules?.required ?? []), ...(rules?.optional ?? [])]) {
    const value = query[name];
    if (value !== undefined) {
      companions[name] =
        name === 'country_code'
          ? value.toUpperCase()
          : name === 'referrer_host'
            ? value.toLowerCase()
            : value;
    }
  }
  return companions;
}
