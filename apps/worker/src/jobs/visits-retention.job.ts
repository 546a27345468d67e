import { Inject, Injectable, Logger } from '@nestjs/common';
import { Clock, DAY_MS } from '@app/common';
import { APP_CONFIG, type AppConfig } from '@app/config';
import { VisitsRepository } from '@app/database';
import type { Job } from '../job';

const EVERY_MS = 60 * 60 * 1000;

/**
 * With VISITS_RETENTION_DAYS set, deletes raw visits older than that, at boot and every hour. The
 * statistics roll-ups are not touched, so statistics of any age stay readable.
 */
@Injectable()
export class VisitsRetentionJob implements Job {
  readonly name = 'visits-retention';
  readonly firstDelayMs = 0;
  readonly everyMs = EVERY_MS;
  private readonly logger = new Logger(VisitsRetentionJob.name);

  constructor(
    private readonly visits: VisitsRepository,
    private readonly clock: Clock,
    @Inject(APP_CONFIG) private readonly config: AppConfig,
  ) {}

  get offBecause(): string | null {
    return this.config.visitsRetentionDays === null ? 'VISITS_RETENTION_DAYS is unset' : null;
  }

  async run(signal: AbortSignal): Promise<void> {
    await this.prune(signal);
  }

  /** One pass; returns the visits deleted. Stops between batches once `signal` is aborted. */
  async prune(signal?: AbortSignal): Promise<number> {
    const days = this.config.visitsRetentionDays;
    if (days === null) {
      return 0;
    }
    const cutoff = new Date(this.clock.now().getTime() - days * DAY_MS);
    const deleted = await this.visits.deleteOlderThan(cutoff, undefined, signal);
    if (deleted > 0) {
      this.logger.log(`Deleted ${deleted} visits older than ${days} days`);
    }
    return deleted;
  }
}
