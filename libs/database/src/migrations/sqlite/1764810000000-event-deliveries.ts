import { MigrationInterface, QueryRunner } from 'typeorm';

const INDEXES = [
  `CREATE UNIQUE INDEX "IDX_1d06aac61bd80dd29c85d5b72d" ON "deliveries" ("uid")`,
  `CREATE INDEX "IDX_60aa401357dffe4ee8b0a501a8" ON "deliveries" ("handler_id")`,
  `CREATE INDEX "IDX_98ca3777607d899a236c26d621" ON "deliveries" ("status", "next_attempt_at")`,
];

/**
 * `deliveries` (one per event and handler, with attempts and the next try), and the handlers'
 * `events` subscription (null: all) and `disabled_reason`.
 */
export class EventDeliveries1764810000000 implements MigrationInterface {
  name = 'EventDeliveries1764810000000';

  async up(q: QueryRunner): Promise<void> {
    await q.query(
      `CREATE TABLE "deliveries" ("id" integer PRIMARY KEY AUTOINCREMENT NOT NULL, "uid" varchar(40) NOT NULL, "event_id" integer NOT NULL, "handler_id" integer NOT NULL, "event" varchar(64) NOT NULL, "status" varchar(16) NOT NULL DEFAULT ('pending'), "attempts" integer NOT NULL DEFAULT (0), "next_attempt_at" datetime, "lease_until" datetime, "last_status_code" integer, "last_latency_ms" integer, "last_error" varchar(512), "delivered_at" datetime, "datetime" datetime NOT NULL, "last_datetime" datetime, CONSTRAINT "UQ_b55e263763effe56db2d6f36ebd" UNIQUE ("event_id", "handler_id"), CONSTRAINT "FK_6a9b04f909fedcc6438b48b90c1" FOREIGN KEY ("event_id") REFERENCES "events" ("id") ON DELETE CASCADE ON UPDATE NO ACTION, CONSTRAINT "FK_60aa401357dffe4ee8b0a501a84" FOREIGN KEY ("handler_id") REFERENCES "notification_handlers" ("id") ON DELETE CASCADE ON UPDATE NO ACTION)`,
    );
    for (const sql of INDEXES) await q.query(sql);
    await q.query(`ALTER TABLE "notification_handlers" ADD COLUMN "events" text`);
    await q.query(`ALTER TABLE "notification_handlers" ADD COLUMN "disabled_reason" varchar(512)`);
  }

  async down(q: QueryRunner): Promise<void> {
    await q.query(`ALTER TABLE "notification_handlers" DROP COLUMN "disabled_reason"`);
    await q.query(`ALTER TABLE "notification_handlers" DROP COLUMN "events"`);
    await q.query(`DROP INDEX "IDX_98ca3777607d899a236c26d621"`);
    await q.query(`DROP INDEX "IDX_60aa401357dffe4ee8b0a501a8"`);
    await q.query(`DROP INDEX "IDX_1d06aac61bd80dd29c85d5b72d"`);
    await q.query(`DROP TABLE "deliveries"`);
  }
}
