import { Logger } from '@nestjs/common';
import { isDataError } from '@app/common/errors/database-errors';
import type { NewVisit } from '@app/database/rollups/visit-columns';
import type { VisitBatch } from './visit-batch';
import type { VisitEnricher } from './visit-enricher';
import { countByLink, type LinkAddress, type VisitWriter } from './visit-writer';

/**
 * Visits per transaction in the thread that serves redirects: small enough that one transaction
 * holds up redirects only about a millisecond.
 */
export const INLINE_WRITE_BATCH = 250;
/**
 * In the writer thread, larger: a transaction there holds up no redirect, only API writes (which
 * wait for it without blocking), and the more visits one transaction holds, the more of them
 * share a roll-up row. A 250 ms window of ordinary traffic is far smaller; only a writer that has
 * fallen behind gets this many at once. In bench:redirect's mix on SQLite a writer that is behind
 * drains about 28,000 visits/s in batches of 20,000, against 12,000 in batches of 5,000, at the
 * cost of API writes waiting longer meanwhile (about a second at most).
 */
export const THREAD_WRITE_BATCH = 20_000;
const BUSY_WAIT_LIMIT = 1000;

/** What became of a batch of counted visits handed to a sink. */
export interface BatchOutcome {
  /**
   * How many visits from the start of the batch are done with: written, or refused by the
   * database as data and dropped. The rest were not written (the database failed) and are to be
   * handed over again.
   */
  done: number;
  written: number;
  dropped: number;
  /** Per link, how many of its visits are done with: [link id, count]. */
  released: [number, number][];
  /** See WrittenBatch.limitedLinks. */
  limitedLinks: LinkAddress[];
  /** Links whose clicks limit was reached; an event was written for each. */
  limitsReached: number;
}

/** An outcome with nothing done yet. */
export function emptyOutcome(): BatchOutcome {
  return { done: 0, written: 0, dropped: 0, released: [], limitedLinks: [], limitsReached: 0 };
}

/** Where the recorder hands counted visits: this thread (InlineVisitSink) or the writer thread. */
export interface VisitSink {
  write(batch: VisitBatch): Promise<BatchOutcome>;
  close(): Promise<void>;
}

/**
 * Enriches and writes visits in the calling thread, one transaction per `writeBatch` visits,
 * yielding to the event loop between transactions. Runs inside the visit writer thread, or in the
 * API process with VISIT_WRITER=inline.
 */
export class InlineVisitSink implements VisitSink {
  private readonly logger = new Logger('VisitRecorder');

  constructor(
    private readonly enricher: VisitEnricher,
    private readonly visits: VisitWriter,
    /** On the API's own connection: wait for its transactions rather than join them. */
    private readonly sharesConnection: boolean,
    private readonly writeBatch = INLINE_WRITE_BATCH,
  ) {}

  async write(batch: VisitBatch): Promise<BatchOutcome> {
    const outcome = emptyOutcome();
    const released = new Map<number, number>();
    for (let i = 0; i < batch.length; i += this.writeBatch) {
      const chunk = batch.length <= this.writeBatch ? batch : batch.slice(i, i + this.writeBatch);
      const done = await this.writeChunk(chunk, outcome, released);
      outcome.done += done;
      if (done < chunk.length) break;
      if (i + this.writeBatch < batch.length) await yieldToEventLoop();
    }
    outcome.released = [...released];
    return outcome;
  }

  close(): Promise<void> {
    return Promise.resolve();
  }

  /**
   * Writes one chunk in one transaction. Returns how many of its visits are done with. A visit the
   * database refuses as data would be refused again on every retry, so when a chunk fails that way
   * its visits are written one at a time and only the refused ones are dropped: one bad visit must
   * not hold up all the others behind it.
   */
  private async writeChunk(
    chunk: VisitBatch,
    outcome: BatchOutcome,
    released: Map<number, number>,
  ): Promise<number> {
    let rows: NewVisit[] = [];
    try {
      rows = await this.enricher.enrich(chunk);
      await this.store(rows, outcome, released);
      return chunk.length;
    } catch (error) {
      if (rows.length !== chunk.length || !isDataError(error)) {
        this.logger.error(`Writing ${chunk.length} visits failed; will retry: ${String(error)}`);
        return 0;
      }
      this.logger.warn(`Writing ${chunk.length} visits failed (${String(error)}); one at a time`);
    }
    for (let j = 0; j < rows.length; j += 1) {
      try {
        await this.store([rows[j]], outcome, released);
      } catch (error) {
        if (!isDataError(error)) {
          this.logger.error(`Writing visits failed; will retry: ${String(error)}`);
          return j;
        }
        outcome.dropped += 1;
        if (rows[j].bot === null) release(released, rows[j].link_id, 1);
        this.logger.error(
          `A visit of link ${rows[j].link_id} was refused and dropped: ${String(error)}`,
        );
      }
    }
    return chunk.length;
  }

  private async store(
    rows: NewVisit[],
    outcome: BatchOutcome,
    released: Map<number, number>,
  ): Promise<void> {
    if (this.sharesConnection) {
      // An API transaction in progress holds SQLite's one connection: do not join it.
      for (let waited = 0; this.visits.isBusy() && waited < BUSY_WAIT_LIMIT; waited += 1) {
        await new Promise((resolve) => setTimeout(resolve, 1));
      }
    }
    const result = await this.visits.writeBatch(rows);
    outcome.written += result.written;
    outcome.limitedLinks.push(...result.limitedLinks);
    outcome.limitsReached += result.limitsReached;
    // Bots' visits were never pending on their links (VisitRecorder.record).
    for (const [linkId, count] of countByLink(rows)) {
      if (count.clicks > 0) release(released, linkId, count.clicks);
    }
  }
}

function release(released: Map<number, number>, linkId: number, count: number): void {
  released.set(linkId, (released.get(linkId) ?? 0) + count);
}

function yieldToEventLoop(): Promise<void> {
  return new Promise((resolve) => setImmediate(resolve));
}
