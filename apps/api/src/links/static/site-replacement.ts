import { AppError, UploadedDiskFile } from '@app/common';
import { StaticSiteSettings } from '@app/database';
import { StaticSites } from './static-sites.service';

/**
 * The new version of a site that one update of a link publishes. It is published once, before the
 * first write, however often the update is tried again; the version it replaces is retired after
 * the write that points the link at the new one; the new one is removed again when no write points
 * the link at it (a refused update, or a link deleted meanwhile).
 */
export class SiteReplacement {
  private site: StaticSiteSettings | undefined;

  constructor(
    private readonly sites: StaticSites,
    private readonly upload: UploadedDiskFile | undefined,
  ) {}

  /**
   * The version to point the link at (none without an upload), published into the folder of
   * `previous` on the first call. A delete of the link can remove the site's folder under it: that
   * is the link's 404, not a server fault, and `linkExists` throws it.
   */
  async publish(
    previous: StaticSiteSettings | undefined,
    linkExists: () => Promise<unknown>,
  ): Promise<StaticSiteSettings | undefined> {
    if (this.upload && !this.site) {
      try {
        this.site = await this.sites.publish(this.upload, previous?.folder);
      } catch (error) {
        if (!(error instanceof AppError)) {
          await linkExists();
        }
        throw error;
      }
    }
    return this.site;
  }

  /** The link now points at the new version: the one it replaced is retired. */
  async pointedAt(previous: StaticSiteSettings | undefined): Promise<void> {
    if (this.site && previous && previous.version !== this.site.version) {
      await this.sites.retire(previous);
    }
  }

  /** Nothing points at the new version: the update was refused, or the link is gone. */
  async abandon(): Promise<void> {
    if (this.site) {
      await this.sites.remove(this.site);
    }
  }
}
