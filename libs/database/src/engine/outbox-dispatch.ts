/*
 * The dispatcher's statements on the outbox (events/deliveries.repository.ts): what each step of a
 * fan-out pass and a claim says, and how the pass takes its write, are the dialect's
 * (sqlite/outbox-dispatch.ts, postgres/outbox-dispatch.ts; chosen by for-dialect.ts).
 */

/** An undispatched event, as the drivers return it. */
export interface UndispatchedEvent {
  id: number;
  event: string;
  owner_id: number;
  handler_ids: string | null;
}

/** An enabled notification handler of an event's owner. */
export interface OwnersHandler {
  id: number;
  user_id: number;
  events: string | null;
  team_id: number | null;
}

/** A delivery to write. */
export interface NewDelivery {
  uid: string;
  eventId: number;
  handlerId: number;
  event: string;
}

/** A claimed delivery, as the drivers return it. */
export interface ClaimedRow {
  id: number;
  uid: string;
  event_id: number;
  handler_id: number;
  attempts: number;
}

/** The steps of one fan-out pass, inside its write. */
export interface FanOutSteps {
  /** Up to `limit` undispatched events, in id order, taken by this pass. */
  events(limit: number): Promise<UndispatchedEvent[]>;
  /** The owners' enabled handlers, kept from being deleted until the pass commits. */
  handlers(owners: readonly number[]): Promise<OwnersHandler[]>;
  /** Writes the deliveries (one already written for an event and handler is left as it is). */
  insert(deliveries: readonly NewDelivery[], at: string): Promise<void>;
  /** Marks the events dispatched. */
  markDispatched(eventIds: readonly number[], at: string): Promise<void>;
}

export interface OutboxDispatch {
  /**
   * Runs `pass` in a write of its own: 0 without a write when there is nothing to dispatch, null
   * when the SQLite connection is busy.
   */
  fanOut(pass: (steps: FanOutSteps) => Promise<number>): Promise<number | null>;
  /**
   * Takes up to `limit` due deliveries (due at `now`) until `lease`, their attempt counted; null
   * when the SQLite connection is busy.
   */
  claim(lease: string, now: string, limit: number): Promise<ClaimedRow[] | null>;
}

/** A due delivery's condition: `$2` is now. */
export const CLAIM_WHERE = `"status" = 'pending' AND "next_attempt_at" <= $2 AND ("lease_until" IS NULL OR "lease_until" <= $2)`;
export const SELECT_EVENTS = `SELECT "id", "event", "owner_id", "handler_ids" FROM "events" WHERE "dispatched_at" IS NULL ORDER BY "id" LIMIT`;
export const CLAIM_RETURNING = `RETURNING "id", "uid", "event_id", "handler_id", "attempts"`;
