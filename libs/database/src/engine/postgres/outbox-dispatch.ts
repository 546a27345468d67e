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

/**
 * On PostgreSQL a pass takes its events and a claim its deliveries with `FOR UPDATE SKIP LOCKED`,
 * so two workers never hold the same ones; each step is one statement, whatever the number of rows.
 */
export function postgresOutboxDispatch(db: Db): OutboxDispatch {
  const steps: FanOutSteps = {
    events: (limit) =>
      db.manager.query<UndispatchedEvent[]>(
        `${SELECT_EVENTS} ${Number(limit)} FOR UPDATE SKIP LOCKED`,
      ),
    // KEY SHARE keeps each handler from being deleted until the deliveries are written (a delete
    // committed in between would fail their foreign key); a delete under way is waited for,
    // and the handler it removed is not returned.
    handlers: (owners) =>
      db.manager.query<OwnersHandler[]>(
        `SELECT "id", "user_id", "events", "team_id" FROM "notification_handlers" WHERE "is_enabled" = true AND "user_id" = ANY($1::int[]) FOR KEY SHARE`,
        [owners],
      ),
    async insert(deliveries, at) {
      if (deliveries.length > 0) {
        await db.manager.query(
          `INSERT INTO "deliveries" ("uid", "event_id", "handler_id", "event", "status", "attempts", "next_attempt_at", "datetime")
           SELECT u, e, h, n, 'pending', 0, $5, $5 FROM unnest($1::text[], $2::int[], $3::int[], $4::text[]) AS t(u, e, h, n)
           ON CONFLICT ("event_id", "handler_id") DO NOTHING`,
          [
            deliveries.map((d) => d.uid),
            deliveries.map((d) => d.eventId),
            deliveries.map((d) => d.handlerId),
            deliveries.map((d) => d.event),
            at,
          ],
        );
      }
    },
    async markDispatched(eventIds, at) {
      await db.manager.query(
        `UPDATE "events" SET "dispatched_at" = $1 WHERE "id" = ANY($2::int[])`,
        [at, eventIds],
      );
    },
  };
  return {
    fanOut: (pass) => db.write(() => pass(steps)),
    async claim(lease, now, limit) {
      // One statement, which claims with SKIP LOCKED: no transaction around it.
      const result = await db.manager.query<[ClaimedRow[], number]>(
        `UPDATE "deliveries" SET "lease_until" = $1, "attempts" = "attempts" + 1, "last_datetime" = $2
         WHERE "id" IN (SELECT "id" FROM "deliveries" WHERE ${CLAIM_WHERE} ORDER BY "next_attempt_at", "id" LIMIT $3 FOR UPDATE SKIP LOCKED) ${CLAIM_RETURNING}`,
        [lease, now, limit],
      );
      return result[0];
    },
  };
}
