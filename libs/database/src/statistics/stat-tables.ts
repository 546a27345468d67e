import type { Db } from '../engine/db';

/*
 * The roll-up tables (stat.entities.ts) as the SQL that writes and subtracts them names them, and
 * the lock of their closed months. Shared by the roll-up writers (rollups/) and the subtraction the
 * link repositories run (subtract-links.ts), which must lock rows in the writers' order; imports
 * nothing but types.
 */

export interface Table {
  name: string;
  scope: 'link_id' | 'user_id';
}

export const QUARTER_TABLES = {
  link: { name: 'stats_link_quarters', scope: 'link_id' },
  user: { name: 'stats_user_quarters', scope: 'user_id' },
} as const satisfies Record<string, Table>;

export interface DimensionTable extends Table {
  period: 'day' | 'month';
}

export const DIMENSION_TABLES = {
  link: { name: 'stats_link_dimensions', scope: 'link_id', period: 'day' },
  user: { name: 'stats_user_dimensions', scope: 'user_id', period: 'day' },
  linkMonth: { name: 'stats_link_dimension_months', scope: 'link_id', period: 'month' },
  userMonth: { name: 'stats_user_dimension_months', scope: 'user_id', period: 'month' },
} as const satisfies Record<string, DimensionTable>;

/** Each account-wide dimension table with the per-link table it is the sum of. */
export const ACCOUNT_DIMENSION_TABLES = [
  [DIMENSION_TABLES.user, DIMENSION_TABLES.link],
  [DIMENSION_TABLES.userMonth, DIMENSION_TABLES.linkMonth],
] as const;

export const dimensionKey = (table: DimensionTable): string[] => [
  'dimension',
  table.period,
  'value1',
  'value2',
  'value3',
];

/** pg_advisory_xact_lock's key for the closed-months mark ("lkdm" as a 32-bit integer). */
export const CLOSED_MONTHS_LOCK = 0x6c6b646d;

/**
 * PostgreSQL: holds the closed-months mark (rollups/closed-months.ts) shared until the transaction
 * ends, so that no month closes meanwhile. The first statement of a transaction that adds to or
 * subtracts from roll-up rows, before it locks any link (a close's inserts wait on links' keys).
 * Nothing on SQLite, whose single writer serialises them.
 */
export function holdClosedMonths(db: Db): Promise<void> {
  return db.holdShared(CLOSED_MONTHS_LOCK);
}
