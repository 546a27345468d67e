import { Inject, Injectable, Logger } from '@nestjs/common';
import { Clock, DAY_MS } from '@app/common';
import { APP_CONFIG, type AppConfig } from '@app/config';
import { AccountLogsRepository } from '@app/database';
import type { Job } from '../job';

/** Deletes account log entries older than ACCOUNT_LOGS_RETENTION_DAYS (90 by default), daily. */
@Injectable()
export class AccountLogsRetentionJob implements Job {
  readonly name = 'account-logs-retention';
  readonly firstDelayMs = 30_000;
  readonly everyMs = DAY_MS;
  private readonly logger = new Logger(AccountLogsRetentionJob.name);

  constructor(
    private readonly logs: AccountLogsRepository,
    private readonly clock: Clock,
    @Inject(APP_CONFIG) private readonly config: AppConfig,
  ) {}

  get offBecause(): string | null {
    return this.config.accountLogsRetentionDays === null
      ? 'ACCOUNT_LOGS_RETENTION_DAYS is 0 (kept forever)'
      : null;
  }

  async run(signal: AbortSignal): Promise<void> {
    await this.prune(signal);
  }

  /** Returns how many entries were deleted. */
  async prune(signal?: AbortSignal): Promise<number> {
    const days = this.config.accountLogsRetentionDays;
    if (days === null) return 0;
    const cutoff = new Date(this.clock.now().getTime() - days * DAY_MS);
    const deleted = await this.logs.deleteOlderThan(cutoff, signal);
    if (deleted > 0)
      this.logger.log(`Deleted ${deleted} account log entries older than ${days} days`);
    return deleted;
  }
}
