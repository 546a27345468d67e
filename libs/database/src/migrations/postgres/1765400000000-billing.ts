import { MigrationInterface, QueryRunner } from 'typeorm';

/** Plans and payments (issue 18): `plans`, `payments`, and each user's plan and its end. */
export class Billing1765400000000 implements MigrationInterface {
  name = 'Billing1765400000000';

  async up(q: QueryRunner): Promise<void> {
    await q.query(
      `CREATE TABLE "plans" ("id" SERIAL NOT NULL, "name" character varying(64) NOT NULL, "settings" text NOT NULL, "prices" text NOT NULL, "price_ids" text NOT NULL, "datetime" TIMESTAMP NOT NULL, "last_datetime" TIMESTAMP, CONSTRAINT "PK_3720521a81c7c24fe9b7202ba61" PRIMARY KEY ("id"))`,
    );
    await q.query(
      `CREATE TABLE "payments" ("id" SERIAL NOT NULL, "user_id" integer, "plan_id" integer, "processor" character varying(32) NOT NULL, "payment_id" character varying(255) NOT NULL, "type" character varying(16) NOT NULL, "frequency" character varying(16) NOT NULL, "email" character varying(254) NOT NULL, "name" character varying(128), "currency" character varying(3) NOT NULL, "base_amount" bigint NOT NULL, "discount_amount" bigint NOT NULL, "total_amount" bigint NOT NULL, "code" character varying(64), "status" boolean NOT NULL, "datetime" TIMESTAMP NOT NULL, CONSTRAINT "PK_197ab7af18c93fbb0c9b28b4a59" PRIMARY KEY ("id"))`,
    );
    await q.query(`CREATE INDEX "IDX_d6d997ae55abc54da5869cb0a8" ON "payments" ("user_id", "id")`);
    await q.query(
      `CREATE UNIQUE INDEX "IDX_c5c0c475ba6d0f9a08d114c79f" ON "payments" ("processor", "payment_id")`,
    );
    await q.query(`ALTER TABLE "users" ADD "plan_id" integer`);
    await q.query(`ALTER TABLE "users" ADD "plan_expiration_date" TIMESTAMP`);
    await q.query(
      `ALTER TABLE "payments" ADD CONSTRAINT "FK_427785468fb7d2733f59e7d7d39" FOREIGN KEY ("user_id") REFERENCES "users"("id") ON DELETE SET NULL ON UPDATE NO ACTION`,
    );
  }

  async down(q: QueryRunner): Promise<void> {
    await q.query(`ALTER TABLE "payments" DROP CONSTRAINT "FK_427785468fb7d2733f59e7d7d39"`);
    await q.query(`ALTER TABLE "users" DROP COLUMN "plan_expiration_date"`);
    await q.query(`ALTER TABLE "users" DROP COLUMN "plan_id"`);
    await q.query(`DROP INDEX "IDX_c5c0c475ba6d0f9a08d114c79f"`);
    await q.query(`DROP INDEX "IDX_d6d997ae55abc54da5869cb0a8"`);
    await q.query(`DROP TABLE "payments"`);
    await q.query(`DROP TABLE "plans"`);
  }
}
