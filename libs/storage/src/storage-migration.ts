import { createHash } from 'node:crypto';
import { SITES_PREFIX } from './object-site-storage';
import { ObjectInfo, ObjectStore } from './object-store';

/** The key prefixes that hold stored files (the rest of DATA_DIR is the database and keys). */
export const STORED_PREFIXES = [SITES_PREFIX, 'uploads/'];

const PUBLISHED = '.published';
const RETIRED = '.retired';

export interface MigrationSummary {
  /** Objects the target needs (site markers included). */
  objects: number;
  copied: number;
  /** Already in the target with the same size and SHA-256. */
  skipped: number;
  /** Bytes copied (or, in a dry run, to copy). */
  bytes: number;
  /** Keys whose copy did not read back with the source's size and hash. */
  failed: string[];
}

interface Planned {
  key: string;
  /** null: an empty marker that publishes a site version in an object store. */
  source: ObjectInfo | null;
}

/**
 * Copies every stored object from one store to another, verifying each copy by size and SHA-256
 * and skipping what the target already holds identically (so a stopped run is resumed by running
 * it again). Sites change layout on the way: on the disk a version directory is published by
 * existing (drafts are `.draft-*`), in an object store by a `.published` marker written after its
 * files; markers are written last, so a version is never readable half copied on S3.
 */
export class StorageMigration {
  constructor(
    private readonly from: ObjectStore,
    private readonly to: ObjectStore,
    private readonly direction: 'to-objects' | 'to-disk',
  ) {}

  async plan(): Promise<Planned[]> {
    const files: Planned[] = [];
    const markers: Planned[] = [];
    const publishedVersions = new Set<string>();
    const siteFiles: ObjectInfo[] = [];
    for (const prefix of STORED_PREFIXES) {
      for await (const object of this.from.list(prefix)) {
        const segments = object.key.split('/');
        if (segments.some((s) => s.startsWith('.draft-') || s.endsWith('.part'))) continue;
        if (prefix !== SITES_PREFIX) {
          files.push({ key: object.key, source: object });
          continue;
        }
        if (segments.length < 4) continue;
        const version = segments.slice(0, 3).join('/');
        const name = segments.slice(3).join('/');
        if (name === PUBLISHED) {
          publishedVersions.add(version);
        } else if (name !== RETIRED) {
          siteFiles.push(object);
        }
      }
    }
    for (const object of siteFiles) {
      const version = object.key.split('/').slice(0, 3).join('/');
      if (this.direction === 'to-objects') {
        files.push({ key: object.key, source: object });
        if (!publishedVersions.has(version)) {
          publishedVersions.add(version);
          markers.push({ key: `${version}/${PUBLISHED}`, source: null });
        }
      } else if (publishedVersions.has(version)) {
        files.push({ key: object.key, source: object });
      }
    }
    files.sort((a, b) => a.key.localeCompare(b.key));
    return [...files, ...markers];
  }

  async run(dryRun: boolean, progress: (done: number, total: number) => void = () => undefined) {
    const plan = await this.plan();
    const summary: MigrationSummary = {
      objects: plan.length,
      copied: 0,
      skipped: 0,
      bytes: 0,
      failed: [],
    };
    progress(0, plan.length);
    for (const [index, item] of plan.entries()) {
      if (item.source === null) {
        if ((await this.to.head(item.key)) !== null) {
          summary.skipped += 1;
        } else {
          if (!dryRun) await this.to.put(item.key, Buffer.alloc(0));
          summary.copied += 1;
        }
      } else {
        await this.copy(item.key, dryRun, summary);
      }
      progress(index + 1, plan.length);
    }
    return summary;
  }

  private async copy(key: string, dryRun: boolean, summary: MigrationSummary): Promise<void> {
    const source = await this.from.get(key);
    if (source === null) {
      // Deleted since it was listed: nothing to copy.
      summary.objects -= 1;
      return;
    }
    const body = await source.buffer();
    const hash = sha256(body);
    const present = await this.to.head(key);
    if (present !== null && present.size === body.length) {
      const existing = await this.to.get(key);
      if (existing !== null && sha256(await existing.buffer()) === hash) {
        summary.skipped += 1;
        return;
      }
    }
    summary.bytes += body.length;
    summary.copied += 1;
    if (dryRun) {
      return;
    }
    await this.to.put(key, body);
    const copy = await this.to.get(key);
    const copied = copy === null ? null : await copy.buffer();
    if (copied === null || copied.length !== body.length || sha256(copied) !== hash) {
      summary.failed.push(key);
    }
  }
}

function sha256(body: Buffer): string {
  return createHash('sha256').update(body).digest('hex');
}
