import { Injectable } from '@nestjs/common';
import {
  type QuarterRange,
  StatisticsRepository,
  type StatsScope,
  type Totals,
} from '@app/analytics';
import { type Actor } from '@app/auth';
import { PlansService } from '@app/billing';
import {
  AppError,
  Clock,
  formatDay,
  localDayNumber,
  localMidnight,
  NotFoundError,
  offsetSegments,
  Paginated,
  QUARTER_MS,
} from '@app/common';
import { LinksRepository, ProjectsRepository, UsersRepository } from '@app/database';
import { readStatisticsQuery, type ParsedStatisticsQuery } from './statistics-query';
import type { StatisticsType } from './statistics-types';
import {
  type DimensionRow,
  type HourRow,
  type OverviewRow,
  toDimensionRow,
} from './statistics.mapper';

const HOUR_MS = 60 * 60 * 1000;

/** Statistics read from the roll-ups, bucketed in the account's (or the requested) time zone. */
@Injectable()
export class StatisticsService {
  constructor(
    private readonly statistics: StatisticsRepository,
    private readonly links: LinksRepository,
    private readonly projects: ProjectsRepository,
    private readonly users: UsersRepository,
    private readonly clock: Clock,
    private readonly plans: PlansService,
  ) {}

  /** `pathLinkId` is the link of GET /statistics/{link_id}; null on the account route. */
  async read(
    actor: Actor,
    pathLinkId: number | null,
    query: object,
  ): Promise<Paginated<OverviewRow | HourRow | DimensionRow>> {
    const owner = await this.users.findById(actor.ownerId);
    const parsed = readStatisticsQuery(query, owner?.timezone ?? 'UTC', this.clock.now());
    await this.withinRetention(actor, parsed);
    const scope = await this.scopeOf(actor, pathLinkId ?? parsed.linkId, parsed.projectId);
    if (parsed.type === 'overview') {
      return this.overview(scope, parsed);
    }
    if (parsed.type === 'hour') {
      return this.hours(scope, parsed);
    }
    const { page, resultsPerPage } = parsed;
    const { rows, total } = await this.statistics.dimension(
      scope,
      {
        dimension: parsed.type,
        firstDay: parsed.firstDay,
        lastDay: parsed.lastDay,
        ...valueFilter(parsed),
      },
      resultsPerPage,
      // A page far past the end is empty; the offset stays an integer the databases take.
      Math.min((page - 1) * resultsPerPage, Number.MAX_SAFE_INTEGER),
    );
    const dimension = parsed.type;
    return new Paginated(
      rows.map((r) => toDimensionRow(dimension, r)),
      total,
      page,
      resultsPerPage,
    );
  }

  /**
   * The owner's plan may keep statistics for `statistics_retention_days` only: a range that starts
   * earlier starts at the first day kept; a range that ends before it is refused (403).
   */
  private async withinRetention(actor: Actor, parsed: ParsedStatisticsQuery): Promise<void> {
    const days = (await this.plans.effective(actor.ownerId)).settings.statistics_retention_days;
    if (days === -1) return;
    const firstKept =
      localDayNumber(parsed.zone, this.clock.now().getTime()) - Math.max(days, 1) + 1;
    if (parsed.lastDay < firstKept) {
      throw new AppError(
        'plan_limit_reached',
        `Your plan keeps statistics for ${days} days: the earliest day you can see is ${formatDay(firstKept)}.`,
      );
    }
    parsed.firstDay = Math.max(parsed.firstDay, firstKept);
  }

  private async scopeOf(
    actor: Actor,
    linkId: number | null,
    projectId: number | null,
  ): Promise<StatsScope> {
    if (linkId !== null && !(await this.links.findOwned(actor.ownerId, linkId))) {
      throw new NotFoundError('link_not_found', 'link');
    }
    if (
      projectId !== null &&
      projectId !== 0 &&
      !(await this.projects.findOwned(actor.ownerId, projectId))
    ) {
      throw new NotFoundError('project_not_found', 'project');
    }
    if (linkId === null && projectId === null) {
      return { kind: 'user', userId: actor.ownerId };
    }
    return { kind: 'links', userId: actor.ownerId, linkId, projectId };
  }

  /** The range as stretches of constant offset, in quarter buckets. */
  private ranges(parsed: ParsedStatisticsQuery): QuarterRange[] {
    const start = localMidnight(parsed.zone, parsed.firstDay);
    const end = localMidnight(parsed.zone, parsed.lastDay + 1);
    return offsetSegments(parsed.zone, start, end).map((s) => ({
      startBucket: s.start / QUARTER_MS,
      endBucket: s.end / QUARTER_MS,
      offsetQuarters: Math.round(s.offsetMs / QUARTER_MS),
    }));
  }

  /** Every period of the range, zero-filled, in order: on one page, whatever its length. */
  private async overview(
    scope: StatsScope,
    parsed: ParsedStatisticsQuery,
  ): Promise<Paginated<OverviewRow>> {
    const hourly = parsed.granularity === 'hour';
    const unitQuarters = hourly ? 4 : 96;
    const label = (unit: number): string =>
      hourly
        ? new Date(unit * HOUR_MS).toISOString().slice(0, 13).replace('T', ' ')
        : formatDay(unit).slice(0, LABEL_LENGTH[parsed.granularity]);
    const totals = new Map<string, Totals>();
    const order: string[] = [];
    const remember = (key: string): void => {
      if (order[order.length - 1] !== key && !totals.has(key)) {
        order.push(key);
        totals.set(key, { pageviews: 0, visitors: 0 });
      }
    };
    const ranges = this.ranges(parsed);
    // The periods, from the calendar: local hours that exist, or the days of the range.
    if (hourly) {
      for (const r of ranges) {
        const first = Math.floor((r.startBucket + r.offsetQuarters) / 4);
        const last = Math.floor((r.endBucket - 1 + r.offsetQuarters) / 4);
        for (let unit = first; unit <= last; unit++) {
          remember(label(unit));
        }
      }
    } else {
      for (let day = parsed.firstDay; day <= parsed.lastDay; day++) {
        remember(label(day));
      }
    }
    const series = await Promise.all(
      ranges.map((r) => this.statistics.series(scope, r, unitQuarters)),
    );
    for (const part of series) {
      for (const [unit, value] of part) {
        const sum = totals.get(label(unit));
        if (sum) {
          sum.pageviews += value.pageviews;
          sum.visitors += value.visitors;
        }
      }
    }
    const rows = order.map((formatted_date) => ({
      ...(totals.get(formatted_date) as Totals),
      formatted_date,
    }));
    return new Paginated(rows, rows.length, 1, Math.max(rows.length, 1));
  }

  /** Pageviews per hour of the day (all 24), in order. */
  private async hours(
    scope: StatsScope,
    parsed: ParsedStatisticsQuery,
  ): Promise<Paginated<HourRow>> {
    const counts = new Array<number>(24).fill(0);
    const parts = await Promise.all(
      this.ranges(parsed).map((r) => this.statistics.hoursOfDay(scope, r)),
    );
    for (const part of parts) {
      for (const [hour, pageviews] of part) {
        counts[hour] += pageviews;
      }
    }
    const pad = (n: number): string => String(n).padStart(2, '0');
    const rows = counts.map((pageviews, h) => ({
      hour: `${pad(h)}:00 - ${pad((h + 1) % 24)}:00`,
      pageviews,
    }));
    const { page, resultsPerPage } = parsed;
    return new Paginated(
      rows.slice((page - 1) * resultsPerPage, page * resultsPerPage),
      rows.length,
      page,
      resultsPerPage,
    );
  }
}

const LABEL_LENGTH = { hour: 13, day: 10, month: 7, year: 4 } as const;

function valueFilter(parsed: ParsedStatisticsQuery): { value1?: string; value2?: string } {
  const c = parsed.companions;
  const filters: Partial<Record<StatisticsType, { value1?: string; value2?: string }>> = {
    referrer_path: { value1: c.referrer_host },
    city_name: c.country_code === undefined ? {} : { value1: c.country_code },
    utm_medium: { value1: c.utm_source },
    utm_campaign: { value1: c.utm_source, value2: c.utm_medium },
  };
  return filters[parsed.type] ?? {};
}
