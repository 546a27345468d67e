import {
  BeforeApplicationShutdown,
  Inject,
  Injectable,
  Logger,
  OnModuleDestroy,
  OnModuleInit,
} from '@nestjs/common';
import { EventEmitter2 } from '@nestjs/event-emitter';
import { OutboxWaker } from '@app/database';
import { type RawVisit, VISITOR } from './raw-visit';
import { VisitBatch } from './visit-batch';
import {
  LIMITED_LINKS_WRITTEN,
  type LimitedLinksWrittenEvent,
  VISITS_FLUSHED,
  type VisitsFlushedEvent,
} from './visit-events';
import type { BatchOutcome, VisitSink } from './visit-sink';

/** Injection token of the VisitSink the recorder hands its batches to. */
export const VISIT_SINK = Symbol('VISIT_SINK');

export const FLUSH_INTERVAL_MS = 250;
/** A batch this large is flushed at once instead of waiting for the timer. */
export const FLUSH_BATCH = 2000;
/** Most visits handed over at once (a backlog after the database was down goes in parts). */
const HANDOVER_LIMIT = 20_000;
/**
 * Beyond this, while the database refuses writes or cannot keep up, the oldest visits are dropped
 * (counted, and logged at most once per OVERFLOW_LOG_MS).
 */
const MAX_BUFFERED = 1_000_000;
const OVERFLOW_LOG_MS = 10_000;

/**
 * Buffers counted visits in memory and hands them, every 250 ms or at 2,000, to the visit writer
 * (a thread of its own, or this thread with VISIT_WRITER=inline), one batch at a time: the next
 * batch goes only once the last one is written, so a crash loses at most what one window holds.
 * Until a visit is written its link's count stays in `unflushed`, which the visitor cache adds to
 * the clicks it reads. On shutdown it hands over everything it holds and waits until it is
 * written, so every counted redirect becomes a row. What feeds it stops first: Nest runs the
 * shutdown hooks of a module before those of the modules it imports, so a module that imports
 * AnalyticsModule can stop taking visits (the API stops its HTTP server) before this drains.
 */
@Injectable()
export class VisitRecorder implements OnModuleInit, OnModuleDestroy, BeforeApplicationShutdown {
  private readonly logger = new Logger(VisitRecorder.name);
  /** Counted visits not handed over yet, oldest first, in batches of up to FLUSH_BATCH. */
  private buffer: VisitBatch[] = [];
  private buffered = 0;
  private readonly pending = new Map<number, number>();
  private flushing: Promise<void> | null = null;
  private timer: NodeJS.Timeout | null = null;
  /** Redirects counted by this process since start, and visits it wrote. */
  counted = 0;
  written = 0;
  /** Visits the database refused as data; not retried. */
  dropped = 0;
  /** Visits dropped unwritten because the buffer was full. */
  overflowed = 0;
  /** The buffer's bound (tests lower it). */
  maxBuffered = MAX_BUFFERED;
  private overflowLoggedAt = -Infinity;
  private overflowedLogged = 0;

  constructor(
    @Inject(VISIT_SINK) private readonly sink: VisitSink,
    /** Where VISITS_FLUSHED and LIMITED_LINKS_WRITTEN go (visit-events.ts). */
    private readonly events: EventEmitter2,
    /** Wakes this process's dispatcher for the clicks-limit events a batch raised. */
    private readonly outbox: OutboxWaker,
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
    await this.sink.close();
    this.logger.log(
      `Visits: ${this.counted} counted, ${this.written} written, ${this.buffered} not written` +
        (this.dropped > 0 ? `, ${this.dropped} refused by the database` : '') +
        (this.overflowed > 0 ? `, ${this.overflowed} dropped from a full buffer` : ''),
    );
  }

  record(visit: RawVisit): void {
    if (this.buffered >= this.maxBuffered) {
      const oldest = this.buffer[0];
      const linkId = oldest.dropFirst();
      if (linkId !== -1) this.release(linkId, 1);
      if (oldest.length === 0) this.buffer.shift();
      this.buffered -= 1;
      this.overflowed += 1;
      this.logOverflow();
    }
    let last = this.buffer[this.buffer.length - 1];
    if (last === undefined || last.full) {
      last = VisitBatch.withCapacity(FLUSH_BATCH);
      this.buffer.push(last);
    }
    last.push(visit);
    this.buffered += 1;
    this.counted += 1;
    if (visit.kind === VISITOR) {
      // Bots' visits count on no link's clicks (nor its clicks limit).
      this.pending.set(visit.linkId, (this.pending.get(visit.linkId) ?? 0) + 1);
    }
    if (this.buffered >= FLUSH_BATCH && !this.flushing) {
      void this.flush();
    }
  }

  /**
   * One line per OVERFLOW_LOG_MS while visits are being dropped, not one per visit: a full buffer
   * means tens of thousands of visits a second are arriving, and as many lines would make it worse.
   */
  private logOverflow(): void {
    const now = performance.now();
    if (now - this.overflowLoggedAt < OVERFLOW_LOG_MS) {
      return;
    }
    this.overflowLoggedAt = now;
    const since = this.overflowed - this.overflowedLogged;
    this.overflowedLogged = this.overflowed;
    this.logger.error(
      `The visit buffer is full (${this.maxBuffered} visits): the database is not accepting writes or not keeping up; ${since} oldest visits dropped since the last report, ${this.overflowed} in all`,
    );
  }

  /** Counted visits (not bots') of a link that are not in the database yet. */
  unflushed(linkId: number): number {
    return this.pending.get(linkId) ?? 0;
  }

  /**
   * Hands what is buffered now to the writer and waits until it is written. Waits for a flush
   * that is already running. Never throws: what was not written goes back to the buffer for the
   * next flush.
   */
  async flush(): Promise<void> {
    while (this.flushing) {
      await this.flushing;
    }
    if (this.buffered === 0) {
      return;
    }
    const taken = this.take();
    const started = performance.now();
    this.flushing = this.handOver(taken).finally(() => {
      this.flushing = null;
      const flushed: VisitsFlushedEvent = { seconds: (performance.now() - started) / 1000 };
      this.events.emit(VISITS_FLUSHED, flushed);
    });
    await this.flushing;
  }

  /** Flushes until the buffer is empty (or a write fails). */
  async flushAll(): Promise<void> {
    let before = -1;
    while (this.buffered > 0 && this.buffered !== before) {
      before = this.buffered;
      await this.flush();
    }
    while (this.flushing) {
      await this.flushing;
    }
  }

  /** The oldest buffered visits, up to HANDOVER_LIMIT, in one batch. */
  private take(): VisitBatch {
    let count = 0;
    let batches = 0;
    while (batches < this.buffer.length) {
      const next = this.buffer[batches].length;
      if (batches > 0 && count + next > HANDOVER_LIMIT) break;
      count += next;
      batches += 1;
    }
    const taken = this.buffer.splice(0, batches);
    this.buffered -= count;
    return taken.length === 1 ? taken[0] : VisitBatch.concat(taken);
  }

  /** Puts visits that were not written back in front of the buffer. */
  private putBack(visits: VisitBatch): void {
    this.buffer.unshift(visits);
    this.buffered += visits.length;
  }

  private async handOver(taken: VisitBatch): Promise<void> {
    let outcome: BatchOutcome;
    try {
      outcome = await this.sink.write(taken);
    } catch (error) {
      this.logger.error(`Writing ${taken.length} visits failed; will retry: ${String(error)}`);
      this.putBack(taken);
      return;
    }
    this.written += outcome.written;
    this.dropped += outcome.dropped;
    for (const [linkId, count] of outcome.released) {
      this.release(linkId, count);
    }
    if (outcome.done < taken.length) {
      this.putBack(taken.slice(outcome.done));
    }
    if (outcome.limitedLinks.length > 0) {
      const written: LimitedLinksWrittenEvent = { links: outcome.limitedLinks };
      this.events.emit(LIMITED_LINKS_WRITTEN, written);
    }
    // The events went out in the writer's transaction (in the thread, or here): wake this process's
    // dispatcher, which the thread cannot reach (PostgreSQL also NOTIFYs every dispatcher).
    if (outcome.limitsReached > 0) this.outbox.wake();
  }

  private release(linkId: number, count: number): void {
    const left = (this.pending.get(linkId) ?? 0) - count;
    if (left > 0) this.pending.set(linkId, left);
    else this.pending.delete(linkId);
  }
}
