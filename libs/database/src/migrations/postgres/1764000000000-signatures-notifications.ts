import { MigrationInterface, QueryRunner } from 'typeorm';

export class SignaturesNotifications1764000000000 implements MigrationInterface {
  name = 'SignaturesNotifications1764000000000';

  async up(q: QueryRunner): Promise<void> {
    await q.query(
      `CREATE TABLE "signatures" ("id" SERIAL NOT NULL, "user_id" integer NOT NULL, "project_id" integer, "name" character varying(64) NOT NULL, "template" character varying(32) NOT NULL, "settings" text NOT NULL, "preview_token" character varying(64) NOT NULL, "datetime" TIMESTAMP NOT NULL, "last_datetime" TIMESTAMP, CONSTRAINT "UQ_a5ee63043c776606dbdf0448e91" UNIQUE ("preview_token"), CONSTRAINT "PK_f56eb3cd344ce7f9ae28ce814eb" PRIMARY KEY ("id"))`,
    );
    await q.query(`CREATE INDEX "IDX_c93e294b75e34b850a599a51e2" ON "signatures" ("user_id")`);
    await q.query(`CREATE INDEX "IDX_e0749e721a3846931787b7aa32" ON "signatures" ("project_id")`);
    await q.query(
      `ALTER TABLE "signatures" ADD CONSTRAINT "FK_c93e294b75e34b850a599a51e2c" FOREIGN KEY ("user_id") REFERENCES "users"("id") ON DELETE CASCADE ON UPDATE NO ACTION`,
    );
    await q.query(
      `ALTER TABLE "signatures" ADD CONSTRAINT "FK_e0749e721a3846931787b7aa320" FOREIGN KEY ("project_id") REFERENCES "projects"("id") ON DELETE SET NULL ON UPDATE NO ACTION`,
    );
    await q.query(
      `CREATE TABLE "notification_handlers" ("id" SERIAL NOT NULL, "user_id" integer NOT NULL, "name" character varying(64) NOT NULL, "type" character varying(32) NOT NULL, "settings_encrypted" text NOT NULL, "is_enabled" boolean NOT NULL DEFAULT true, "datetime" TIMESTAMP NOT NULL, "last_datetime" TIMESTAMP, CONSTRAINT "PK_0f6e0455ed9f4ec176ab5fc1a01" PRIMARY KEY ("id"))`,
    );
    await q.query(
      `CREATE INDEX "IDX_7f9a1b701af194c861f7ac7e5d" ON "notification_handlers" ("user_id")`,
    );
    await q.query(
      `ALTER TABLE "notification_handlers" ADD CONSTRAINT "FK_7f9a1b701af194c861f7ac7e5dc" FOREIGN KEY ("user_id") REFERENCES "users"("id") ON DELETE CASCADE ON UPDATE NO ACTION`,
    );
  }

  async down(q: QueryRunner): Promise<void> {
    await q.query(`DROP TABLE "notification_handlers"`);
    await q.query(`DROP TABLE "signatures"`);
  }
}
