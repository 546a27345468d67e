import { Inject, Injectable, Logger } from '@nestjs/common';
import { APP_CONFIG, type AppConfig } from '@app/config';
import { DestinationChecks } from '@app/links';
import type { Job } from '../job';

/**
 * Checks link destinations (DestinationChecks): every 10 minutes it takes the links not checked
 * for a day, so each link is checked at most once a day. LINK_CHECKS=off turns it off.
 */
@Injectable()
export class DestinationChecksJob implements Job {
  readonly name = 'destination-checks';
  readonly firstDelayMs = 60_000;
  readonly everyMs = 10 * 60_000;
  readonly offBecause: string | null;
  private readonly logger = new Logger(DestinationChecksJob.name);

  constructor(
    private readonly checks: DestinationChecks,
    @Inject(APP_CONFIG) config: AppConfig,
  ) {
    this.offBecause = config.linkChecks ? null : 'LINK_CHECKS=off';
  }

  async run(signal: AbortSignal): Promise<void> {
    const summary = await this.checks.run({ signal });
    if (summary.checked > 0) {
      this.logger.log(
        `Checked ${summary.checked} destinations: ${summary.ok} ok, ${summary.broken} broken`,
      );
    }
  }
}
