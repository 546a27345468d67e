import { randomBytes } from 'node:crypto';
import { constants, createWriteStream } from 'node:fs';
import { lstat, mkdir, open, readdir, rename, rm, rmdir, utimes } from 'node:fs/promises';
import { dirname, join, sep } from 'node:path';
import { Readable, Transform } from 'node:stream';
import { pipeline } from 'node:stream/promises';
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

const DRAFT_PREFIX = '.draft-';

function newId(): string {
  return randomBytes(12).toString('hex');
}

/** A version id that sorts by creation time: base-36 milliseconds and a random tail. */
function newVersion(): string {
  return `${Date.now().toString(36)}-${randomBytes(4).toString('hex')}`;
}

/**
 * Sites on the local disk: `<root>/<siteId>/<version>/<path>`. A draft is written to
 * `<root>/<siteId>/.draft-<version>` and published with one rename, so a version directory exists
 * only complete. Every path is checked by segment and then again as a resolved prefix of its
 * version directory.
 */
export class LocalSiteStorage extends SiteStorage {
  constructor(private readonly root: string) {
    super();
  }

  async createDraft(siteId: string = newId()): Promise<SiteDraft> {
    this.checkId(siteId);
    const version = newVersion();
    const siteDir = join(this.root, siteId);
    const draftDir = join(siteDir, `${DRAFT_PREFIX}${version}`);
    const finalDir = join(siteDir, version);
    await mkdir(draftDir, { recursive: true });
    let published = false;
    return {
      siteId,
      version,
      write: async (path, content, maxBytes) => {
        if (published) {
          throw new Error('The version is already published');
        }
        const target = resolveInside(draftDir, path);
        await mkdir(dirname(target), { recursive: true });
        let written = 0;
        const counter = new Transform({
          transform(chunk: Buffer, _enc, done) {
            written += chunk.length;
            if (maxBytes !== undefined && written > maxBytes) {
              done(new SiteFileTooLargeError());
              return;
            }
            done(null, chunk);
          },
        });
        const source = Buffer.isBuffer(content) ? Readable.from([content]) : content;
        // 'wx': never follows or replaces anything already there.
        await pipeline(source, counter, createWriteStream(target, { flags: 'wx', mode: 0o644 }));
        return written;
      },
      publish: async () => {
        await rename(draftDir, finalDir);
        published = true;
      },
      discard: async () => {
        await rm(published ? finalDir : draftDir, { recursive: true, force: true });
        await this.removeIfEmpty(siteDir);
      },
    };
  }

  async stat(site: SiteRef, path: string): Promise<SiteEntry | null> {
    const target = this.locate(site, path);
    if (target === null) {
      return null;
    }
    try {
      const info = await lstat(target);
      if (!info.isFile() && !info.isDirectory()) {
        return null;
      }
      return { kind: info.isFile() ? 'file' : 'directory', size: info.size, mtime: info.mtime };
    } catch (error) {
      if (isMissing(error)) return null;
      throw error;
    }
  }

  async open(site: SiteRef, path: string): Promise<SiteFile | null> {
    const target = this.locate(site, path);
    if (target === null) {
      return null;
    }
    let handle;
    try {
      handle = await open(target, constants.O_RDONLY | constants.O_NOFOLLOW);
    } catch (error) {
      if (isMissing(error) || (error as { code?: string }).code === 'ELOOP') return null;
      throw error;
    }
    const info = await handle.stat();
    if (!info.isFile()) {
      await handle.close();
      return null;
    }
    const fileHandle = handle;
    return {
      size: info.size,
      mtime: info.mtime,
      stream: (range) => fileHandle.createReadStream({ autoClose: true, ...range }),
      close: () => fileHandle.close(),
    };
  }

  async retireVersion(site: SiteRef): Promise<void> {
    this.checkId(site.siteId);
    this.checkId(site.version);
    const now = new Date();
    try {
      await utimes(join(this.root, site.siteId, site.version), now, now);
    } catch (error) {
      if (!isMissing(error)) throw error;
    }
  }

  async removeVersion(site: SiteRef): Promise<void> {
    this.checkId(site.siteId);
    this.checkId(site.version);
    await rm(join(this.root, site.siteId, site.version), { recursive: true, force: true });
    await this.removeIfEmpty(join(this.root, site.siteId));
  }

  async removeSite(siteId: string): Promise<void> {
    this.checkId(siteId);
    await rm(join(this.root, siteId), { recursive: true, force: true });
  }

  async listSites(): Promise<StoredSite[]> {
    const sites: StoredSite[] = [];
    for (const siteId of await listDirectories(this.root)) {
      if (!isStorageId(siteId)) continue;
      const versions: StoredSite['versions'] = [];
      for (const name of await listDirectories(join(this.root, siteId))) {
        const draft = name.startsWith(DRAFT_PREFIX);
        const version = draft ? name.slice(DRAFT_PREFIX.length) : name;
        if (!isStorageId(version)) continue;
        const info = await lstat(join(this.root, siteId, name));
        versions.push({ version, draft, modified: info.mtime });
      }
      sites.push({ siteId, versions });
    }
    return sites;
  }

  /** Removes an unpublished draft left by a process that stopped while writing it. */
  async removeDraft(site: SiteRef): Promise<void> {
    this.checkId(site.siteId);
    this.checkId(site.version);
    await rm(join(this.root, site.siteId, `${DRAFT_PREFIX}${site.version}`), {
      recursive: true,
      force: true,
    });
    await this.removeIfEmpty(join(this.root, site.siteId));
  }

  private locate(site: SiteRef, path: string): string | null {
    if (!isStorageId(site.siteId) || !isStorageId(site.version)) {
      return null;
    }
    try {
      return resolveInside(join(this.root, site.siteId, site.version), path);
    } catch (error) {
      if (error instanceof InvalidSitePathError) return null;
      throw error;
    }
  }

  private checkId(id: string): void {
    if (!isStorageId(id)) {
      throw new InvalidSitePathError(id);
    }
  }

  private async removeIfEmpty(dir: string): Promise<void> {
    try {
      await rmdir(dir);
    } catch {
      // Not empty (another version lives there) or already gone.
    }
  }
}

function resolveInside(base: string, path: string): string {
  const segments = sitePathSegments(path);
  if (segments === null) {
    throw new InvalidSitePathError(path);
  }
  const target = join(base, ...segments);
  if (!target.startsWith(base + sep)) {
    throw new InvalidSitePathError(path);
  }
  return target;
}

async function listDirectories(dir: string): Promise<string[]> {
  try {
    const entries = await readdir(dir, { withFileTypes: true });
    return entries.filter((e) => e.isDirectory()).map((e) => e.name);
  } catch (error) {
    if (isMissing(error)) return [];
    throw error;
  }
}

function isMissing(error: unknown): boolean {
  const code = (error as { code?: string }).code;
  return code === 'ENOENT' || code === 'ENOTDIR';
}
