import { MigrationInterface, QueryRunner } from 'typeorm';

/** `account_logs`: what happened to each account (GET /v1/logs/), kept 90 days by default. */
export class AccountLogs1764840000000 implements MigrationInterface {
  name = 'AccountLogs1764840000000';

  async up(q: QueryRunner): Promise<void> {
    await q.query(
      `CREATE TABLE "account_logs" ("id" SERIAL NOT NULL, "user_id" integer NOT NULL, "type" character varying(64) NOT NULL, "data" text NOT NULL, "datetime" TIMESTAMP NOT NULL, CONSTRAINT "PK_adde3dee063da0c320bc8bdad7a" PRIMARY KEY ("id"))`,
    );
    await q.query(`CREATE INDEX "IDX_7c7374344cc75d6eba5362c7ac" ON "account_logs" ("datetime")`);
    await q.query(
      `CREATE INDEX "IDX_7a9da70096248bcb609fed9410" ON "account_logs" ("user_id", "id")`,
    );
    await q.query(
      `ALTER TABLE "account_logs" ADD CONSTRAINT "FK_ca57c9bfffbb1a644dc8443c77b" FOREIGN KEY ("user_id") REFERENCES "users"("id") ON DELETE CASCADE ON UPDATE NO ACTION`,
    );
  }

  async down(q: QueryRunner): Promise<void> {
    await q.query(`ALTER TABLE "account_logs" DROP CONSTRAINT "FK_ca57c9bfffbb1a644dc8443c77b"`);
    await q.query(`DROP INDEX "IDX_7a9da70096248bcb609fed9410"`);
    await q.query(`DROP INDEX "IDX_7c7374344cc75d6eba5362c7ac"`);
    await q.query(`DROP TABLE "account_logs"`);
  }
}
