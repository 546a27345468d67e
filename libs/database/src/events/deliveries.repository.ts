import { randomBytes } from 'node:crypto';
import { Injectable } from '@nestjs/common';
import { InjectRepository } from '@nestjs/typeorm';
import { In, IsNull, Repository } from 'typeorm';
import { fromDbDateTime, toDbDateTime } from '../db-values';
import { Db } from '../engine/db';
import { outboxDispatchFor } from '../engine/for-dialect';
import type { OutboxDispatch, OwnersHandler, UndispatchedEvent } from '../engine/outbox-dispatch';
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

type EventRow = UndispatchedEvent;
type HandlerRow = OwnersHandler;

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

/**
 * The dispatcher's side of the outbox: fan events out into deliveries, claim due ones under a
 * lease, record attempts (the API's side is DeliveryLogRepository). On PostgreSQL claims are
 * single statements with `FOR UPDATE SKIP LOCKED`, so two workers never hold the same delivery.
 * On SQLite each step is one write with prepared statements, begun only if no other write holds
 * the connection (Db.tryWriteNow): `null` means "busy, try again". The statements of each are the
 * engine's (engine/outbox-dispatch.ts).
 */
@Injectable()
export class DeliveriesRepository {
  private readonly dispatch: OutboxDispatch;

  constructor(
    @InjectRepository(DeliveryEntity) private readonly repo: Repository<DeliveryEntity>,
    private readonly db: Db,
  ) {
    this.dispatch = outboxDispatchFor(db);
  }

  /**
   * Writes the delivery rows of up to `limit` undispatched events and marks them dispatched.
   * Returns how many events it took, or null when the SQLite connection is busy.
   */
  async fanOut(now: Date, limit: number): Promise<number | null> {
    const at = toDbDateTime(now);
    return this.dispatch.fanOut(async (steps) => {
      const events = await steps.events(limit);
      if (events.length === 0) return 0;
      const owners = [...new Set(events.map((e) => Number(e.owner_id)))];
      const handlers = await steps.handlers(owners);
      const targets = deliveryTargets(events, handlers);
      await steps.insert(
        targets.map((t) => ({ uid: newDeliveryUid(), ...t })),
        at,
      );
      await steps.markDispatched(
        events.map((e) => Number(e.id)),
        at,
      );
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
    const rows = await this.dispatch.claim(lease, toDbDateTime(now), limit);
    if (rows === null) return null;
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
