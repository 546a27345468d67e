import type { QueryRunner } from 'typeorm';

/** The month tables, their scope column, and the day table each is the sum of. */
export const MONTH_TABLES = [
  { months: 'stats_link_dimension_months', days: 'stats_link_dimensions', scope: 'link_id' },
  { months: 'stats_user_dimension_months', days: 'stats_user_dimensions', scope: 'user_id' },
] as const;

/**
 * Fills a month table from its day table: the month of a day (days since 1970-01-01) counted in
 * months since January 1970, as monthOfDay() does for the live writer.
 */
export async function fillMonthsFromDays(
  q: QueryRunner,
  postgres: boolean,
  table: (typeof MONTH_TABLES)[number],
): Promise<void> {
  const month = postgres
    ? `((EXTRACT(YEAR FROM DATE '1970-01-01' + "day")::integer - 1970) * 12 + EXTRACT(MONTH FROM DATE '1970-01-01' + "day")::integer - 1)`
    : `((CAST(strftime('%Y', "day" * 86400, 'unixepoch') AS INTEGER) - 1970) * 12 + CAST(strftime('%m', "day" * 86400, 'unixepoch') AS INTEGER) - 1)`;
  const columns = `"${table.scope}", "dimension", "month", "value1", "value2", "value3", "pageviews"`;
  await q.query(
    `INSERT INTO "${table.months}" (${columns})
      SELECT "${table.scope}", "dimension", ${month}, "value1", "value2", "value3", SUM("pageviews")
      FROM "${table.days}"
      GROUP BY "${table.scope}", "dimension", ${month}, "value1", "value2", "value3"`,
  );
}
