import { Column, type ValueTransformer } from 'typeorm';

/**
 * node-postgres reads int8 as a string (a JavaScript number cannot hold every int8); counters are
 * read as numbers, exact up to Number.MAX_SAFE_INTEGER (2^53 - 1, some 9 * 10^15 visits), which
 * no counter will reach. better-sqlite3 already returns numbers.
 */
export const COUNTER_TRANSFORMER: ValueTransformer = {
  to: (value: unknown) => value,
  from: (value: unknown) => (value === null || value === undefined ? value : Number(value)),
};

/**
 * A count of visits (`links.clicks`, the roll-ups' pageviews and visitors): 64-bit, where an
 * `integer` would stop at 2^31 - 1 on PostgreSQL and make every later write of the row fail.
 * (SQLite's INTEGER is 64-bit whatever the declared type.)
 */
export function CounterColumn(options: { default?: number } = {}): PropertyDecorator {
  return Column({ type: 'bigint', transformer: COUNTER_TRANSFORMER, ...options });
}
