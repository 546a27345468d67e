import { MigrationInterface, QueryRunner } from 'typeorm';
import { fillMonthsFromDays, MONTH_TABLES } from '../../rollups/month-rollups-migration';

/**
 * Breakdown roll-ups per month, summed from the day tables. A database migrated while migration
 * 1764200000000 created these tables itself (it did for a while) has them filled already: they are
 * then left as they are.
 */
export class StatisticsMonthRollups1764500000000 implements MigrationInterface {
  name = 'StatisticsMonthRollups1764500000000';

  async up(q: QueryRunner): Promise<void> {
    const [link, user] = MONTH_TABLES;
    if (!(await q.hasTable(link.months))) {
      await q.query(
        `CREATE TABLE "stats_link_dimension_months" ("link_id" integer NOT NULL, "dimension" varchar(16) NOT NULL, "month" integer NOT NULL, "value1" varchar(253) NOT NULL, "value2" varchar(512) NOT NULL, "value3" varchar(128) NOT NULL, "pageviews" integer NOT NULL, CONSTRAINT "FK_4ae3ed5672f46e2c1f0b4334825" FOREIGN KEY ("link_id") REFERENCES "links" ("id") ON DELETE CASCADE ON UPDATE NO ACTION, PRIMARY KEY ("link_id", "dimension", "month", "value1", "value2", "value3")) WITHOUT ROWID`,
      );
      await fillMonthsFromDays(q, false, link);
    }
    if (!(await q.hasTable(user.months))) {
      await q.query(
        `CREATE TABLE "stats_user_dimension_months" ("user_id" integer NOT NULL, "dimension" varchar(16) NOT NULL, "month" integer NOT NULL, "value1" varchar(253) NOT NULL, "value2" varchar(512) NOT NULL, "value3" varchar(128) NOT NULL, "pageviews" integer NOT NULL, CONSTRAINT "FK_e5d6bca31b9e3147bb566ae51dd" FOREIGN KEY ("user_id") REFERENCES "users" ("id") ON DELETE CASCADE ON UPDATE NO ACTION, PRIMARY KEY ("user_id", "dimension", "month", "value1", "value2", "value3")) WITHOUT ROWID`,
      );
      await fillMonthsFromDays(q, false, user);
    }
  }

  async down(q: QueryRunner): Promise<void> {
    await q.query(`DROP TABLE "stats_user_dimension_months"`);
    await q.query(`DROP TABLE "stats_link_dimension_months"`);
  }
}
