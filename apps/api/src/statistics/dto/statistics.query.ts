import { ApiPropertyOptional } from '@nestjs/swagger';
import { Transform } from 'class-transformer';
import {
  Checked,
  contextOf,
  isValidTimeZone,
  pageProblem,
  parseDay,
  parseId,
  RESULTS_PER_PAGE,
  resultsPerPageProblem,
  ValidatedWithContext,
} from '@app/common';
import {
  givenDay,
  MAX_HOURLY_DAYS,
  MAX_RANGE_DAYS,
  rangeOf,
  type StatisticsContext,
} from '../statistics-days';
import {
  COMPANIONS,
  type CompanionParameter,
  GRANULARITIES,
  STATISTICS_TYPES,
  type StatisticsType,
} from '../statistics-types';

/** The rule of one parameter, given as a string (trimmed; empty is absent) or not at all. */
type Rule = (value: string | undefined, query: StatisticsQuery) => string | null;

/** Every parameter comes once, as a string; then its own rule. */
function Param(rule: Rule, trim = true): PropertyDecorator {
  return (target, key) => {
    Checked<StatisticsQuery>((value, query, property) =>
      value !== undefined && typeof value !== 'string'
        ? `${property} must be a string.`
        : rule(value, query),
    )(target, key);
    Transform(({ value }: { value: unknown }) => {
      const given = trim && typeof value === 'string' ? value.trim() : value;
      return given === '' ? undefined : given;
    })(target, key);
  };
}

/** The breakdown a query asks for, null for the overview, the hours or an unknown type. */
function breakdownOf(query: StatisticsQuery): keyof typeof COMPANIONS | null {
  const type = query.type ?? 'overview';
  return Object.hasOwn(COMPANIONS, type) ? (type as keyof typeof COMPANIONS) : null;
}

/** The companions of a breakdown: required, or (country_code of city_name) optional. */
function companion(name: CompanionParameter): Rule {
  return (value, query) => {
    const type = breakdownOf(query);
    const rules = type === null ? undefined : COMPANIONS[type];
    if (rules?.required.includes(name) && value === undefined) {
      return `${name} is required for type=${type}.`;
    }
    const used = rules?.required.includes(name) || rules?.optional?.includes(name);
    return name === 'country_code' && used && value !== undefined && !/^[A-Za-z]{2}$/.test(value)
      ? 'country_code must be a two-letter ISO 3166 country code.'
      : null;
  };
}

function dayProblem(value: string, name: string): string | null {
  const day = parseDay(value);
  if (day === null) return `${name} must be a date as Y-m-d.`;
  return day < 0 ? `${name} must be 1970-01-01 or later.` : null;
}

function days(query: StatisticsQuery): number {
  const { firstDay, lastDay } = rangeOf(query, contextOf<StatisticsContext>(query));
  return lastDay - firstDay + 1;
}

/**
 * The query of both statistics routes. Its rules read the account's time zone and the clock (the
 * range ends today, in the zone, unless the query names an end), so the pipe hands the query over
 * as received and `readStatisticsQuery` validates it with them: every problem at once, one per
 * parameter. The parameters are declared in the order a 400 lists their problems.
 */
@ValidatedWithContext()
export class StatisticsQuery {
  @ApiPropertyOptional({ enum: STATISTICS_TYPES, default: 'overview' })
  @Param((value) =>
    value === undefined || (STATISTICS_TYPES as readonly string[]).includes(value)
      ? null
      : `type must be one of: ${STATISTICS_TYPES.join(', ')}.`,
  )
  type?: StatisticsType;

  @ApiPropertyOptional({
    description: "IANA time zone of the periods and dates. Default: the account's.",
    example: 'Europe/Berlin',
  })
  @Param((value) =>
    value === undefined || isValidTimeZone(value)
      ? null
      : 'timezone must be an IANA time zone such as Europe/Berlin.',
  )
  timezone?: string;

  @ApiPropertyOptional({ description: 'Y-m-d, inclusive. Default: today.' })
  @Param((value, query) => {
    if (value === undefined) return null;
    const end = givenDay(value);
    const start = givenDay(query.start_date);
    return typeof start === 'number' && typeof end === 'number' && end < start
      ? 'end_date must not be before start_date.'
      : dayProblem(value, 'end_date');
  })
  end_date?: string;

  @ApiPropertyOptional({ description: 'Y-m-d, inclusive. Default: 29 days before end_date.' })
  @Param((value, query) => {
    if (value === undefined || typeof givenDay(value) !== 'number') {
      return value === undefined ? null : dayProblem(value, 'start_date');
    }
    const end = givenDay(query.end_date);
    const { firstDay, lastDay } = rangeOf(query, contextOf<StatisticsContext>(query));
    if (lastDay < firstDay) {
      // A range that ends before it starts is end_date's problem when the query names one.
      return end === undefined
        ? 'start_date must not be after today (the default end_date).'
        : null;
    }
    return lastDay - firstDay + 1 > MAX_RANGE_DAYS
      ? `The range may cover at most ${MAX_RANGE_DAYS} days.`
      : null;
  })
  start_date?: string;

  @ApiPropertyOptional({
    enum: GRANULARITIES,
    description:
      'overview only. Default: hour within one day, day up to 62 days, month up to two years, then year.',
  })
  @Param((value, query) => {
    if (value === undefined) return null;
    if (!(GRANULARITIES as readonly string[]).includes(value)) {
      return `granularity must be one of: ${GRANULARITIES.join(', ')}.`;
    }
    return value === 'hour' &&
      (query.type ?? 'overview') === 'overview' &&
      days(query) > MAX_HOURLY_DAYS
      ? `granularity=hour covers at most ${MAX_HOURLY_DAYS} days.`
      : null;
  })
  granularity?: (typeof GRANULARITIES)[number];

  @ApiPropertyOptional({ description: 'Account route only: one link of yours.' })
  @Param((value) =>
    value === undefined || parseId(value) !== null
      ? null
      : 'link_id must be a positive whole number.',
  )
  link_id?: string;

  // project_id=0 is "links without a project", as on every list that filters by project.
  @ApiPropertyOptional({ description: "Only this project's links." })
  @Param((value) =>
    value === undefined || value === '0' || parseId(value) !== null
      ? null
      : 'project_id must be a positive whole number.',
  )
  project_id?: string;

  @ApiPropertyOptional({ description: 'Required for type=referrer_path.' })
  @Param(companion('referrer_host'))
  referrer_host?: string;

  @ApiPropertyOptional({ description: 'Required for type=utm_medium and utm_campaign.' })
  @Param(companion('utm_source'))
  utm_source?: string;

  @ApiPropertyOptional({ description: 'Required for type=utm_campaign.' })
  @Param(companion('utm_medium'))
  utm_medium?: string;

  @ApiPropertyOptional({ description: 'Optional narrowing for type=city_name.' })
  @Param(companion('country_code'))
  country_code?: string;

  @ApiPropertyOptional({ type: 'integer', description: 'Default 1. Breakdowns only.' })
  @Param((value) => (value === undefined ? null : pageProblem(value)), false)
  page?: string;

  @ApiPropertyOptional({
    enum: RESULTS_PER_PAGE.map(String),
    description: 'Default 25. Breakdowns only; the overview has every period on one page.',
  })
  @Param((value) => (value === undefined ? null : resultsPerPageProblem(value)), false)
  results_per_page?: string;
}
