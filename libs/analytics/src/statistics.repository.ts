import { Injectable } from '@nestjs/common';
import {
  Db,
  type Dimension,
  firstDayOfMonth,
  monthOfDay,
  monthsClosedThrough,
} from '@app/database';

/** Whose statistics: an account as a whole, or some of its links (one, or a project's). */
export type StatsScope =
  | { kind: 'user'; userId: number }
  | { kind: 'links'; userId: number; linkId: number | null; projectId: number | null };

/** A stretch of quarter buckets [start, end) with one offset from UTC, in quarters. */
export interface QuarterRange {
  startBucket: number;
  endBucket: number;
  offsetQuarters: number;
}

export interface Totals {
  pageviews: number;
  visitors: number;
}

export interface DimensionTotal {
  value1: string;
  value2: string;
  value3: string;
  pageviews: number;
}

export interface DimensionFilter {
  dimension: Dimension;
  firstDay: number;
  lastDay: number;
  /** Exact values of the outer levels (referrer host, country, UTM source and medium). */
  value1?: string;
  value2?: string;
}

/** One SQL statement and its parameters, in the dialect of the data source. */
export interface BuiltQuery {
  sql: string;
  parameters: unknown[];
}

class Sql {
  readonly parameters: unknown[] = [];
  constructor(private readonly db: Db) {}

  /** A placeholder bound to the value. */
  p(value: unknown): string {
    this.parameters.push(value);
    return this.db.placeholder(this.parameters.length);
  }
}

function integer(value: number): string {
  if (!Number.isSafeInteger(value)) {
    throw new Error(`Not an integer: ${value}`);
  }
  return String(value);
}

/**
 * Reads the statistics roll-ups (see @app/database's stat.entities.ts); never the raw visits. Every query is a
 * range scan of one table's primary key: (user_id | link_id, bucket) for the time series, and
 * (user_id | link_id, dimension, day, values) for the breakdowns. Sums come back as strings from
 * PostgreSQL (numeric, the sum of bigint) and are read with Number(): exact up to
 * Number.MAX_SAFE_INTEGER, like the counters themselves (counter-column.ts).
 */
@Injectable()
export class StatisticsRepository {
  constructor(private readonly db: Db) {}

  private get postgres(): boolean {
    return this.db.dialect === 'postgres';
  }

  private scope(sql: Sql, scope: StatsScope): { table: 'user' | 'link'; where: string } {
    if (scope.kind === 'user') {
      return { table: 'user', where: `"user_id" = ${sql.p(scope.userId)}` };
    }
    const conditions: string[] = [];
    if (scope.linkId !== null) {
      conditions.push(`"link_id" = ${sql.p(scope.linkId)}`);
    }
    if (scope.projectId === 0) {
      // Links without a project.
      conditions.push(
        `"link_id" IN (SELECT "id" FROM "links" WHERE "user_id" = ${sql.p(scope.userId)} AND "project_id" IS NULL)`,
      );
    } else if (scope.projectId !== null) {
      conditions.push(
        `"link_id" IN (SELECT "id" FROM "links" WHERE "user_id" = ${sql.p(scope.userId)} AND "project_id" = ${sql.p(scope.projectId)})`,
      );
    }
    return { table: 'link', where: conditions.join(' AND ') };
  }

  /**
   * Pageviews and visitors per local unit (`unitQuarters` = 4 for hours, 96 for days) over one
   * stretch of constant offset: the key is the unit's index counted from 1970-01-01 local time.
   */
  seriesQuery(scope: StatsScope, range: QuarterRange, unitQuarters: 4 | 96): BuiltQuery {
    const sql = new Sql(this.db);
    const { table, where } = this.scope(sql, scope);
    const unit = `("bucket" + ${integer(range.offsetQuarters)}) / ${integer(unitQuarters)}`;
    return {
      sql: `SELECT ${unit} AS "unit", SUM("pageviews") AS "pageviews", SUM("visitors") AS "visitors"
        FROM "stats_${table}_quarters"
        WHERE ${where} AND "bucket" >= ${sql.p(range.startBucket)} AND "bucket" < ${sql.p(range.endBucket)}
        GROUP BY ${unit}`,
      parameters: sql.parameters,
    };
  }

  async series(
    scope: StatsScope,
    range: QuarterRange,
    unitQuarters: 4 | 96,
  ): Promise<Map<number, Totals>> {
    const rows: Array<{ unit: unknown; pageviews: unknown; visitors: unknown }> = await this.run(
      this.seriesQuery(scope, range, unitQuarters),
    );
    return new Map(
      rows.map((r) => [
        Number(r.unit),
        { pageviews: Number(r.pageviews), visitors: Number(r.visitors) },
      ]),
    );
  }

  /** Pageviews per local hour of the day (0–23) over one stretch of constant offset. */
  async hoursOfDay(scope: StatsScope, range: QuarterRange): Promise<Map<number, number>> {
    const sql = new Sql(this.db);
    const { table, where } = this.scope(sql, scope);
    const hour = `(("bucket" + ${integer(range.offsetQuarters)}) / 4) % 24`;
    const rows: Array<{ hour: unknown; pageviews: unknown }> = await this.run({
      sql: `SELECT ${hour} AS "hour", SUM("pageviews") AS "pageviews"
        FROM "stats_${table}_quarters"
        WHERE ${where} AND "bucket" >= ${sql.p(range.startBucket)} AND "bucket" < ${sql.p(range.endBucket)}
        GROUP BY ${hour}`,
      parameters: sql.parameters,
    });
    return new Map(rows.map((r) => [Number(r.hour), Number(r.pageviews)]));
  }

  /**
   * The rows of a breakdown: whole months from the month tables, the days before and after them
   * from the day tables, added up per value.
   */
  private dimensionFrom(
    sql: Sql,
    scope: StatsScope,
    filter: DimensionFilter,
    monthsClosedThrough: number,
  ): string {
    const { days, months } = splitByMonths(filter.firstDay, filter.lastDay, monthsClosedThrough);
    const part = (
      table: 'dimensions' | 'dimension_months',
      first: number,
      last: number,
    ): string => {
      const column = table === 'dimensions' ? 'day' : 'month';
      const { table: scoped, where } = this.scope(sql, scope);
      const conditions = [
        where,
        `"dimension" = ${sql.p(filter.dimension)}`,
        `"${column}" >= ${sql.p(first)}`,
        `"${column}" <= ${sql.p(last)}`,
      ];
      if (filter.value1 !== undefined) {
        conditions.push(`"value1" = ${sql.p(filter.value1)}`);
      }
      if (filter.value2 !== undefined) {
        conditions.push(`"value2" = ${sql.p(filter.value2)}`);
      }
      return `SELECT "value1", "value2", "value3", "pageviews" FROM "stats_${scoped}_${table}"
        WHERE ${conditions.join(' AND ')}`;
    };
    const parts = days.map(([first, last]) => part('dimensions', first, last));
    if (months !== null) {
      parts.push(part('dimension_months', months[0], months[1]));
    }
    return `FROM (${parts.join(' UNION ALL ')}) "parts"
      GROUP BY "value1", "value2", "value3" HAVING SUM("pageviews") > 0`;
  }

  /** One page of a breakdown, most pageviews first (ties by value, byte order on both databases). */
  dimensionQuery(
    scope: StatsScope,
    filter: DimensionFilter,
    limit: number,
    offset: number,
    monthsClosedThrough: number,
  ): BuiltQuery {
    const sql = new Sql(this.db);
    const from = this.dimensionFrom(sql, scope, filter, monthsClosedThrough);
    const collate = this.postgres ? ' COLLATE "C"' : '';
    return {
      sql: `SELECT "value1", "value2", "value3", SUM("pageviews") AS "pageviews" ${from}
        ORDER BY SUM("pageviews") DESC, "value1"${collate}, "value2"${collate}, "value3"${collate}
        LIMIT ${integer(limit)} OFFSET ${integer(offset)}`,
      parameters: sql.parameters,
    };
  }

  async dimension(
    scope: StatsScope,
    filter: DimensionFilter,
    limit: number,
    offset: number,
  ): Promise<{ rows: DimensionTotal[]; total: number }> {
    // One mark for both queries; an older one than the database's only means more day rows. It
    // is read where the rows are: a mark read on the API's connection inside a close's open
    // transaction would promise month rows that the reader cannot see yet.
    const closed = await monthsClosedThrough({
      query: <T>(sql: string, parameters?: unknown[]) => this.db.readCommitted<T>(sql, parameters),
    });
    const count = new Sql(this.db);
    const countFrom = this.dimensionFrom(count, scope, filter, closed);
    const [rows, totals] = await Promise.all([
      this.run<Array<Record<string, unknown>>>(
        this.dimensionQuery(scope, filter, limit, offset, closed),
      ),
      this.run<Array<{ total: unknown }>>({
        sql: `SELECT COUNT(*) AS "total" FROM (SELECT 1 AS "one" ${countFrom}) "groups"`,
        parameters: count.parameters,
      }),
    ]);
    return {
      rows: rows.map((r) => ({
        value1: String(r.value1),
        value2: String(r.value2),
        value3: String(r.value3),
        pageviews: Number(r.pageviews),
      })),
      total: Number(totals[0]?.total ?? 0),
    };
  }

  /**
   * The database's plan for a query, as text: EXPLAIN QUERY PLAN on SQLite, EXPLAIN on PostgreSQL.
   * Inside a write it runs on the write's connection (where a SET LOCAL applies).
   */
  async explain(query: BuiltQuery): Promise<string> {
    const manager = this.db.manager;
    if (this.postgres) {
      const rows: Array<{ 'QUERY PLAN': string }> = await manager.query(
        `EXPLAIN ${query.sql}`,
        query.parameters,
      );
      return rows.map((r) => r['QUERY PLAN']).join('\n');
    }
    const rows: Array<{ detail: string }> = await manager.query(
      `EXPLAIN QUERY PLAN ${query.sql}`,
      query.parameters,
    );
    return rows.map((r) => r.detail).join('\n');
  }

  /** On SQLite, off the event loop (readCommitted): a year's breakdown takes tens of ms. */
  private run<T = unknown[]>(query: BuiltQuery): Promise<T> {
    return this.db.readCommitted<T>(query.sql, query.parameters);
  }
}

/**
 * Days [first, last] as the whole months inside them, up to the last closed month (whose month rows
 * are complete: closed-months.ts), and the day ranges around those.
 */
export function splitByMonths(
  firstDay: number,
  lastDay: number,
  monthsClosedThrough: number,
): { days: Array<[number, number]>; months: [number, number] | null } {
  const firstMonth = monthOfDay(firstDay);
  const lastMonth = monthOfDay(lastDay);
  const fullFirst = firstDayOfMonth(firstMonth) === firstDay ? firstMonth : firstMonth + 1;
  const fullLast = Math.min(
    monthsClosedThrough,
    firstDayOfMonth(lastMonth + 1) - 1 === lastDay ? lastMonth : lastMonth - 1,
  );
  if (fullFirst > fullLast) {
    return { days: [[firstDay, lastDay]], months: null };
  }
  const days: Array<[number, number]> = [];
  if (firstDay < firstDayOfMonth(fullFirst)) {
    days.push([firstDay, firstDayOfMonth(fullFirst) - 1]);
  }
  if (lastDay > firstDayOfMonth(fullLast + 1) - 1) {
    days.push([firstDayOfMonth(fullLast + 1), lastDay]);
  }
  return { days, months: [fullFirst, fullLast] };
}
