import { MigrationInterface, QueryRunner } from 'typeorm';

/** `push_subscribers`: browsers' push subscriptions that push_subscriber_id handlers send to. */
export class PushSubscribers1764830000000 implements MigrationInterface {
  name = 'PushSubscribers1764830000000';

  async up(q: QueryRunner): Promise<void> {
    await q.query(
      `CREATE TABLE "push_subscribers" ("id" integer PRIMARY KEY AUTOINCREMENT NOT NULL, "user_id" integer NOT NULL, "name" varchar(64) NOT NULL, "endpoint" varchar(1024) NOT NULL, "p256dh" varchar(128) NOT NULL, "auth" varchar(32) NOT NULL, "datetime" datetime NOT NULL, "last_datetime" datetime, CONSTRAINT "FK_1ee759467b0856027a8643af808" FOREIGN KEY ("user_id") REFERENCES "users" ("id") ON DELETE CASCADE ON UPDATE NO ACTION)`,
    );
    await q.query(
      `CREATE INDEX "IDX_1ee759467b0856027a8643af80" ON "push_subscribers" ("user_id")`,
    );
    await q.query(
      `CREATE UNIQUE INDEX "IDX_7404848904c11bfc4889ec8627" ON "push_subscribers" ("user_id", "endpoint")`,
    );
  }

  async down(q: QueryRunner): Promise<void> {
    await q.query(`DROP INDEX "IDX_7404848904c11bfc4889ec8627"`);
    await q.query(`DROP INDEX "IDX_1ee759467b0856027a8643af80"`);
    await q.query(`DROP TABLE "push_subscribers"`);
  }
}
