import { Injectable } from '@nestjs/common';
import { Counter, Gauge, type Registry } from 'prom-client';

/** How a delivery attempt went: delivered, failed and due again later, failed for good. */
export type DeliveryResult = 'delivered' | 'retrying' | 'failed';

/**
 * Delivery attempts this process's dispatcher made, by how they went, as plain integers (read
 * when metrics are scraped). One instance per app (NotificationsModule provides it).
 */
@Injectable()
export class DeliveryResults {
  delivered = 0;
  retrying = 0;
  failed = 0;

  count(result: DeliveryResult): void {
    this[result] += 1;
  }
}

/** Undispatched events and pending deliveries (DeliveriesRepository.backlog). */
export type ReadBacklog = () => Promise<{ events: number; deliveries: number }>;

/**
 * The outbox's metrics, for the API's registry and the worker's: its backlog, read from the
 * database when scraped (the same on every instance), and the delivery attempts of this process.
 */
export function registerOutboxMetrics(
  registers: Registry[],
  readBacklog: ReadBacklog,
  results: DeliveryResults,
): void {
  let reading: ReturnType<ReadBacklog> | null = null;
  // One read for both gauges of a scrape; a failed one leaves the values of the last scrape.
  const read = async (pick: 'events' | 'deliveries'): Promise<number | null> => {
    reading ??= readBacklog().finally(() => setImmediate(() => (reading = null)));
    try {
      return (await reading)[pick];
    } catch {
      return null;
    }
  };
  new Gauge({
    name: 'linkdock_outbox_events_pending',
    help: 'Events written and not yet turned into deliveries (all instances)',
    registers,
    async collect() {
      const value = await read('events');
      if (value !== null) this.set(value);
    },
  });
  new Gauge({
    name: 'linkdock_deliveries_pending',
    help: 'Deliveries waiting for an attempt, due now or retried later (all instances)',
    registers,
    async collect() {
      const value = await read('deliveries');
      if (value !== null) this.set(value);
    },
  });
  new Counter({
    name: 'linkdock_delivery_attempts_total',
    help: 'Delivery attempts of this process: delivered, retrying (failed, due again), failed (for good)',
    labelNames: ['result'],
    registers,
    collect() {
      this.reset();
      for (const result of ['delivered', 'retrying', 'failed'] as const) {
        this.inc({ result }, results[result]);
      }
    },
  });
}
