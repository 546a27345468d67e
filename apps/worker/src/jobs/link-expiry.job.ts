import { Inject, Injectable, Logger } from '@nestjs/common';
import { Clock } from '@app/common';
import { APP_CONFIG, type AppConfig } from '@app/config';
import { DomainsRepository, LinkEntity, LinksRepository } from '@app/database';
import { linkPayload } from '@app/notifications';
import type { Job } from '../job';

const EVERY_MS = 60_000;
const BATCH = 200;

/**
 * Raises `link.expired` once for each link whose schedule end has passed (within a minute of it),
 * marking the end date it announced: a link given a new end date is announced again when that one
 * passes. Several workers never announce a link twice (a conditional update decides).
 */
@Injectable()
export class LinkExpiryJob implements Job {
  readonly name = 'link-expiry';
  readonly firstDelayMs = 5_000;
  readonly everyMs = EVERY_MS;
  readonly offBecause = null;
  private readonly logger = new Logger(LinkExpiryJob.name);

  constructor(
    private readonly links: LinksRepository,
    private readonly domains: DomainsRepository,
    private readonly clock: Clock,
    @Inject(APP_CONFIG) private readonly config: AppConfig,
  ) {}

  async run(signal: AbortSignal): Promise<void> {
    await this.announce(signal);
  }

  /** Returns how many links were announced. */
  async announce(signal?: AbortSignal): Promise<number> {
    let announced = 0;
    for (;;) {
      const now = this.clock.now();
      const due = await this.links.expiredUnannounced(now, BATCH);
      for (const link of due) {
        if (signal?.aborted) return announced;
        const base = await this.baseUrl(link);
        const done = await this.links.announceExpiry(link, {
          now,
          of: (rows) =>
            rows.map((row) => ({
              event: 'link.expired',
              ownerId: row.user_id,
              data: { ...linkPayload(row, base, this.config.appUrl) },
            })),
        });
        if (done) announced += 1;
      }
      if (due.length < BATCH) break;
    }
    if (announced > 0) this.logger.log(`Announced ${announced} expired links`);
    return announced;
  }

  private async baseUrl(link: LinkEntity): Promise<string> {
    if (link.domain_id === 0) return this.config.appUrl;
    const domain = await this.domains.findOwned(link.user_id, link.domain_id);
    return domain ? `${domain.scheme}${domain.host}` : this.config.appUrl;
  }
}
