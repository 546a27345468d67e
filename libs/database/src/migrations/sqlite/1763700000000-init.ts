import { MigrationInterface, QueryRunner } from 'typeorm';

export class Init1763700000000 implements MigrationInterface {
  name = 'Init1763700000000';

  async up(q: QueryRunner): Promise<void> {
    await q.query(
      `CREATE TABLE "users" ("id" integer PRIMARY KEY AUTOINCREMENT NOT NULL, "email" varchar(254) NOT NULL, "name" varchar(64) NOT NULL, "is_admin" boolean NOT NULL DEFAULT (0), "timezone" varchar(64) NOT NULL DEFAULT ('UTC'), "datetime" datetime NOT NULL, "last_datetime" datetime, CONSTRAINT "UQ_97672ac88f789774dd47f7c8be3" UNIQUE ("email"))`,
    );
    await q.query(
      `CREATE TABLE "api_keys" ("id" integer PRIMARY KEY AUTOINCREMENT NOT NULL, "user_id" integer NOT NULL, "name" varchar(64) NOT NULL DEFAULT (''), "prefix" varchar(16) NOT NULL, "key_hash" varchar(64) NOT NULL, "expiration_datetime" datetime, "revocation_datetime" datetime, "last_used_datetime" datetime, "datetime" datetime NOT NULL, CONSTRAINT "UQ_57384430aa1959f4578046c9b81" UNIQUE ("key_hash"), CONSTRAINT "FK_a3baee01d8408cd3c0f89a9a973" FOREIGN KEY ("user_id") REFERENCES "users" ("id") ON DELETE CASCADE ON UPDATE NO ACTION)`,
    );
    await q.query(`CREATE INDEX "IDX_a3baee01d8408cd3c0f89a9a97" ON "api_keys" ("user_id")`);
    await q.query(
      `CREATE TABLE "projects" ("id" integer PRIMARY KEY AUTOINCREMENT NOT NULL, "user_id" integer NOT NULL, "name" varchar(64) NOT NULL, "color" varchar(7) NOT NULL DEFAULT ('#000000'), "datetime" datetime NOT NULL, "last_datetime" datetime, CONSTRAINT "FK_bd55b203eb9f92b0c8390380010" FOREIGN KEY ("user_id") REFERENCES "users" ("id") ON DELETE CASCADE ON UPDATE NO ACTION)`,
    );
    await q.query(`CREATE INDEX "IDX_bd55b203eb9f92b0c839038001" ON "projects" ("user_id")`);
  }

  async down(q: QueryRunner): Promise<void> {
    await q.query(`DROP INDEX "IDX_bd55b203eb9f92b0c839038001"`);
    await q.query(`DROP TABLE "projects"`);
    await q.query(`DROP INDEX "IDX_a3baee01d8408cd3c0f89a9a97"`);
    await q.query(`DROP TABLE "api_keys"`);
    await q.query(`DROP TABLE "users"`);
  }
}
