import { MigrationInterface, QueryRunner } from 'typeorm';

/**
 * Payments as processors send them today (issue 35): `payment_references` (every other id a
 * later event may name a payment by: a Stripe payment intent, charge or checkout session, a
 * Paddle adjustment), and on `payments` the refunded amount, the processor's subscription and
 * customer (a user learned once carries over to their later payments) and the end of the period
 * paid for. Existing payments get 0 refunded (a refunded one keeps status false) and nulls.
 */
export class PaymentReferences1765710000000 implements MigrationInterface {
  name = 'PaymentReferences1765710000000';

  async up(q: QueryRunner): Promise<void> {
    await q.query(
      `CREATE TABLE "payment_references" ("id" integer PRIMARY KEY AUTOINCREMENT NOT NULL, "processor" varchar(32) NOT NULL, "kind" varchar(32) NOT NULL, "value" varchar(255) NOT NULL, "payment_key" varchar(255) NOT NULL)`,
    );
    await q.query(
      `CREATE INDEX "IDX_077af02a5fa73f462f886c46dd" ON "payment_references" ("processor", "payment_key") `,
    );
    await q.query(
      `CREATE UNIQUE INDEX "IDX_20ddfc269812d0d393488a4d68" ON "payment_references" ("processor", "kind", "value") `,
    );
    await q.query(
      `ALTER TABLE "payments" ADD COLUMN "refunded_amount" integer NOT NULL DEFAULT (0)`,
    );
    await q.query(`ALTER TABLE "payments" ADD COLUMN "processor_subscription_id" varchar(255)`);
    await q.query(`ALTER TABLE "payments" ADD COLUMN "processor_customer_id" varchar(255)`);
    await q.query(`ALTER TABLE "payments" ADD COLUMN "period_end" datetime`);
    await q.query(
      `CREATE INDEX "IDX_2412c60a495180666ee1d13bcc" ON "payments" ("processor", "processor_customer_id") `,
    );
    await q.query(
      `CREATE INDEX "IDX_bb9b5e6492879f69ff13a439c8" ON "payments" ("processor", "processor_subscription_id") `,
    );
  }

  async down(q: QueryRunner): Promise<void> {
    await q.query(`DROP INDEX "IDX_bb9b5e6492879f69ff13a439c8"`);
    await q.query(`DROP INDEX "IDX_2412c60a495180666ee1d13bcc"`);
    await q.query(`ALTER TABLE "payments" DROP COLUMN "period_end"`);
    await q.query(`ALTER TABLE "payments" DROP COLUMN "processor_customer_id"`);
    await q.query(`ALTER TABLE "payments" DROP COLUMN "processor_subscription_id"`);
    await q.query(`ALTER TABLE "payments" DROP COLUMN "refunded_amount"`);
    await q.query(`DROP INDEX "IDX_20ddfc269812d0d393488a4d68"`);
    await q.query(`DROP INDEX "IDX_077af02a5fa73f462f886c46dd"`);
    await q.query(`DROP TABLE "payment_references"`);
  }
}
