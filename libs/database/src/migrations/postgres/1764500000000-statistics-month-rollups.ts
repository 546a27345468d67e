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
        `CREATE TABLE "stats_link_dimension_months" ("link_id" integer NOT NULL, "dimension" character varying(16) NOT NULL, "month" integer NOT NULL, "value1" character varying(253) NOT NULL, "value2" character varying(512) NOT NULL, "value3" character varying(128) NOT NULL, "pageviews" integer NOT NULL, CONSTRAINT "PK_46a4545692aa0c0c5a47b53429c" PRIMARY KEY ("link_id", "dimension", "month", "value1", "value2", "value3"))`,
      );
      await q.query(
        `ALTER TABLE "stats_link_dimension_months" ADD CONSTRAINT "FK_4ae3ed5672f46e2c1f0b4334825" FOREIGN KEY ("link_id") REFERENCES "links"("id") ON DELETE CASCADE ON UPDATE NO ACTION`,
      );
      await fillMonthsFromDays(q, true, link);
    }
    if (!(await q.hasTable(user.months))) {
      await q.query(
        `CREATE TABLE "stats_user_dimension_months" ("user_id" integer NOT NULL, "dimension" character varying(16) NOT NULL, "month" integer NOT NULL, "value1" character varying(253) NOT NULL, "value2" character varying(512) NOT NULL, "value3" character varying(128) NOT NULL, "pageviews" integer NOT NULL, CONSTRAINT "PK_358b6b19eb4d4a12152af4fb460" PRIMARY KEY ("user_id", "dimension", "month", "value1", "value2", "value3"))`,
      );
      await q.query(
        `ALTER TABLE "stats_user_dimension_months" ADD CONSTRAINT "FK_e5d6bca31b9e3147bb566ae51dd" FOREIGN KEY ("user_id") REFERENCES "users"("id") ON DELETE CASCADE ON UPDATE NO ACTION`,
      );
      await fillMonthsFromDays(q, true, user);
    }
  }

  async down(q: QueryRunner): Promise<void> {
    await q.query(
      `ALTER TABLE "stats_user_dimension_months" DROP CONSTRAINT "FK_e5d6bca31b9e3147bb566ae51dd"`,
    );
    await q.query(
      `ALTER TABLE "stats_link_dimension_months" DROP CONSTRAINT "FK_4ae3ed5672f46e2c1f0b4334825"`,
    );
    await q.query(`DROP TABLE "stats_user_dimension_months"`);
    await q.query(`DROP TABLE "stats_link_dimension_months"`);
  }
}
