import { MigrationInterface, QueryRunner } from 'typeorm';

/** `push_subscribers`: browsers' push subscriptions that push_subscriber_id handlers send to. */
export class PushSubscribers1764830000000 implements MigrationInterface {
  name = 'PushSubscribers1764830000000';

  async up(q: QueryRunner): Promise<void> {
    await q.query(
      `CREATE TABLE "push_subscribers" ("id" SERIAL NOT NULL, "user_id" integer NOT NULL, "name" character varying(64) NOT NULL, "endpoint" character varying(1024) NOT NULL, "p256dh" character varying(128) NOT NULL, "auth" character varying(32) NOT NULL, "datetime" TIMESTAMP NOT NULL, "last_datetime" TIMESTAMP, CONSTRAINT "PK_7eaa6e91bfc79188491272b1a8e" PRIMARY KEY ("id"))`,
    );
    await q.query(
      `CREATE INDEX "IDX_1ee759467b0856027a8643af80" ON "push_subscribers" ("user_id")`,
    );
    await q.query(
      `CREATE UNIQUE INDEX "IDX_7404848904c11bfc4889ec8627" ON "push_subscribers" ("user_id", "endpoint")`,
    );
    await q.query(
      `ALTER TABLE "push_subscribers" ADD CONSTRAINT "FK_1ee759467b0856027a8643af808" FOREIGN KEY ("user_id") REFERENCES "users"("id") ON DELETE CASCADE ON UPDATE NO ACTION`,
    );
  }

  async down(q: QueryRunner): Promise<void> {
    await q.query(
      `ALTER TABLE "push_subscribers" DROP CONSTRAINT "FK_1ee759467b0856027a8643af808"`,
    );
    await q.query(`DROP INDEX "IDX_7404848904c11bfc4889ec8627"`);
    await q.query(`DROP INDEX "IDX_1ee759467b0856027a8643af80"`);
    await q.query(`DROP TABLE "push_subscribers"`);
  }
}
