import type { Db } from '../db';
import {
  CLAIM_RETURNING,
  CLAIM_WHERE,
  type ClaimedRow,
  type FanOutSteps,
  type OutboxDispatch,
  type OwnersHandler,
  SELECT_EVENTS,
  type UndispatchedEvent,
} from '../outbox-dispatch';

const SOME_EVENT = `SELECT 1 FROM "events" WHERE "dispatched_at" IS NULL LIMIT 1`;
const SOME_DUE = `SELECT 1 FROM "deliveries" WHERE ${CLAIM_WHERE.replace(/\$2/g, '@now')} LIMIT 1`;

/**
 * On SQLite each step is one write with prepared statements, begun only if no other write holds
 * the connection (Db.tryWriteNow), and only once a read has found something to do.
 */
export function sqliteOutboxDispatch(db: Db): OutboxDispatch {
  /** A statement's rows, prepared once (in the open write, when there is one). */
  const rows = <T>(sql: string, values: unknown[] = []): Promise<T[]> =>
    db.prepared(sql).all(values) as Promise<T[]>;
  const steps: FanOutSteps = {
    events: (limit) => rows<UndispatchedEvent>(`${SELECT_EVENTS} ?`, [limit]),
    handlers: (owners) =>
      rows<OwnersHandler>(
        `SELECT "id", "user_id", "events", "team_id" FROM "notification_handlers" WHERE "is_enabled" = 1 AND "user_id" IN (${owners.map(() => '?').join(', ')})`,
        [...owners],
      ),
    async insert(deliveries, at) {
      const insert = db.prepared(
        `INSERT OR IGNORE INTO "deliveries" ("uid", "event_id", "handler_id", "event", "status", "attempts", "next_attempt_at", "datetime") VALUES (?, ?, ?, ?, 'pending', 0, ?, ?)`,
      );
      for (const d of deliveries) {
        await insert.all([d.uid, d.eventId, d.handlerId, d.event, at, at]);
      }
    },
    async markDispatched(eventIds, at) {
      const mark = db.prepared(`UPDATE "events" SET "dispatched_at" = ? WHERE "id" = ?`);
      for (const id of eventIds) await mark.all([at, id]);
    },
  };
  return {
    async fanOut(pass) {
      // Most passes find nothing: a read says so without a write.
      if ((await rows(SOME_EVENT)).length === 0) return 0;
      return db.tryWriteNow(() => pass(steps));
    },
    async claim(lease, now, limit) {
      // A read finds out whether anything is due; the UPDATE, a write, only runs when it is.
      if ((await rows(SOME_DUE, [{ now }])).length === 0) return [];
      return db.tryWriteNow(() =>
        rows<ClaimedRow>(
          `UPDATE "deliveries" SET "lease_until" = @lease, "attempts" = "attempts" + 1, "last_datetime" = @now
           WHERE "id" IN (SELECT "id" FROM "deliveries" WHERE ${CLAIM_WHERE.replace(/\$2/g, '@now')} ORDER BY "next_attempt_at", "id" LIMIT @limit) ${CLAIM_RETURNING}`,
          [{ lease, now, limit }],
        ),
      );
    },
  };
}
