import { Injectable, Logger } from '@nestjs/common';
import { LinksRepository, parseLinkSettings } from '@app/database';
import { SiteStorage } from '@app/storage';
import type { Job } from '../job';

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
export class SiteSweepJob implements Job {
  readonly name = 'site-sweep';
  readonly firstDelayMs = 0;
  readonly everyMs = SWEEP_EVERY_MS;
  readonly offBecause = null;
  private readonly logger = new Logger(SiteSweepJob.name);

  constructor(
    private readonly storage: SiteStorage,
    private readonly links: LinksRepository,
  ) {}

  async run(signal: AbortSignal): Promise<void> {
    await this.sweep(Date.now(), signal);
  }

  /**
   * Returns how many versions and drafts were removed. Stops between sites once `signal` is
   * aborted; the next sweep finds what this one left.
   */
  async sweep(now = Date.now(), signal?: AbortSignal): Promise<number> {
    const inUse = new Map<string, string>();
    for (const json of await this.links.staticSettings()) {
      const site = parseLinkSettings(json).static_site;
      if (site) inUse.set(site.folder, site.version);
    }
    let removed = 0;
    for (const stored of await this.storage.listSites()) {
      if (signal?.aborted) break;
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
