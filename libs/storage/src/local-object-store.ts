import { randomBytes } from 'node:crypto';
import { constants, createReadStream, createWriteStream } from 'node:fs';
import { lstat, mkdir, open, readdir, rename, rm } from 'node:fs/promises';
import { dirname, join, relative, sep } from 'node:path';
import { Readable } from 'node:stream';
import { pipeline } from 'node:stream/promises';
import { byteLimit } from './byte-limit';
import {
  checkObjectKey,
  checkObjectPrefix,
  ObjectInfo,
  ObjectStore,
  objectKeySegments,
  PutOptions,
  StoredObject,
} from './object-store';

/**
 * Objects as files under a root directory (`DATA_DIR`): key `a/b.png` is `<root>/a/b.png`. A put is
 * written to a temporary name and renamed, so a reader never sees half a file. Symbolic links are
 * never followed.
 */
export class LocalObjectStore extends ObjectStore {
  constructor(private readonly root: string) {
    super();
  }

  async put(key: string, body: Buffer | Readable, options: PutOptions = {}): Promise<number> {
    const target = this.path(key);
    await mkdir(dirname(target), { recursive: true });
    const temporary = `${target}.${randomBytes(6).toString('hex')}.part`;
    const limit = byteLimit(options.maxBytes);
    const source = Buffer.isBuffer(body) ? Readable.from([body]) : body;
    try {
      await pipeline(source, limit, createWriteStream(temporary, { flags: 'wx', mode: 0o644 }));
      await rename(temporary, target);
    } catch (error) {
      await rm(temporary, { force: true });
      throw error;
    }
    return limit.bytes;
  }

  async get(key: string): Promise<StoredObject | null> {
    const path = this.path(key);
    const info = await this.head(key);
    if (info === null) {
      return null;
    }
    // Opened only when read (a 304 reads nothing); O_NOFOLLOW refuses a link swapped in meanwhile.
    const flags = constants.O_RDONLY | constants.O_NOFOLLOW;
    return {
      ...info,
      // fs.open takes numeric flags; @types/node types this option as a string only.
      stream: (range) => createReadStream(path, { flags: flags as unknown as string, ...range }),
      buffer: async () => {
        const handle = await open(path, flags);
        try {
          return await handle.readFile();
        } finally {
          await handle.close();
        }
      },
    };
  }

  async head(key: string): Promise<ObjectInfo | null> {
    try {
      const info = await lstat(this.path(key));
      return info.isFile() ? { key, size: info.size, modified: info.mtime } : null;
    } catch (error) {
      if (isMissing(error)) return null;
      throw error;
    }
  }

  async delete(keys: string[]): Promise<void> {
    await Promise.all(keys.map((key) => rm(this.path(key), { force: true })));
  }

  async *list(prefix: string): AsyncIterable<ObjectInfo> {
    checkObjectPrefix(prefix);
    // Walk from the deepest directory the prefix names completely.
    const cut = prefix.lastIndexOf('/');
    const start = cut < 0 ? this.root : join(this.root, ...prefix.slice(0, cut).split('/'));
    yield* this.walk(start, prefix);
  }

  private async *walk(dir: string, prefix: string): AsyncIterable<ObjectInfo> {
    let entries;
    try {
      entries = await readdir(dir, { withFileTypes: true });
    } catch (error) {
      if (isMissing(error)) return;
      throw error;
    }
    for (const entry of entries) {
      const full = join(dir, entry.name);
      const key = relative(this.root, full).split(sep).join('/');
      if (entry.isDirectory()) {
        if (key.startsWith(prefix) || prefix.startsWith(`${key}/`)) yield* this.walk(full, prefix);
      } else if (entry.isFile() && key.startsWith(prefix) && !key.endsWith('.part')) {
        const info = await lstat(full).catch(() => null);
        if (info !== null && objectKeySegments(key) !== null) {
          yield { key, size: info.size, modified: info.mtime };
        }
      }
    }
  }

  private path(key: string): string {
    return join(this.root, ...checkObjectKey(key).split('/'));
  }
}

function isMissing(error: unknown): boolean {
  const code = (error as { code?: string }).code;
  return code === 'ENOENT' || code === 'ENOTDIR';
}
