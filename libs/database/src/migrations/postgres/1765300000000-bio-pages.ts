import { MigrationInterface, QueryRunner } from 'typeorm';

/** `biolink_blocks` (blocks of bio pages) and `data` (collected data records, no FK to blocks). */
export class BioPages1765300000000 implements MigrationInterface {
  name = 'BioPages1765300000000';

  async up(q: QueryRunner): Promise<void> {
    await q.query(
      `CREATE TABLE "biolink_blocks" ("id" SERIAL NOT NULL, "user_id" integer NOT NULL, "link_id" integer NOT NULL, "type" character varying(32) NOT NULL, "settings" text NOT NULL, "order" integer NOT NULL DEFAULT '0', "is_enabled" boolean NOT NULL DEFAULT true, "clicks" bigint NOT NULL DEFAULT '0', "datetime" TIMESTAMP NOT NULL, "last_datetime" TIMESTAMP, CONSTRAINT "PK_7215f65d7cbfc231d1c2112e24c" PRIMARY KEY ("id"))`,
    );
    await q.query(`CREATE INDEX "IDX_3b4695716bf20fd23e713a60b1" ON "biolink_blocks" ("user_id")`);
    await q.query(
      `CREATE INDEX "IDX_3622b5a82b28837b9cd0d377ac" ON "biolink_blocks" ("link_id", "order")`,
    );
    await q.query(
      `CREATE TABLE "data" ("id" SERIAL NOT NULL, "user_id" integer NOT NULL, "biolink_block_id" integer NOT NULL, "link_id" integer NOT NULL, "project_id" integer, "type" character varying(32) NOT NULL, "data" text NOT NULL, "email" character varying(320), "name" character varying(128), "phone" character varying(32), "slot_start" TIMESTAMP, "datetime" TIMESTAMP NOT NULL, CONSTRAINT "PK_2533602bd9247937e3a4861e173" PRIMARY KEY ("id"))`,
    );
    await q.query(`CREATE INDEX "IDX_67f4e9159342cf6840efece7aa" ON "data" ("user_id")`);
    await q.query(`CREATE INDEX "IDX_99d70aa3b44b462e9d41f6ff4f" ON "data" ("link_id")`);
    await q.query(
      `CREATE UNIQUE INDEX "IDX_e4b6aedf9427c5e9372bfb2233" ON "data" ("biolink_block_id", "slot_start")`,
    );
    await q.query(
      `ALTER TABLE "biolink_blocks" ADD CONSTRAINT "FK_3b4695716bf20fd23e713a60b1e" FOREIGN KEY ("user_id") REFERENCES "users"("id") ON DELETE CASCADE ON UPDATE NO ACTION`,
    );
    await q.query(
      `ALTER TABLE "biolink_blocks" ADD CONSTRAINT "FK_1cbe1acc9c996317a80b0639288" FOREIGN KEY ("link_id") REFERENCES "links"("id") ON DELETE CASCADE ON UPDATE NO ACTION`,
    );
    await q.query(
      `ALTER TABLE "data" ADD CONSTRAINT "FK_67f4e9159342cf6840efece7aaf" FOREIGN KEY ("user_id") REFERENCES "users"("id") ON DELETE CASCADE ON UPDATE NO ACTION`,
    );
  }

  async down(q: QueryRunner): Promise<void> {
    await q.query(`ALTER TABLE "data" DROP CONSTRAINT "FK_67f4e9159342cf6840efece7aaf"`);
    await q.query(`ALTER TABLE "biolink_blocks" DROP CONSTRAINT "FK_1cbe1acc9c996317a80b0639288"`);
    await q.query(`ALTER TABLE "biolink_blocks" DROP CONSTRAINT "FK_3b4695716bf20fd23e713a60b1e"`);
    await q.query(`DROP INDEX "IDX_e4b6aedf9427c5e9372bfb2233"`);
    await q.query(`DROP INDEX "IDX_99d70aa3b44b462e9d41f6ff4f"`);
    await q.query(`DROP INDEX "IDX_67f4e9159342cf6840efece7aa"`);
    await q.query(`DROP TABLE "data"`);
    await q.query(`DROP INDEX "IDX_3622b5a82b28837b9cd0d377ac"`);
    await q.query(`DROP INDEX "IDX_3b4695716bf20fd23e713a60b1"`);
    await q.query(`DROP TABLE "biolink_blocks"`);
  }
}
