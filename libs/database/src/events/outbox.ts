import { randomBytes } from 'node:crypto';
import { EventEmitter } from 'node:events';
import {
  type AccountLogType,
  isAccountLogType,
  writeAccountLogs,
} from '../account-logs/account-logs';
import type { Db } from '../engine/db';
import { OutboxEventEntity } from './outbox-event.entity';

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

/**
 * In-process signal that events were written: the dispatcher of this process listens to it so that
 * a new event is attempted at once rather than on the next poll. It may fire a moment before the
 * writing transaction commits; the dispatcher looks again shortly after a wake.
 */
export const outboxSignal = new EventEmitter();
outboxSignal.setMaxListeners(0);
export const OUTBOX_WRITTEN = 'written';

/** A new public event id: `evt_` and 22 URL-safe random characters (128 bits). */
export function newEventUid(): string {
  return `evt_${randomBytes(16).toString('base64url')}`;
}

/**
 * Writes events into the outbox in the open write (the change that raises them), so that the
 * events commit or roll back with it. On PostgreSQL a NOTIFY in the same transaction wakes
 * dispatchers in other processes when (and only if) it commits. Returns the public ids in order.
 */
export async function writeOutboxEvents(
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
  await db.manager.createQueryBuilder().insert().into(OutboxEventEntity).values(rows).execute();
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
  await wakeDispatchers(db);
  return rows.map((r) => r.uid);
}

/**
 * Wakes the dispatchers: this process's at once, other processes' (PostgreSQL) through a NOTIFY
 * that the server delivers when the open write commits (at once outside a write), and not at all
 * if it rolls back.
 */
export async function wakeDispatchers(db: Db): Promise<void> {
  if (db.dialect === 'postgres') {
    const schema = (db.dataSource.options as { schema?: string }).schema;
    await db.manager.query(`NOTIFY ${outboxChannel(schema)}`);
  }
  setImmediate(() => outboxSignal.emit(OUTBOX_WRITTEN));
}

/** The top-level scalar fields of an event's data: what an account log entry keeps of it. */
function scalarsOf(data: Record<string, unknown>): Record<string, unknown> {
  const out: Record<string, unknown> = {};
  for (const [key, value] of Object.entries(data)) {
    if (value === null || ['string', 'number', 'boolean'].includes(typeof value)) out[key] = value;
  }
  return out;
}
