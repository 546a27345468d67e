import { MigrationInterface, QueryRunner } from 'typeorm';

/** `events`: the transactional outbox of notification events (docs/events.md). */
export class EventsOutbox1764800000000 implements MigrationInterface {
  name = 'EventsOutbox1764800000000';

  async up(q: QueryRunner): Promise<void> {
    await q.query(
      `CREATE TABLE "events" ("id" integer PRIMARY KEY AUTOINCREMENT NOT NULL, "uid" varchar(40) NOT NULL, "event" varchar(64) NOT NULL, "owner_id" integer NOT NULL, "data" text NOT NULL, "handler_ids" text, "created_at" datetime NOT NULL, "dispatched_at" datetime, CONSTRAINT "FK_918130b4f882fda431503d6f4e0" FOREIGN KEY ("owner_id") REFERENCES "users" ("id") ON DELETE CASCADE ON UPDATE NO ACTION)`,
    );
    await q.query(`CREATE UNIQUE INDEX "IDX_ee00bddeb44e2e199093485bff" ON "events" ("uid")`);
    await q.query(`CREATE INDEX "IDX_918130b4f882fda431503d6f4e" ON "events" ("owner_id")`);
    await q.query(
      `CREATE INDEX "IDX_574ed69603bed0b5ff42cfb7ac" ON "events" ("dispatched_at", "id")`,
    );
  }

  async down(q: QueryRunner): Promise<void> {
    await q.query(`DROP INDEX "IDX_574ed69603bed0b5ff42cfb7ac"`);
    await q.query(`DROP INDEX "IDX_918130b4f882fda431503d6f4e"`);
    await q.query(`DROP INDEX "IDX_ee00bddeb44e2e199093485bff"`);
    await q.query(`DROP TABLE "events"`);
  }
}
