import {
  Inject,
  Injectable,
  Logger,
  OnApplicationBootstrap,
  OnApplicationShutdown,
} from '@nestjs/common';
import { APP_CONFIG, type AppConfig } from '@app/config';
import { Clock, DAY_MS } from '@app/common';
import { VisitsRepository } from '@app/database';

const EVERY_MS = 60 * 60 * 1000;

/**
 * With VISITS_RETENTION_DAYS set, deletes raw visits older than that, at boot and every hour. The
 * statistics roll-ups are not touched, so statistics of any age stay readable.
 */
@Injectable()
export class VisitsRetention implements OnApplicationBootstrap, OnApplicationShutdown {
  private readonly logger = new Logger(VisitsRetention.name);
  private timer: NodeJS.Timeout | null = null;
  private running: Promise<number> | null = null;

  constructor(
    private readonly visits: VisitsRepository,
    private readonly clock: Clock,
    @Inject(APP_CONFIG) private readonly config: AppConfig,
  ) {}

  onApplicationBootstrap(): void {
    if (this.config.visitsRetentionDays === null) {
      return;
    }
    void this.prune();
    this.timer = setInterval(() => void this.prune(), EVERY_MS);
    this.timer.unref();
  }

  async onApplicationShutdown(): Promise<void> {
    if (this.timer) {
      clearInterval(this.timer);
    }
    await this.running;
  }

  /** One pass; returns the visits deleted. Never runs twice at once. */
  prune(): Promise<number> {
    const days = this.config.visitsRetentionDays;
    if (days === null) {
      return Promise.resolve(0);
    }
    this.running ??= this.visits
      .deleteOlderThan(new Date(this.clock.now().getTime() - days * DAY_MS))
      .then(
        (deleted) => {
          if (deleted > 0) {
            this.logger.log(`Deleted ${deleted} visits older than ${days} days`);
          }
          return deleted;
        },
        (error: unknown) => {
          this.logger.error(`Visit retention failed: ${String(error)}`);
          return 0;
        },
      )
      .finally(() => {
        this.running = null;
      });
    return this.running;
  }
}
