import { MigrationInterface, QueryRunner } from 'typeorm';
import { backfillRollups } from '../../rollups/backfill';

/** Statistics roll-ups (see statistics/stat.entities.ts), filled from the visits already stored. */
export class StatisticsRollups1764200000000 implements MigrationInterface {
  name = 'StatisticsRollups1764200000000';

  async up(q: QueryRunner): Promise<void> {
    await q.query(
      `CREATE TABLE "stats_link_quarters" ("link_id" integer NOT NULL, "bucket" integer NOT NULL, "pageviews" integer NOT NULL, "visitors" integer NOT NULL, CONSTRAINT "FK_f3192fdda9ea8c1e2993c8678b4" FOREIGN KEY ("link_id") REFERENCES "links" ("id") ON DELETE CASCADE ON UPDATE NO ACTION, PRIMARY KEY ("link_id", "bucket")) WITHOUT ROWID`,
    );
    await q.query(
      `CREATE TABLE "stats_user_quarters" ("user_id" integer NOT NULL, "bucket" integer NOT NULL, "pageviews" integer NOT NULL, "visitors" integer NOT NULL, CONSTRAINT "FK_ce552a9aa32be0d2d9fb24abe8e" FOREIGN KEY ("user_id") REFERENCES "users" ("id") ON DELETE CASCADE ON UPDATE NO ACTION, PRIMARY KEY ("user_id", "bucket")) WITHOUT ROWID`,
    );
    await q.query(
      `CREATE TABLE "stats_link_dimensions" ("link_id" integer NOT NULL, "dimension" varchar(16) NOT NULL, "day" integer NOT NULL, "value1" varchar(253) NOT NULL, "value2" varchar(512) NOT NULL, "value3" varchar(128) NOT NULL, "pageviews" integer NOT NULL, CONSTRAINT "FK_30edb6c7e4e3d7d20e7313cb2d2" FOREIGN KEY ("link_id") REFERENCES "links" ("id") ON DELETE CASCADE ON UPDATE NO ACTION, PRIMARY KEY ("link_id", "dimension", "day", "value1", "value2", "value3")) WITHOUT ROWID`,
    );
    await q.query(
      `CREATE TABLE "stats_user_dimensions" ("user_id" integer NOT NULL, "dimension" varchar(16) NOT NULL, "day" integer NOT NULL, "value1" varchar(253) NOT NULL, "value2" varchar(512) NOT NULL, "value3" varchar(128) NOT NULL, "pageviews" integer NOT NULL, CONSTRAINT "FK_e04d1d3e19e583a87983ba313df" FOREIGN KEY ("user_id") REFERENCES "users" ("id") ON DELETE CASCADE ON UPDATE NO ACTION, PRIMARY KEY ("user_id", "dimension", "day", "value1", "value2", "value3")) WITHOUT ROWID`,
    );
    await backfillRollups(q, false);
  }

  async down(q: QueryRunner): Promise<void> {
    await q.query(`DROP TABLE "stats_user_dimensions"`);
    await q.query(`DROP TABLE "stats_link_dimensions"`);
    await q.query(`DROP TABLE "stats_user_quarters"`);
    await q.query(`DROP TABLE "stats_link_quarters"`);
  }
}
