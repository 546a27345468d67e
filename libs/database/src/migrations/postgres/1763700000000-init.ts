import { MigrationInterface, QueryRunner } from 'typeorm';

export class Init1763700000000 implements MigrationInterface {
  name = 'Init1763700000000';

  async up(q: QueryRunner): Promise<void> {
    await q.query(
      `CREATE TABLE "users" ("id" SERIAL NOT NULL, "email" character varying(254) NOT NULL, "name" character varying(64) NOT NULL, "is_admin" boolean NOT NULL DEFAULT false, "timezone" character varying(64) NOT NULL DEFAULT 'UTC', "datetime" TIMESTAMP NOT NULL, "last_datetime" TIMESTAMP, CONSTRAINT "UQ_97672ac88f789774dd47f7c8be3" UNIQUE ("email"), CONSTRAINT "PK_a3ffb1c0c8416b9fc6f907b7433" PRIMARY KEY ("id"))`,
    );
    await q.query(
      `CREATE TABLE "api_keys" ("id" SERIAL NOT NULL, "user_id" integer NOT NULL, "name" character varying(64) NOT NULL DEFAULT '', "prefix" character varying(16) NOT NULL, "key_hash" character varying(64) NOT NULL, "expiration_datetime" TIMESTAMP, "revocation_datetime" TIMESTAMP, "last_used_datetime" TIMESTAMP, "datetime" TIMESTAMP NOT NULL, CONSTRAINT "UQ_57384430aa1959f4578046c9b81" UNIQUE ("key_hash"), CONSTRAINT "PK_5c8a79801b44bd27b79228e1dad" PRIMARY KEY ("id"))`,
    );
    await q.query(`CREATE INDEX "IDX_a3baee01d8408cd3c0f89a9a97" ON "api_keys" ("user_id")`);
    await q.query(
      `ALTER TABLE "api_keys" ADD CONSTRAINT "FK_a3baee01d8408cd3c0f89a9a973" FOREIGN KEY ("user_id") REFERENCES "users"("id") ON DELETE CASCADE ON UPDATE NO ACTION`,
    );
    await q.query(
      `CREATE TABLE "projects" ("id" SERIAL NOT NULL, "user_id" integer NOT NULL, "name" character varying(64) NOT NULL, "color" character varying(7) NOT NULL DEFAULT '#000000', "datetime" TIMESTAMP NOT NULL, "last_datetime" TIMESTAMP, CONSTRAINT "PK_6271df0a7aed1d6c0691ce6ac50" PRIMARY KEY ("id"))`,
    );
    await q.query(`CREATE INDEX "IDX_bd55b203eb9f92b0c839038001" ON "projects" ("user_id")`);
    await q.query(
      `ALTER TABLE "projects" ADD CONSTRAINT "FK_bd55b203eb9f92b0c8390380010" FOREIGN KEY ("user_id") REFERENCES "users"("id") ON DELETE CASCADE ON UPDATE NO ACTION`,
    );
  }

  async down(q: QueryRunner): Promise<void> {
    await q.query(`DROP TABLE "projects"`);
    await q.query(`DROP TABLE "api_keys"`);
    await q.query(`DROP TABLE "users"`);
  }
}
