import { createReadStream } from 'node:fs';
import { Inject, Injectable, Logger } from '@nestjs/common';
import { AppError, UploadedDiskFile } from '@app/common';
import { APP_CONFIG, type AppConfig } from '@app/config';
import { StaticSiteSettings } from '@app/database';
import { siteUploadMode } from '@app/links';
import { SiteFileTooLargeError, SiteStorage } from '@app/storage';
import { unpackZip } from './site-archive';

/**
 * Publishes the files of static sites. A new version is written and published in full before the
 * caller points the link at it. A replaced version is only marked retired: requests in flight,
 * other instances and their cached links may still read it, and the sweeper removes it once its
 * grace period has passed. `remove` deletes at once (a deleted link, a version never pointed at).
 */
@Injectable()
export class StaticSites {
  private readonly logger = new Logger(StaticSites.name);

  constructor(
    private readonly storage: SiteStorage,
    @Inject(APP_CONFIG) private readonly config: AppConfig,
  ) {}

  /**
   * Writes a new version of a site (a new site when `folder` is omitted) and publishes it. Nothing
   * is left behind when this throws.
   */
  async publish(upload: UploadedDiskFile, folder?: string): Promise<StaticSiteSettings> {
    const mode = siteUploadMode(upload);
    const limits = this.config.staticSites;
    const draft = await this.storage.createDraft(folder);
    try {
      let files: string[];
      let bytes: number;
      if (mode === 'html') {
        bytes = await draft.write('index.html', createReadStream(upload.path), limits.maxBytes);
        files = ['index.html'];
      } else {
        ({ files, bytes } = await unpackZip(upload.path, draft, limits));
      }
      await draft.publish();
      return { mode, folder: draft.siteId, version: draft.version, files, bytes };
    } catch (error) {
      await draft.discard();
      if (error instanceof SiteFileTooLargeError) {
        throw new AppError(
          'payload_too_large',
          `file is larger than ${limits.maxBytes} bytes; that is the most a site may have.`,
          'file',
        );
      }
      throw error;
    }
  }

  /**
   * Marks a version no link points at any more; the sweeper removes it SWEEP_GRACE_MS later. A
   * failure is logged: the version is then swept by its age instead.
   */
  async retire(site: StaticSiteSettings): Promise<void> {
    try {
      await this.storage.retireVersion({ siteId: site.folder, version: site.version });
    } catch (error) {
      this.logger.warn(`Could not mark ${site.folder}/${site.version} retired: ${String(error)}`);
    }
  }

  /**
   * Removes one version, or the whole site, now. A failure is logged, not thrown: nothing serves
   * the files any more, and the sweeper removes what is left.
   */
  async remove(site: StaticSiteSettings, wholeSite = false): Promise<void> {
    try {
      if (wholeSite) {
        await this.storage.removeSite(site.folder);
      } else {
        await this.storage.removeVersion({ siteId: site.folder, version: site.version });
      }
    } catch (error) {
      this.logger.warn(
        `Could not remove the files of site ${site.folder}/${site.version} (the sweeper will): ${String(error)}`,
      );
    }
  }
}
