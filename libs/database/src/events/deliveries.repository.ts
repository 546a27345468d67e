import { randomBytes } from 'node:crypto';
import { Injectable } from '@nestjs/common';
import { InjectRepository } from '@nestjs/typeorm';
import { In, IsNull, Repository } from 'typeorm';
import { fromDbDateTime, toDbDateTime } from '../db-values';
import { Db } from '../engine/db';
import { NotificationHandlerEntity } from '../notification-handlers/notification-handler.entity';
import { isAccountEvent } from './account-events';
import { DeliveryEntity } from './delivery.entity';
import { OutboxEventEntity } from './outbox-event.entity';

/** A delivery a worker has claimed: its attempt number counts this attempt. */
export interface ClaimedDelivery {
  id: number;
  uid: string;
  event_id: number;
  handler_id: number;
  attempts: number;
}

/** How one attempt went. */
export interface AttemptResult {
  ok: boolean;
  statusCode: number | null;
  latencyMs: number;
  error: string | null;
}

/** A new public delivery id: `msg_` and 22 URL-safe random characters (the `webhook-id`). */
export function newDeliveryUid(): string {
  return `msg_${randomBytes(16).toString('base64url')}`;
}

/** Whether a handler with this `events` column (JSON list, null: all) receives `event`. */
export function handlerSubscribes(events: string | null, event: string): boolean {
  if (events === null) return true;
  try {
    const list = JSON.parse(events) as unknown;
    return Array.isArray(list) && list.includes(event);
  } catch {
    return true;
  }
}

interface EventRow {
  id: number;
  event: string;
  owner_id: number;
  handler_ids: string | null;
}
interface HandlerRow {
  id: number;
  user_id: number;
  events: string | null;
  team_id: number | null;
}

/**
 * The (event, handler) pairs to deliver: subscribed enabled handlers plus an event's chosen ones,
 * never an account event to a handler made through a team (whatever its stored subscription says:
 * the API refuses such a subscription, and this holds for rows written any other way).
 */
export function deliveryTargets(
  events: readonly EventRow[],
  handlers: readonly HandlerRow[],
): { eventId: number; handlerId: number; event: string }[] {
  const byOwner = new Map<number, HandlerRow[]>();
  for (const h of handlers) {
    const owner = Number(h.user_id);
    byOwner.set(owner, [...(byOwner.get(owner) ?? []), h]);
  }
  const out: { eventId: number; handlerId: number; event: string }[] = [];
  for (const e of events) {
    const chosen = new Set(parseIds(e.handler_ids));
    const account = isAccountEvent(e.event);
    for (const h of byOwner.get(Number(e.owner_id)) ?? []) {
      if (account && h.team_id !== null) continue;
      if (chosen.has(Number(h.id)) || handlerSubscribes(h.events, e.event)) {
        out.push({ eventId: Number(e.id), handlerId: Number(h.id), event: e.event });
      }
    }
  }
  return out;
}

const SELECT_EVENTS = `SELECT "id", "event", "owner_id", "handler_ids" FROM "events" WHERE "dispatched_at" IS NULL ORDER BY "id" LIMIT`;
const CLAIM_WHERE = `"status" = 'pending' AND "next_attempt_at" <= $2 AND ("lease_until" IS NULL OR "lease_until" <= $2)`;
const SOME_EVENT = `SELECT 1 FROM "events" WHERE "dispatched_at" IS NULL LIMIT 1`;
const SOME_DUE = `SELECT 1 FROM "deliveries" WHERE ${CLAIM_WHERE.replace(/\$2/g, '@now')} LIMIT 1`;

/**
 * The dispatcher's side of the outbox: fan events out into deliveries, claim due ones under a
 * lease, record attempts (the API's side is DeliveryLogRepository). On PostgreSQL claims are
 * single statements with `FOR UPDATE SKIP LOCKED`, so two workers never hold the same delivery.
 * On SQLite each step is one write with prepared statements, begun only if no other write holds
 * the connection (Db.tryWriteNow): `null` means "busy, try again".
 */
@Injectable()
export class DeliveriesRepository {
  constructor(
    @InjectRepository(DeliveryEntity) private readonly repo: Repository<DeliveryEntity>,
    private readonly db: Db,
  ) {}

  /** A statement's rows, prepared once (in the open write, when there is one). */
  private rows<T>(sql: string, values: unknown[] = []): Promise<T[]> {
    return this.db.prepared(sql).all(values) as Promise<T[]>;
  }

  /**
   * Writes the delivery rows of up to `limit` undispatched events and marks them dispatched.
   * Returns how many events it took, or null when the SQLite connection is busy.
   */
  async fanOut(now: Date, limit: number): Promise<number | null> {
    const at = toDbDateTime(now);
    if (this.db.dialect === 'sqlite') {
      // Most passes find nothing: a read says so without a write.
      if ((await this.rows(SOME_EVENT)).length === 0) return 0;
      return this.db.tryWriteNow(async () => {
        const events = await this.rows<EventRow>(`${SELECT_EVENTS} ?`, [limit]);
        if (events.length === 0) return 0;
        const owners = [...new Set(events.map((e) => e.owner_id))];
        const handlers = await this.rows<HandlerRow>(
          `SELECT "id", "user_id", "events", "team_id" FROM "notification_handlers" WHERE "is_enabled" = 1 AND "user_id" IN (${owners.map(() => '?').join(', ')})`,
          owners,
        );
        const insert = this.db.prepared(
          `INSERT OR IGNORE INTO "deliveries" ("uid", "event_id", "handler_id", "event", "status", "attempts", "next_attempt_at", "datetime") VALUES (?, ?, ?, ?, 'pending', 0, ?, ?)`,
        );
        for (const t of deliveryTargets(events, handlers)) {
          await insert.all([newDeliveryUid(), t.eventId, t.handlerId, t.event, at, at]);
        }
        const mark = this.db.prepared(`UPDATE "events" SET "dispatched_at" = ? WHERE "id" = ?`);
        for (const e of events) await mark.all([at, e.id]);
        return events.length;
      });
    }
    return this.db.write(async () => {
      const em = this.db.manager;
      const events = await em.query<EventRow[]>(
        `${SELECT_EVENTS} ${Number(limit)} FOR UPDATE SKIP LOCKED`,
      );
      if (events.length === 0) return 0;
      const owners = [...new Set(events.map((e) => Number(e.owner_id)))];
      // KEY SHARE keeps each handler from being deleted until the deliveries are written (a delete
      // committed in between would fail their foreign key); a delete under way is waited for,
      // and the handler it removed is not returned.
      const handlers = await em.query<HandlerRow[]>(
        `SELECT "id", "user_id", "events", "team_id" FROM "notification_handlers" WHERE "is_enabled" = true AND "user_id" = ANY($1::int[]) FOR KEY SHARE`,
        [owners],
      );
      const targets = deliveryTargets(events, handlers);
      if (targets.length > 0) {
        await em.query(
          `INSERT INTO "deliveries" ("uid", "event_id", "handler_id", "event", "status", "attempts", "next_attempt_at", "datetime")
           SELECT u, e, h, n, 'pending', 0, $5, $5 FROM unnest($1::text[], $2::int[], $3::int[], $4::text[]) AS t(u, e, h, n)
           ON CONFLICT ("event_id", "handler_id") DO NOTHING`,
          [
            targets.map(() => newDeliveryUid()),
            targets.map((t) => t.eventId),
            targets.map((t) => t.handlerId),
            targets.map((t) => t.event),
            at,
          ],
        );
      }
      await em.query(`UPDATE "events" SET "dispatched_at" = $1 WHERE "id" = ANY($2::int[])`, [
        at,
        events.map((e) => Number(e.id)),
      ]);
      return events.length;
    });
  }

  /**
   * Takes up to `limit` due deliveries for `leaseMs`: their attempt count goes up now, so a worker
   * killed mid-delivery leaves an attempt that another worker retries when the lease ends. Null
   * when the SQLite connection is busy.
   */
  async claimDue(now: Date, leaseMs: number, limit: number): Promise<ClaimedDelivery[] | null> {
    const lease = toDbDateTime(new Date(now.getTime() + leaseMs));
    const at = toDbDateTime(now);
    const returning = `RETURNING "id", "uid", "event_id", "handler_id", "attempts"`;
    let rows: ClaimedDelivery[];
    if (this.db.dialect === 'sqlite') {
      // A read finds out whether anything is due; the UPDATE, a write, only runs when it is.
      if ((await this.rows(SOME_DUE, [{ now: at }])).length === 0) return [];
      const claimed = await this.db.tryWriteNow(() =>
        this.rows<ClaimedDelivery>(
          `UPDATE "deliveries" SET "lease_until" = @lease, "attempts" = "attempts" + 1, "last_datetime" = @now
           WHERE "id" IN (SELECT "id" FROM "deliveries" WHERE ${CLAIM_WHERE.replace(/\$2/g, '@now')} ORDER BY "next_attempt_at", "id" LIMIT @limit) ${returning}`,
          [{ lease, now: at, limit }],
        ),
      );
      if (claimed === null) return null;
      rows = claimed;
    } else {
      // One statement, which claims with SKIP LOCKED: no transaction around it.
      const result = await this.db.manager.query<[ClaimedDelivery[], number]>(
        `UPDATE "deliveries" SET "lease_until" = $1, "attempts" = "attempts" + 1, "last_datetime" = $2
         WHERE "id" IN (SELECT "id" FROM "deliveries" WHERE ${CLAIM_WHERE} ORDER BY "next_attempt_at", "id" LIMIT $3 FOR UPDATE SKIP LOCKED) ${returning}`,
        [lease, at, limit],
      );
      rows = result[0];
    }
    return rows.map((r) => ({
      id: Number(r.id),
      uid: r.uid,
      event_id: Number(r.event_id),
      handler_id: Number(r.handler_id),
      attempts: Number(r.attempts),
    }));
  }

  /** The events and handlers of claimed deliveries, by id. */
  async loadFor(claimed: readonly ClaimedDelivery[]): Promise<{
    events: Map<number, OutboxEventEntity>;
    handlers: Map<number, NotificationHandlerEntity>;
  }> {
    const events = await this.db.repository(OutboxEventEntity).findBy({
      id: In([...new Set(claimed.map((c) => c.event_id))]),
    });
    const handlers = await this.db.repository(NotificationHandlerEntity).findBy({
      id: In([...new Set(claimed.map((c) => c.handler_id))]),
    });
    return {
      events: new Map(events.map((e) => [e.id, e])),
      handlers: new Map(handlers.map((h) => [h.id, h])),
    };
  }

  /**
   * Records one attempt of a delivery this worker holds: delivered, due again at `retryAt`, or
   * failed for good when `retryAt` is null. If the lease ran out and another worker took the
   * delivery meanwhile (its attempt count moved on), nothing is overwritten.
   */
  async recordAttempt(
    claimed: ClaimedDelivery,
    result: AttemptResult,
    retryAt: Date | null,
    now: Date,
  ): Promise<void> {
    const status = result.ok ? 'delivered' : retryAt === null ? 'failed' : 'pending';
    await this.db.write(() =>
      this.db.repository(DeliveryEntity).update(
        { id: claimed.id, attempts: claimed.attempts },
        {
          status,
          lease_until: null,
          next_attempt_at: status === 'pending' ? retryAt : null,
          last_status_code: result.statusCode,
          last_latency_ms: result.latencyMs,
          last_error: result.error === null ? null : result.error.slice(0, 512),
          delivered_at: result.ok ? now : null,
          last_datetime: now,
        },
      ),
    );
  }

  /**
   * When every attempted delivery of a handler since its last success failed, and the oldest of
   * them was made at or before `before`: that time; otherwise null.
   */
  async failingSince(handlerId: number, before: Date): Promise<Date | null> {
    const delivered = await this.repo.findOne({
      where: { handler_id: handlerId, status: 'delivered' },
      order: { delivered_at: 'DESC' },
      select: { id: true, delivered_at: true },
    });
    const qb = this.repo
      .createQueryBuilder('d')
      .select('MIN(d.datetime)', 'oldest')
      .where('d.handler_id = :handlerId', { handlerId })
      .andWhere("d.status != 'delivered'")
      .andWhere('d.attempts > 0');
    if (delivered?.delivered_at) {
      qb.andWhere('d.datetime > :after', { after: toDbDateTime(delivered.delivered_at) });
    }
    const row = await qb.getRawOne<{ oldest: string | Date | null }>();
    if (row?.oldest === null || row?.oldest === undefined) return null;
    const oldest = row.oldest instanceof Date ? row.oldest : fromDbDateTime(String(row.oldest));
    return oldest.getTime() <= before.getTime() ? oldest : null;
  }

  /** Turns a handler off with the reason its object shows. */
  async disableHandler(handlerId: number, reason: string, now: Date): Promise<void> {
    await this.db.write(() =>
      this.db
        .repository(NotificationHandlerEntity)
        .update(
          { id: handlerId },
          { is_enabled: false, disabled_reason: reason.slice(0, 512), last_datetime: now },
        ),
    );
  }

  /** Undispatched events and pending deliveries (for metrics and the benchmark). */
  async backlog(): Promise<{ events: number; deliveries: number }> {
    const events = await this.db.repository(OutboxEventEntity).countBy({ dispatched_at: IsNull() });
    const deliveries = await this.repo.countBy({ status: 'pending' });
    return { events, deliveries };
  }
}

function parseIds(json: string | null): number[] {
  if (json === null) return [];
  try {
    const list = JSON.parse(json) as unknown;
    return Array.isArray(list) ? list.filter((v): v is number => Number.isInteger(v)) : [];
  } catch {
    return [];
  }
}
