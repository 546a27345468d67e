import { MigrationInterface, QueryRunner } from 'typeorm';

export class QrCodes1763900000000 implements MigrationInterface {
  name = 'QrCodes1763900000000';

  async up(q: QueryRunner): Promise<void> {
    await q.query(
      `CREATE TABLE "qr_codes" ("id" integer PRIMARY KEY AUTOINCREMENT NOT NULL, "user_id" integer NOT NULL, "project_id" integer, "type" varchar(16) NOT NULL, "name" varchar(64) NOT NULL, "settings" text NOT NULL, "embedded_data" text NOT NULL, "qr_code" varchar(128) NOT NULL, "qr_code_logo" varchar(128), "qr_code_background" varchar(128), "qr_code_foreground" varchar(128), "is_readable" boolean NOT NULL, "datetime" datetime NOT NULL, "last_datetime" datetime, CONSTRAINT "FK_f1f441f26cb73a38ee7026ab35c" FOREIGN KEY ("user_id") REFERENCES "users" ("id") ON DELETE CASCADE ON UPDATE NO ACTION, CONSTRAINT "FK_9d9b970178e42334fbe94bcd20f" FOREIGN KEY ("project_id") REFERENCES "projects" ("id") ON DELETE SET NULL ON UPDATE NO ACTION)`,
    );
    await q.query(`CREATE INDEX "IDX_f1f441f26cb73a38ee7026ab35" ON "qr_codes" ("user_id")`);
    await q.query(`CREATE INDEX "IDX_9d9b970178e42334fbe94bcd20" ON "qr_codes" ("project_id")`);
  }

  async down(q: QueryRunner): Promise<void> {
    await q.query(`DROP INDEX "IDX_9d9b970178e42334fbe94bcd20"`);
    await q.query(`DROP INDEX "IDX_f1f441f26cb73a38ee7026ab35"`);
    await q.query(`DROP TABLE "qr_codes"`);
  }
}
