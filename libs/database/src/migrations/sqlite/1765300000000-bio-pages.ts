import { MigrationInterface, QueryRunner } from 'typeorm';

/** `biolink_blocks` (blocks of bio pages) and `data` (collected data records, no FK to blocks). */
export class BioPages1765300000000 implements MigrationInterface {
  name = 'BioPages1765300000000';

  async up(q: QueryRunner): Promise<void> {
    await q.query(
      `CREATE TABLE "biolink_blocks" ("id" integer PRIMARY KEY AUTOINCREMENT NOT NULL, "user_id" integer NOT NULL, "link_id" integer NOT NULL, "type" varchar(32) NOT NULL, "settings" text NOT NULL, "order" integer NOT NULL DEFAULT (0), "is_enabled" boolean NOT NULL DEFAULT (1), "clicks" integer NOT NULL DEFAULT (0), "datetime" datetime NOT NULL, "last_datetime" datetime, CONSTRAINT "FK_3b4695716bf20fd23e713a60b1e" FOREIGN KEY ("user_id") REFERENCES "users" ("id") ON DELETE CASCADE ON UPDATE NO ACTION, CONSTRAINT "FK_1cbe1acc9c996317a80b0639288" FOREIGN KEY ("link_id") REFERENCES "links" ("id") ON DELETE CASCADE ON UPDATE NO ACTION)`,
    );
    await q.query(`CREATE INDEX "IDX_3b4695716bf20fd23e713a60b1" ON "biolink_blocks" ("user_id")`);
    await q.query(
      `CREATE INDEX "IDX_3622b5a82b28837b9cd0d377ac" ON "biolink_blocks" ("link_id", "order")`,
    );
    await q.query(
      `CREATE TABLE "data" ("id" integer PRIMARY KEY AUTOINCREMENT NOT NULL, "user_id" integer NOT NULL, "biolink_block_id" integer NOT NULL, "link_id" integer NOT NULL, "project_id" integer, "type" varchar(32) NOT NULL, "data" text NOT NULL, "email" varchar(320), "name" varchar(128), "phone" varchar(32), "slot_start" datetime, "datetime" datetime NOT NULL, CONSTRAINT "FK_67f4e9159342cf6840efece7aaf" FOREIGN KEY ("user_id") REFERENCES "users" ("id") ON DELETE CASCADE ON UPDATE NO ACTION)`,
    );
    await q.query(`CREATE INDEX "IDX_67f4e9159342cf6840efece7aa" ON "data" ("user_id")`);
    await q.query(`CREATE INDEX "IDX_99d70aa3b44b462e9d41f6ff4f" ON "data" ("link_id")`);
    await q.query(
      `CREATE UNIQUE INDEX "IDX_e4b6aedf9427c5e9372bfb2233" ON "data" ("biolink_block_id", "slot_start")`,
    );
  }

  async down(q: QueryRunner): Promise<void> {
    await q.query(`DROP INDEX "IDX_e4b6aedf9427c5e9372bfb2233"`);
    await q.query(`DROP INDEX "IDX_99d70aa3b44b462e9d41f6ff4f"`);
    await q.query(`DROP INDEX "IDX_67f4e9159342cf6840efece7aa"`);
    await q.query(`DROP TABLE "data"`);
    await q.query(`DROP INDEX "IDX_3622b5a82b28837b9cd0d377ac"`);
    await q.query(`DROP INDEX "IDX_3b4695716bf20fd23e713a60b1"`);
    await q.query(`DROP TABLE "biolink_blocks"`);
  }
}
