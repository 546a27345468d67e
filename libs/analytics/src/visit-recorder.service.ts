import {
  BeforeApplicationShutdown,
  Injectable,
  Logger,
  OnModuleDestroy,
  OnModuleInit,
} from '@nestjs/common';
import { isDataError } from '@app/common';
import type { NewVisit } from '@app/database';
import type { RawVisit } from './raw-visit';
import { VisitEnricher } from './visit-enricher';
import { countByLink, VisitWriter } from './visit-writer';

export const FLUSH_INTERVAL_MS = 250;
/** A batch this large is flushed at once instead of waiting for the timer. */
export const FLUSH_BATCH = 2000;
/** Visits per transaction: small enough that writing one batch holds redirects up ~1 ms. */
export const WRITE_BATCH = 250;
const BUSY_WAIT_LIMIT = 1000;
/** Beyond this, while the database refuses writes, the oldest visits are dropped (and logged). */
const MAX_BUFFERED = 1_000_000;

/**
 * Buffers counted visits in memory and writes them in batches, one transaction per flush, off the
 * redirect's path. On shutdown it writes everything it holds, so every counted redirect becomes a
 * row. What feeds it stops first: Nest runs the shutdown hooks of a module before those of the
 * modules it imports, so a module that imports AnalyticsModule can stop taking visits (the API
 * stops its HTTP server) before this drains.
 */
@Injectable()
export class VisitRecorder implements OnModuleInit, OnModuleDestroy, BeforeApplicationShutdown {
  private readonly logger = new Logger(VisitRecorder.name);
  private buffer: RawVisit[] = [];
  private readonly pending = new Map<number, number>();
  private flushing: Promise<void> | null = null;
  private timer: NodeJS.Timeout | null = null;
  /** Redirects counted by this process since start, and visits it wrote. */
  counted = 0;
  written = 0;
  /** Visits the database refused as data (see write()); not retried. */
  dropped = 0;
  /** Called with the seconds each flush took (set by the metrics module). */
  onFlush?: (seconds: number) => void;

  constructor(
    private readonly visits: VisitWriter,
    private readonly enricher: VisitEnricher,
  ) {}

  onModuleInit(): void {
    this.timer = setInterval(() => void this.flush(), FLUSH_INTERVAL_MS);
    this.timer.unref();
  }

  onModuleDestroy(): void {
    if (this.timer) {
      clearInterval(this.timer);
      this.timer = null;
    }
  }

  async beforeApplicationShutdown(): Promise<void> {
    await this.flushAll();
    this.logger.log(
      `Visits: ${this.counted} counted, ${this.written} written, ${this.buffer.length} not written` +
        (this.dropped > 0 ? `, ${this.dropped} refused by the database` : ''),
    );
  }

  record(visit: RawVisit): void {
    if (this.buffer.length >= MAX_BUFFERED) {
      const dropped = this.buffer.shift();
      if (dropped) this.release(dropped.linkId, 1);
      this.logger.error('The visit buffer is full: the database is not accepting writes');
    }
    this.buffer.push(visit);
    this.counted += 1;
    this.pending.set(visit.linkId, (this.pending.get(visit.linkId) ?? 0) + 1);
    if (this.buffer.length >= FLUSH_BATCH && !this.flushing) {
      void this.flush();
    }
  }

  /** Counted visits of a link that are not in the database yet. */
  unflushed(linkId: number): number {
    return this.pending.get(linkId) ?? 0;
  }

  /**
   * Writes what is buffered now, in batches of WRITE_BATCH visits, one transaction each, yielding
   * to the event loop between batches so that redirects are not held up. Waits for a flush that is
   * already running. Never throws: a failed batch goes back to the buffer for the next flush.
   */
  async flush(): Promise<void> {
    while (this.flushing) {
      await this.flushing;
    }
    if (this.buffer.length === 0) {
      return;
    }
    const taken = this.buffer;
    this.buffer = [];
    const started = performance.now();
    this.flushing = this.writeAll(taken).finally(() => {
      this.flushing = null;
      this.onFlush?.((performance.now() - started) / 1000);
    });
    await this.flushing;
  }

  /** Flushes until the buffer is empty (or a write fails). */
  async flushAll(): Promise<void> {
    let before = -1;
    while (this.buffer.length > 0 && this.buffer.length !== before) {
      before = this.buffer.length;
      await this.flush();
    }
    while (this.flushing) {
      await this.flushing;
    }
  }

  private async writeAll(taken: RawVisit[]): Promise<void> {
    for (let i = 0; i < taken.length; i += WRITE_BATCH) {
      const batch = taken.slice(i, i + WRITE_BATCH);
      const done = await this.write(batch);
      if (done < batch.length) {
        this.buffer = taken.slice(i + done).concat(this.buffer);
        return;
      }
      await yieldToEventLoop();
    }
  }

  /**
   * Writes one batch in one transaction. Returns how many of its visits are done with (written,
   * or dropped as data the database refuses); the rest go back to the buffer for the next flush.
   * A visit the database refuses as data would be refused again on every retry, so when a batch
   * fails that way its visits are written one at a time and only the refused ones are dropped:
   * one bad visit must not hold up all the others behind it.
   */
  private async write(batch: RawVisit[]): Promise<number> {
    let rows: NewVisit[] = [];
    try {
      rows = await this.enricher.enrich(batch);
      await this.store(rows);
      return batch.length;
    } catch (error) {
      if (rows.length !== batch.length || !isDataError(error)) {
        this.logger.error(`Writing ${batch.length} visits failed; will retry: ${String(error)}`);
        return 0;
      }
      this.logger.warn(`Writing ${batch.length} visits failed (${String(error)}); one at a time`);
    }
    for (let j = 0; j < rows.length; j += 1) {
      try {
        await this.store([rows[j]]);
      } catch (error) {
        if (!isDataError(error)) {
          this.logger.error(`Writing visits failed; will retry: ${String(error)}`);
          return j;
        }
        this.dropped += 1;
        this.release(rows[j].link_id, 1);
        this.logger.error(
          `A visit of link ${rows[j].link_id} was refused and dropped: ${String(error)}`,
        );
      }
    }
    return batch.length;
  }

  private async store(rows: NewVisit[]): Promise<void> {
    // An API transaction in progress holds SQLite's one connection: do not join it.
    for (let waited = 0; this.visits.isBusy() && waited < BUSY_WAIT_LIMIT; waited += 1) {
      await new Promise((resolve) => setTimeout(resolve, 1));
    }
    this.written += await this.visits.recordBatch(rows);
    for (const [linkId, count] of countByLink(rows)) {
      this.release(linkId, count);
    }
  }

  private release(linkId: number, count: number): void {
    const left = (this.pending.get(linkId) ?? 0) - count;
    if (left > 0) this.pending.set(linkId, left);
    else this.pending.delete(linkId);
  }
}

function yieldToEventLoop(): Promise<void> {
  return new Promise((resolve) => setImmediate(resolve));
}
