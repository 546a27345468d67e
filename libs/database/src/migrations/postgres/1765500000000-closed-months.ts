import { MigrationInterface, QueryRunner } from 'typeorm';
import { endedMonth } from '../../rollups/closed-months';

/**
 * The mark up to which the month roll-ups are complete (rollups/closed-months.ts): the last month
 * that has ended in every zone, whose rows the visit writer wrote in full until this version. Rows
 * it wrote for a later month are left as they are: readers do not use them, and closing the month
 * replaces each with the sum of its day rows.
 */
export class ClosedMonths1765500000000 implements MigrationInterface {
  name = 'ClosedMonths1765500000000';

  async up(q: QueryRunner): Promise<void> {
    await q.query(
      `CREATE TABLE "stats_closed_months" ("id" integer NOT NULL, "months_closed_through" integer NOT NULL, CONSTRAINT "PK_633d9584b2828bfe80c9cfa4c49" PRIMARY KEY ("id"))`,
    );
    await q.query(
      `INSERT INTO "stats_closed_months" ("id", "months_closed_through") VALUES (1, $1)`,
      [endedMonth(Date.now(), 0)],
    );
  }

  async down(q: QueryRunner): Promise<void> {
    await q.query(`DROP TABLE "stats_closed_months"`);
  }
}
