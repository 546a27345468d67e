import { randomBytes } from 'node:crypto';
import { Readable } from 'node:stream';
import { ObjectStore, ObjectTooLargeError } from './object-store';
import {
  InvalidSitePathError,
  isStorageId,
  SiteDraft,
  SiteEntry,
  SiteFile,
  SiteFileTooLargeError,
  sitePathSegments,
  SiteRef,
  SiteStorage,
  StoredSite,
} from './site-storage';

/** Written last by publish(): a version without it is a draft and cannot be read. */
const PUBLISHED = '.published';
/** Rewritten by retireVersion(): its time is when no link pointed at the version any more. */
const RETIRED = '.retired';
export const SITES_PREFIX = 'sites/';

function newId(): string {
  return randomBytes(12).toString('hex');
}

function newVersion(): string {
  return `${Date.now().toString(36)}-${randomBytes(4).toString('hex')}`;
}

/**
 * Sites in an ObjectStore (used for S3): `sites/<siteId>/<version>/<path>`, plus two marker objects
 * whose names no site path can take (site paths never start with a dot). Object stores have no
 * rename, so a version becomes readable when its `.published` marker is written after every file;
 * the database pointer switch that follows is what visitors see change, atomically.
 */
export class ObjectSiteStorage extends SiteStorage {
  /** Versions seen published: a marker is never removed without the whole version. */
  private readonly published = new Set<string>();

  constructor(private readonly store: ObjectStore) {
    super();
  }

  createDraft(siteId: string = newId()): Promise<SiteDraft> {
    this.checkId(siteId);
    const version = newVersion();
    const prefix = `${SITES_PREFIX}${siteId}/${version}/`;
    let published = false;
    return Promise.resolve({
      siteId,
      version,
      write: async (path: string, content: Readable | Buffer, maxBytes?: number) => {
        if (published) {
          throw new Error('The version is already published');
        }
        const segments = sitePathSegments(path);
        if (segments === null) {
          throw new InvalidSitePathError(path);
        }
        try {
          return await this.store.put(`${prefix}${segments.join('/')}`, content, { maxBytes });
        } catch (error) {
          throw error instanceof ObjectTooLargeError ? new SiteFileTooLargeError() : error;
        }
      },
      publish: async () => {
        await this.store.put(`${prefix}${PUBLISHED}`, Buffer.alloc(0));
        published = true;
      },
      discard: () => this.removeVersion({ siteId, version }),
    });
  }

  async stat(site: SiteRef, path: string): Promise<SiteEntry | null> {
    const key = await this.locate(site, path);
    if (key === null) {
      return null;
    }
    const file = await this.store.head(key);
    if (file !== null) {
      return { kind: 'file', size: file.size, mtime: file.modified };
    }
    for await (const inside of this.store.list(`${key}/`)) {
      return { kind: 'directory', size: 0, mtime: inside.modified };
    }
    return null;
  }

  async open(site: SiteRef, path: string): Promise<SiteFile | null> {
    const key = await this.locate(site, path);
    if (key === null) {
      return null;
    }
    const object = await this.store.get(key);
    if (object === null) {
      return null;
    }
    return {
      size: object.size,
      mtime: object.modified,
      stream: (range) => object.stream(range),
      close: () => Promise.resolve(),
    };
  }

  async retireVersion(site: SiteRef): Promise<void> {
    this.checkRef(site);
    if (await this.store.hasPrefix(this.prefix(site))) {
      await this.store.put(`${this.prefix(site)}${RETIRED}`, Buffer.alloc(0));
    }
  }

  async removeVersion(site: SiteRef): Promise<void> {
    this.checkRef(site);
    const prefix = this.prefix(site);
    this.published.delete(prefix);
    const keys: string[] = [];
    for await (const object of this.store.list(prefix)) keys.push(object.key);
    // The marker goes first: a half-removed version is a draft, never a half-readable site.
    const marker = `${prefix}${PUBLISHED}`;
    if (keys.includes(marker)) await this.store.delete([marker]);
    await this.store.delete(keys.filter((k) => k !== marker));
  }

  async removeSite(siteId: string): Promise<void> {
    this.checkId(siteId);
    const keys: string[] = [];
    for await (const object of this.store.list(`${SITES_PREFIX}${siteId}/`)) keys.push(object.key);
    for (const key of this.published)
      if (key.startsWith(`${SITES_PREFIX}${siteId}/`)) this.published.delete(key);
    await this.store.delete(keys);
  }

  removeDraft(site: SiteRef): Promise<void> {
    return this.removeVersion(site);
  }

  async listSites(): Promise<StoredSite[]> {
    const versions = new Map<string, { published: boolean; latest: Date; retired: Date | null }>();
    for await (const object of this.store.list(SITES_PREFIX)) {
      const [siteId, version, ...rest] = object.key.slice(SITES_PREFIX.length).split('/');
      if (!isStorageId(siteId) || !isStorageId(version) || rest.length === 0) continue;
      const id = `${siteId}/${version}`;
      const seen = versions.get(id) ?? { published: false, latest: new Date(0), retired: null };
      const name = rest.join('/');
      if (name === PUBLISHED) seen.published = true;
      if (name === RETIRED) seen.retired = object.modified;
      if (object.modified > seen.latest) seen.latest = object.modified;
      versions.set(id, seen);
    }
    const sites = new Map<string, StoredSite>();
    for (const [id, seen] of versions) {
      const [siteId, version] = id.split('/');
      const site = sites.get(siteId) ?? { siteId, versions: [] };
      site.versions.push({
        version,
        draft: !seen.published,
        modified: seen.retired ?? seen.latest,
      });
      sites.set(siteId, site);
    }
    return [...sites.values()];
  }

  /** The key of a file in a published version, or null. */
  private async locate(site: SiteRef, path: string): Promise<string | null> {
    if (!isStorageId(site.siteId) || !isStorageId(site.version)) {
      return null;
    }
    const segments = sitePathSegments(path);
    if (segments === null) {
      return null;
    }
    const prefix = this.prefix(site);
    if (!this.published.has(prefix)) {
      if ((await this.store.head(`${prefix}${PUBLISHED}`)) === null) return null;
      this.published.add(prefix);
    }
    return `${prefix}${segments.join('/')}`;
  }

  private prefix(site: SiteRef): string {
    return `${SITES_PREFIX}${site.siteId}/${site.version}/`;
  }

  private checkRef(site: SiteRef): void {
    this.checkId(site.siteId);
    this.checkId(site.version);
  }

  private checkId(id: string): void {
    if (!isStorageId(id)) {
      throw new InvalidSitePathError(id);
    }
  }
}
