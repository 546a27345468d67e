import { randomBytes } from 'node:crypto';
import { Injectable } from '@nestjs/common';
import {
  type AccountLogType,
  isAccountLogType,
  writeAccountLogs,
} from '../account-logs/account-logs';
import { toDbDateTime } from '../db-values';
import { type Batch, type InsertInto, insertInto, notify } from '../engine/batch';
import { Db } from '../engine/db';
import { insertRow } from '../engine/insert-row';
import { OutboxEventEntity } from './outbox-event.entity';
import { OutboxWaker } from './outbox-waker';

/** An event to write into the outbox. `data` must be plain JSON. */
export interface OutboxEventInput {
  event: string;
  ownerId: number;
  data: Record<string, unknown>;
  /** Handlers that get this event whatever their subscriptions (a block's chosen handlers). */
  handlerIds?: readonly number[];
}

/** The outbox events a write raises, computed from the rows as written, in its transaction. */
export interface RowEvents<T> {
  of(rows: readonly T[]): OutboxEventInput[];
  now: Date;
}

/** The PostgreSQL channel the outbox notifies on commit, one per schema so test schemas stay apart. */
export function outboxChannel(schema: string | undefined): string {
  return `linkdock_outbox_${(schema ?? 'public').replace(/[^a-zA-Z0-9_]/g, '_')}`.slice(0, 63);
}

/** Random bytes drawn at once for the next event ids: one draw a call cost more than the rest of the id. */
const uidBytes = { pool: Buffer.alloc(0), used: 0 };
const UID_POOL_BYTES = 16 * 256;

/** A new public event id: `evt_` and 22 URL-safe random characters (128 bits). */
export function newEventUid(): string {
  if (uidBytes.used + 16 > uidBytes.pool.length) {
    uidBytes.pool = randomBytes(UID_POOL_BYTES);
    uidBytes.used = 0;
  }
  const start = uidBytes.used;
  uidBytes.used += 16;
  return `evt_${uidBytes.pool.toString('base64url', start, start + 16)}`;
}

/**
 * The transactional outbox of the app: writes the events a change raises in its open write and
 * wakes the dispatchers (this process's through OutboxWaker, other processes' by NOTIFY on
 * PostgreSQL, delivered when and only if the write commits).
 */
@Injectable()
export class Outbox {
  constructor(
    private readonly db: Db,
    private readonly waker: OutboxWaker,
  ) {}

  /** Writes `events` in the open write (or a write of its own); their public ids, in order. */
  async write(events: readonly OutboxEventInput[], now: Date): Promise<string[]> {
    if (events.length === 0) return [];
    const uids = await writeOutboxEvents(this.db, events, now);
    this.waker.wake();
    return uids;
  }

  /** Wakes every dispatcher (a delivery was made due again). */
  async wake(): Promise<void> {
    await notifyDispatchers(this.db);
    this.waker.wake();
  }
}

/**
 * Writes events into the outbox in the open write (the change that raises them), so that the
 * events commit or roll back with it. On PostgreSQL a NOTIFY in the same transaction wakes
 * dispatchers in other processes (this one's too) when (and only if) it commits. This process's
 * dispatcher is not woken here: `Outbox.write` does it (the visit writer thread, outside the app's
 * container, writes its events with outboxEventsIn and leaves waking to the main thread). Returns
 * the public ids in order.
 */
async function writeOutboxEvents(
  db: Db,
  events: readonly OutboxEventInput[],
  now: Date,
): Promise<string[]> {
  if (events.length === 0) return [];
  return db.write(() => writeEvents(db, events, now));
}

async function writeEvents(
  db: Db,
  events: readonly OutboxEventInput[],
  now: Date,
): Promise<string[]> {
  const rows = events.map((e) => ({
    uid: newEventUid(),
    event: e.event,
    owner_id: e.ownerId,
    data: JSON.stringify(e.data),
    handler_ids: e.handlerIds && e.handlerIds.length > 0 ? JSON.stringify(e.handlerIds) : null,
    created_at: now,
    dispatched_at: null,
  }));
  if (rows.length === 1) {
    // Nearly every write raises one event: a prepared statement (insertRow) writes it.
    await insertRow(db, OutboxEventEntity, Object.assign(new OutboxEventEntity(), rows[0]));
  } else {
    await db.manager.createQueryBuilder().insert().into(OutboxEventEntity).values(rows).execute();
  }
  // The account log keeps the events about the account itself (not every link change).
  const logged = events.filter((e) => isAccountLogType(e.event));
  await writeAccountLogs(
    db,
    logged.map((e) => ({
      userId: e.ownerId,
      type: e.event as AccountLogType,
      data: scalarsOf(e.data),
    })),
    now,
  );
  await notifyDispatchers(db);
  return rows.map((r) => r.uid);
}

/**
 * On PostgreSQL, a NOTIFY that the server delivers to every dispatcher's LISTEN when the open
 * write commits (at once outside a write), and not at all if it rolls back.
 */
function notifyDispatchers(db: Db): Promise<void> {
  return db.notify(dispatchersChannel(db));
}

function dispatchersChannel(db: Db): string {
  return outboxChannel((db.dataSource.options as { schema?: string }).schema);
}

/** The outbox's columns a batch write fills (outboxEventsIn). */
const EVENT_ROWS: InsertInto = {
  table: 'events',
  columns: [
    { name: 'uid', type: 'varchar' },
    { name: 'event', type: 'varchar' },
    { name: 'owner_id', type: 'int' },
    { name: 'data', type: 'text' },
    { name: 'created_at', type: 'timestamp' },
  ],
};

/**
 * writeOutboxEvents as steps of a batch write (engine/batch.ts; the visit writer's): the events are
 * written in the batch's transaction and other processes' dispatchers notified when it commits.
 * Only for events with no chosen handlers that the account log does not keep.
 */
export function* outboxEventsIn(
  db: Db,
  events: readonly OutboxEventInput[],
  now: Date,
): Batch<string[]> {
  if (events.length === 0) return [];
  const unfit = events.find(
    (e) => isAccountLogType(e.event) || (e.handlerIds !== undefined && e.handlerIds.length > 0),
  );
  if (unfit !== undefined) throw new Error(`${unfit.event} is not written by a batch`);
  const created = toDbDateTime(now);
  const rows = events.map((e) => [
    newEventUid(),
    e.event,
    e.ownerId,
    JSON.stringify(e.data),
    created,
  ]);
  yield* insertInto(EVENT_ROWS, rows);
  yield* notify(dispatchersChannel(db));
  return rows.map((row) => row[0] as string);
}

/** The top-level scalar fields of an event's data: what an account log entry keeps of it. */
function scalarsOf(data: Record<string, unknown>): Record<string, unknown> {
  const out: Record<string, unknown> = {};
  for (const [key, value] of Object.entries(data)) {
    if (value === null || ['string', 'number', 'boolean'].includes(typeof value)) out[key] = value;
  }
  return out;
}
