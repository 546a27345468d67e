import { MigrationInterface, QueryRunner } from 'typeorm';

/** Each table with its counters (see counter-column.ts). */
const COUNTERS: Array<[string, string[]]> = [
  ['links', ['clicks']],
  ['stats_link_quarters', ['pageviews', 'visitors']],
  ['stats_user_quarters', ['pageviews', 'visitors']],
  ['stats_link_dimensions', ['pageviews']],
  ['stats_user_dimensions', ['pageviews']],
  ['stats_link_dimension_months', ['pageviews']],
  ['stats_user_dimension_months', ['pageviews']],
];

function alter(table: string, columns: string[], type: 'bigint' | 'integer'): string {
  const changes = columns.map((c) => `ALTER COLUMN "${c}" TYPE ${type}`).join(', ');
  return `ALTER TABLE "${table}" ${changes}`;
}

/**
 * Counters as bigint: at 2^31 - 1 an `integer` counter stops every write that adds to it. Each
 * table is rewritten once (one ALTER TABLE for all its columns); keys and indexes stay. `down`
 * fails, changing nothing, when a counter has grown past what an integer holds.
 */
export class BigintCounters1764700000000 implements MigrationInterface {
  name = 'BigintCounters1764700000000';

  async up(q: QueryRunner): Promise<void> {
    for (const [table, columns] of COUNTERS) {
      await q.query(alter(table, columns, 'bigint'));
    }
  }

  async down(q: QueryRunner): Promise<void> {
    for (const [table, columns] of [...COUNTERS].reverse()) {
      await q.query(alter(table, columns, 'integer'));
    }
  }
}
