import {
  BeforeApplicationShutdown,
  Inject,
  Injectable,
  Logger,
  OnApplicationBootstrap,
} from '@nestjs/common';
import { Client } from 'pg';
import { Clock, DAY_MS } from '@app/common';
import { APP_CONFIG, type AppConfig } from '@app/config';
import {
  type ClaimedDelivery,
  DeliveriesRepository,
  NotificationHandlerEntity,
  OutboxEventEntity,
  outboxChannel,
  OutboxWaker,
} from '@app/database';
import {
  type DeliveryAttempt,
  DeliveryResults,
  HandlerSettingsCodec,
  HandlerType,
  Notifier,
  toEventEnvelope,
  toNotificationMessage,
} from '@app/notifications';

/** Waits after each failed attempt: about 1 min, 5 min, 30 min, 2 h, 6 h, 12 h, 24 h; then failed. */
export const RETRY_DELAYS_MS = [
  60_000,
  5 * 60_000,
  30 * 60_000,
  2 * 3_600_000,
  6 * 3_600_000,
  12 * 3_600_000,
  24 * 3_600_000,
];
/** A handler whose deliveries have all failed for this long is disabled. */
export const DISABLE_AFTER_MS = 3 * DAY_MS;
const CLAIM_BATCH = 64;
const IN_FLIGHT = 16;
const FAN_OUT_BATCH = 500;
const POLL_MS = 2_000;
const BUSY_RETRY_MS = 5;

/** `Y-m-d` of a time, UTC. */
const day = (now: Date): string => now.toISOString().slice(0, 10);

/**
 * When the attempt numbered `attempt` (1-based) failed: the time of the next one, ±10 % jitter so
 * that many failed deliveries do not come back at the same instant; null when it was the last.
 */
export function nextAttemptAt(attempt: number, now: Date, random = Math.random): Date | null {
  const delay = RETRY_DELAYS_MS[attempt - 1];
  if (delay === undefined) return null;
  return new Date(now.getTime() + Math.round(delay * (0.9 + 0.2 * random())));
}

/**
 * Delivers the outbox: fans new events out into one delivery per (event, handler), then claims
 * due deliveries under a lease and sends each through its handler's channel, recording every
 * attempt. Woken at once by events written in this process (OutboxWaker) and, on PostgreSQL,
 * in other processes (LISTEN on the outbox channel); a poll every 2 s is the safety net and picks
 * up retries as they fall due. Never throws out of its loop.
 */
@Injectable()
export class EventDispatcher implements OnApplicationBootstrap, BeforeApplicationShutdown {
  private readonly logger = new Logger(EventDispatcher.name);
  private running: Promise<void> | null = null;
  private again = false;
  private stopped = false;
  private poll: NodeJS.Timeout | null = null;
  private listener: Client | null = null;
  private stopListening: (() => void) | null = null;

  constructor(
    private readonly deliveries: DeliveriesRepository,
    private readonly notifier: Notifier,
    private readonly codec: HandlerSettingsCodec,
    private readonly clock: Clock,
    @Inject(APP_CONFIG) private readonly config: AppConfig,
    private readonly waker: OutboxWaker,
    private readonly results: DeliveryResults,
  ) {}

  onApplicationBootstrap(): void {
    this.stopListening = this.waker.listen(() => this.wake());
    this.poll = setInterval(() => this.wake(), POLL_MS);
    this.poll.unref();
    if (this.config.database.type === 'postgres') {
      void this.listen();
    }
    this.wake();
  }

  async beforeApplicationShutdown(): Promise<void> {
    this.stopped = true;
    this.stopListening?.();
    this.stopListening = null;
    if (this.poll) clearInterval(this.poll);
    const listener = this.listener;
    this.listener = null;
    await listener?.end().catch(() => undefined);
    await this.running;
  }

  /** Asks for a pass now (or right after the one under way). */
  wake(): void {
    if (this.stopped) return;
    if (this.running) {
      this.again = true;
      return;
    }
    this.running = this.passes().finally(() => {
      this.running = null;
    });
  }

  /** Runs passes until one finds nothing to do; resolves when idle (tests await it). */
  async drain(): Promise<void> {
    this.wake();
    while (this.running) {
      await this.running;
    }
  }

  private async passes(): Promise<void> {
    do {
      this.again = false;
      try {
        const busy = await this.pass();
        if (busy) {
          await new Promise((resolve) => setTimeout(resolve, BUSY_RETRY_MS));
          this.again = true;
        }
      } catch (error) {
        this.logger.error(error instanceof Error ? (error.stack ?? error.message) : String(error));
      }
    } while (this.again && !this.stopped);
  }

  /** One pass: fan out and deliver until nothing is due. Returns true when SQLite was busy. */
  private async pass(): Promise<boolean> {
    for (;;) {
      if (this.stopped) return false;
      const fanned = await this.deliveries.fanOut(this.clock.now(), FAN_OUT_BATCH);
      if (fanned === null) return true;
      const claimed = await this.deliveries.claimDue(
        this.clock.now(),
        this.config.eventsLeaseMs,
        CLAIM_BATCH,
      );
      if (claimed === null) return true;
      if (claimed.length === 0 && fanned === 0) return false;
      await this.deliverAll(claimed);
    }
  }

  private async deliverAll(claimed: ClaimedDelivery[]): Promise<void> {
    if (claimed.length === 0) return;
    const { events, handlers } = await this.deliveries.loadFor(claimed);
    let next = 0;
    const lane = async () => {
      while (next < claimed.length) {
        const delivery = claimed[next++];
        await this.deliverOne(
          delivery,
          events.get(delivery.event_id),
          handlers.get(delivery.handler_id),
        );
      }
    };
    await Promise.all(Array.from({ length: Math.min(IN_FLIGHT, claimed.length) }, lane));
  }

  private async deliverOne(
    delivery: ClaimedDelivery,
    event: OutboxEventEntity | undefined,
    handler: NotificationHandlerEntity | undefined,
  ): Promise<void> {
    try {
      const outcome = await this.attempt(delivery, event, handler);
      const now = this.clock.now();
      // Not tried again: a target that is gone (410, a dropped push subscription), and a delivery
      // whose event or handler no longer exists or whose handler is off (by a 410, by its owner,
      // by a removed push subscriber): retrying would only repeat "The handler is disabled.".
      const final =
        outcome.gone !== undefined ||
        event === undefined ||
        handler === undefined ||
        !handler.is_enabled;
      const retryAt = outcome.ok || final ? null : nextAttemptAt(delivery.attempts, now);
      await this.deliveries.recordAttempt(
        delivery,
        {
          ok: outcome.ok,
          statusCode: outcome.status_code,
          latencyMs: outcome.latency_ms,
          error: outcome.error,
        },
        retryAt,
        now,
      );
      this.results.count(outcome.ok ? 'delivered' : retryAt === null ? 'failed' : 'retrying');
      if (!outcome.ok && handler?.is_enabled) {
        if (outcome.gone !== undefined) {
          await this.disable(handler, `Disabled on ${day(now)}: ${outcome.gone}`, now);
        } else {
          await this.disableIfFailingTooLong(handler, outcome.error, now);
        }
      }
    } catch (error) {
      this.logger.error(
        `Delivery ${delivery.uid}: ${error instanceof Error ? (error.stack ?? error.message) : String(error)}`,
      );
    }
  }

  private async attempt(
    delivery: ClaimedDelivery,
    event: OutboxEventEntity | undefined,
    handler: NotificationHandlerEntity | undefined,
  ): Promise<DeliveryAttempt> {
    const failure = (error: string): DeliveryAttempt => ({
      ok: false,
      status_code: null,
      latency_ms: 0,
      error,
    });
    if (event === undefined || handler === undefined) {
      return failure('The event or the handler no longer exists.');
    }
    if (!handler.is_enabled) {
      return failure('The handler is disabled.');
    }
    const settings = this.codec.tryOpen(handler.settings_encrypted);
    if (settings === null) {
      return failure('The handler settings cannot be read with this installation’s SECRETS_KEY.');
    }
    const envelope = toEventEnvelope(event);
    const message = {
      ...toNotificationMessage(envelope, this.config.appUrl),
      delivery: { id: delivery.uid, envelope },
    };
    return this.notifier.deliver(handler.type as HandlerType, settings, message);
  }

  private async disableIfFailingTooLong(
    handler: NotificationHandlerEntity,
    error: string | null,
    now: Date,
  ): Promise<void> {
    const since = await this.deliveries.failingSince(
      handler.id,
      new Date(now.getTime() - DISABLE_AFTER_MS),
    );
    if (since === null) return;
    const reason = `Disabled on ${day(now)}: every delivery since ${since
      .toISOString()
      .slice(0, 19)
      .replace('T', ' ')} UTC failed${error ? ` (last error: ${error})` : ''}.`;
    await this.disable(handler, reason, now);
  }

  private async disable(
    handler: NotificationHandlerEntity,
    reason: string,
    now: Date,
  ): Promise<void> {
    await this.deliveries.disableHandler(handler.id, reason, now);
    handler.is_enabled = false;
    this.logger.warn(`Notification handler ${handler.id} disabled: ${reason}`);
  }

  /** LISTEN for events committed by other processes; reconnects after a dropped connection. */
  private async listen(): Promise<void> {
    const database = this.config.database;
    if (database.type !== 'postgres' || this.stopped) return;
    const client = new Client({ connectionString: database.url });
    const retry = () => {
      if (this.listener === client) this.listener = null;
      client.removeAllListeners();
      void client.end().catch(() => undefined);
      if (!this.stopped) setTimeout(() => void this.listen(), 1_000).unref();
    };
    client.on('error', retry);
    client.on('notification', () => this.wake());
    try {
      await client.connect();
      await client.query(`LISTEN ${outboxChannel(database.schema)}`);
      if (this.stopped) {
        await client.end();
        return;
      }
      this.listener = client;
      this.wake();
    } catch (error) {
      this.logger.warn(`LISTEN for the outbox failed, polling meanwhile: ${String(error)}`);
      retry();
    }
  }
}
