import { MigrationInterface, QueryRunner } from 'typeorm';

/** Plans and payments (issue 18): `plans`, `payments`, and each user's plan and its end. */
export class Billing1765400000000 implements MigrationInterface {
  name = 'Billing1765400000000';

  async up(q: QueryRunner): Promise<void> {
    await q.query(
      `CREATE TABLE "plans" ("id" integer PRIMARY KEY AUTOINCREMENT NOT NULL, "name" varchar(64) NOT NULL, "settings" text NOT NULL, "prices" text NOT NULL, "price_ids" text NOT NULL, "datetime" datetime NOT NULL, "last_datetime" datetime)`,
    );
    await q.query(
      `CREATE TABLE "payments" ("id" integer PRIMARY KEY AUTOINCREMENT NOT NULL, "user_id" integer, "plan_id" integer, "processor" varchar(32) NOT NULL, "payment_id" varchar(255) NOT NULL, "type" varchar(16) NOT NULL, "frequency" varchar(16) NOT NULL, "email" varchar(254) NOT NULL, "name" varchar(128), "currency" varchar(3) NOT NULL, "base_amount" integer NOT NULL, "discount_amount" integer NOT NULL, "total_amount" integer NOT NULL, "code" varchar(64), "status" boolean NOT NULL, "datetime" datetime NOT NULL, CONSTRAINT "FK_427785468fb7d2733f59e7d7d39" FOREIGN KEY ("user_id") REFERENCES "users" ("id") ON DELETE SET NULL ON UPDATE NO ACTION)`,
    );
    await q.query(`CREATE INDEX "IDX_d6d997ae55abc54da5869cb0a8" ON "payments" ("user_id", "id")`);
    await q.query(
      `CREATE UNIQUE INDEX "IDX_c5c0c475ba6d0f9a08d114c79f" ON "payments" ("processor", "payment_id")`,
    );
    // Added in place: rebuilding "users" would cascade into every table that references it.
    await q.query(`ALTER TABLE "users" ADD COLUMN "plan_id" integer`);
    await q.query(`ALTER TABLE "users" ADD COLUMN "plan_expiration_date" datetime`);
  }

  async down(q: QueryRunner): Promise<void> {
    await q.query(`ALTER TABLE "users" DROP COLUMN "plan_expiration_date"`);
    await q.query(`ALTER TABLE "users" DROP COLUMN "plan_id"`);
    await q.query(`DROP INDEX "IDX_c5c0c475ba6d0f9a08d114c79f"`);
    await q.query(`DROP INDEX "IDX_d6d997ae55abc54da5869cb0a8"`);
    await q.query(`DROP TABLE "payments"`);
    await q.query(`DROP TABLE "plans"`);
  }
}
