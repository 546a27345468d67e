import { Injectable, Logger, OnApplicationBootstrap, OnApplicationShutdown } from '@nestjs/common';
import { LinksRepository, parseLinkSettings } from '@app/database';
import { SiteStorage } from '@app/storage';

/**
 * A version or draft changed more recently than this may still be read or written: a replaced
 * version is marked retired when it is replaced (SiteStorage.retireVersion), so requests in flight,
 * other instances and their cached links keep reading it for this long.
 */
export const SWEEP_GRACE_MS = 60 * 60 * 1000;
const SWEEP_EVERY_MS = 6 * 60 * 60 * 1000;

/**
 * Removes site files no link points at: versions replaced by a newer one, sites whose links went
 * with their domain or their user (database cascades, which never reach the files), what a delete
 * could not remove, and drafts of a process that stopped while unpacking. Runs at start and every
 * six hours.
 */
@Injectable()
export class SiteSweeper implements OnApplicationBootstrap, OnApplicationShutdown {
  private readonly logger = new Logger(SiteSweeper.name);
  private timer: NodeJS.Timeout | null = null;

  constructor(
    private readonly storage: SiteStorage,
    private readonly links: LinksRepository,
  ) {}

  onApplicationBootstrap(): void {
    const run = (): void => {
      this.sweep().catch((error: unknown) =>
        this.logger.warn(`Sweeping static-site files failed: ${String(error)}`),
      );
    };
    this.timer = setInterval(run, SWEEP_EVERY_MS);
    this.timer.unref();
    setImmediate(run);
  }

  onApplicationShutdown(): void {
    if (this.timer) clearInterval(this.timer);
  }

  /** Returns how many versions and drafts were removed. */
  async sweep(now = Date.now()): Promise<number> {
    const inUse = new Map<string, string>();
    for (const json of await this.links.staticSettings()) {
      const site = parseLinkSettings(json).static_site;
      if (site) inUse.set(site.folder, site.version);
    }
    let removed = 0;
    for (const stored of await this.storage.listSites()) {
      const current = inUse.get(stored.siteId);
      for (const { version, draft, modified } of stored.versions) {
        if (now - modified.getTime() < SWEEP_GRACE_MS || (!draft && version === current)) {
          continue;
        }
        const ref = { siteId: stored.siteId, version };
        await (draft ? this.storage.removeDraft(ref) : this.storage.removeVersion(ref));
        removed += 1;
      }
    }
    if (removed > 0) {
      this.logger.log(`Removed ${removed} unused static-site versions`);
    }
    return removed;
  }
}
