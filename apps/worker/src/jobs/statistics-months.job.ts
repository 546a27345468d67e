import { Injectable, Logger } from '@nestjs/common';
import { Clock, DAY_MS } from '@app/common';
import { closeMonth, Db, endedMonth, firstDayOfMonth, monthsClosedThrough } from '@app/database';
import type { Job } from '../job';

const HOUR_MS = 60 * 60 * 1000;
/**
 * How long after a month has ended in every zone it is closed: time for the visit writers' backlog
 * to drain, so that few visits of the month are written after it (those add to both its day and
 * month rows, which is correct, only more work).
 */
const CLOSE_MARGIN_MS = HOUR_MS;

/**
 * Closes the statistics months that are over (rollups/closed-months.ts): each month's rows in the
 * month tables become the sums of its day rows, in one transaction per month. Hourly, and at boot
 * to catch up after a stop.
 */
@Injectable()
export class StatisticsMonthsJob implements Job {
  readonly name = 'statistics-months';
  readonly firstDelayMs = 0;
  readonly everyMs = HOUR_MS;
  readonly offBecause = null;
  private readonly logger = new Logger(StatisticsMonthsJob.name);

  constructor(
    private readonly db: Db,
    private readonly clock: Clock,
  ) {}

  async run(signal: AbortSignal): Promise<void> {
    await this.closeEnded(signal);
  }

  /** Closes every month that has ended and is not closed yet; returns how many it closed. */
  async closeEnded(signal?: AbortSignal): Promise<number> {
    const ended = endedMonth(this.clock.now().getTime(), CLOSE_MARGIN_MS);
    let closed = 0;
    for (;;) {
      const through = await monthsClosedThrough(this.db.manager);
      if (through >= ended || !Number.isFinite(through) || signal?.aborted) {
        return closed;
      }
      const month = through + 1;
      const done = await this.db.write(() => closeMonth(this.db, month));
      if (done) {
        closed += 1;
        this.logger.log(`Closed the statistics month ${monthText(month)}`);
      }
    }
  }
}

/** A month (months since January 1970) as YYYY-MM. */
function monthText(month: number): string {
  return new Date(firstDayOfMonth(month) * DAY_MS).toISOString().slice(0, 7);
}
