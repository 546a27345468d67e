import { MigrationInterface, QueryRunner } from 'typeorm';
import { backfillRollups } from '../../rollups/backfill';

/** Statistics roll-ups (see statistics/stat.entities.ts), filled from the visits already stored. */
export class StatisticsRollups1764200000000 implements MigrationInterface {
  name = 'StatisticsRollups1764200000000';

  async up(q: QueryRunner): Promise<void> {
    await q.query(
      `CREATE TABLE "stats_link_quarters" ("link_id" integer NOT NULL, "bucket" integer NOT NULL, "pageviews" integer NOT NULL, "visitors" integer NOT NULL, CONSTRAINT "PK_db38d8d9f7b165557df22f16160" PRIMARY KEY ("link_id", "bucket"))`,
    );
    await q.query(
      `CREATE TABLE "stats_user_quarters" ("user_id" integer NOT NULL, "bucket" integer NOT NULL, "pageviews" integer NOT NULL, "visitors" integer NOT NULL, CONSTRAINT "PK_a2cfec12715e1dc951a908ee690" PRIMARY KEY ("user_id", "bucket"))`,
    );
    await q.query(
      `CREATE TABLE "stats_link_dimensions" ("link_id" integer NOT NULL, "dimension" character varying(16) NOT NULL, "day" integer NOT NULL, "value1" character varying(253) NOT NULL, "value2" character varying(512) NOT NULL, "value3" character varying(128) NOT NULL, "pageviews" integer NOT NULL, CONSTRAINT "PK_70a99ad6f0d05e20036b56cf0ea" PRIMARY KEY ("link_id", "dimension", "day", "value1", "value2", "value3"))`,
    );
    await q.query(
      `CREATE TABLE "stats_user_dimensions" ("user_id" integer NOT NULL, "dimension" character varying(16) NOT NULL, "day" integer NOT NULL, "value1" character varying(253) NOT NULL, "value2" character varying(512) NOT NULL, "value3" character varying(128) NOT NULL, "pageviews" integer NOT NULL, CONSTRAINT "PK_29ab67cd73c835f305c1eeda08f" PRIMARY KEY ("user_id", "dimension", "day", "value1", "value2", "value3"))`,
    );
    await q.query(
      `ALTER TABLE "stats_link_quarters" ADD CONSTRAINT "FK_f3192fdda9ea8c1e2993c8678b4" FOREIGN KEY ("link_id") REFERENCES "links"("id") ON DELETE CASCADE ON UPDATE NO ACTION`,
    );
    await q.query(
      `ALTER TABLE "stats_user_quarters" ADD CONSTRAINT "FK_ce552a9aa32be0d2d9fb24abe8e" FOREIGN KEY ("user_id") REFERENCES "users"("id") ON DELETE CASCADE ON UPDATE NO ACTION`,
    );
    await q.query(
      `ALTER TABLE "stats_link_dimensions" ADD CONSTRAINT "FK_30edb6c7e4e3d7d20e7313cb2d2" FOREIGN KEY ("link_id") REFERENCES "links"("id") ON DELETE CASCADE ON UPDATE NO ACTION`,
    );
    await q.query(
      `ALTER TABLE "stats_user_dimensions" ADD CONSTRAINT "FK_e04d1d3e19e583a87983ba313df" FOREIGN KEY ("user_id") REFERENCES "users"("id") ON DELETE CASCADE ON UPDATE NO ACTION`,
    );
    await backfillRollups(q, true);
  }

  async down(q: QueryRunner): Promise<void> {
    await q.query(
      `ALTER TABLE "stats_user_dimensions" DROP CONSTRAINT "FK_e04d1d3e19e583a87983ba313df"`,
    );
    await q.query(
      `ALTER TABLE "stats_link_dimensions" DROP CONSTRAINT "FK_30edb6c7e4e3d7d20e7313cb2d2"`,
    );
    await q.query(
      `ALTER TABLE "stats_user_quarters" DROP CONSTRAINT "FK_ce552a9aa32be0d2d9fb24abe8e"`,
    );
    await q.query(
      `ALTER TABLE "stats_link_quarters" DROP CONSTRAINT "FK_f3192fdda9ea8c1e2993c8678b4"`,
    );
    await q.query(`DROP TABLE "stats_user_dimensions"`);
    await q.query(`DROP TABLE "stats_link_dimensions"`);
    await q.query(`DROP TABLE "stats_user_quarters"`);
    await q.query(`DROP TABLE "stats_link_quarters"`);
  }
}
