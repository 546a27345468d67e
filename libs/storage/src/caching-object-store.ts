import { Readable } from 'node:stream';
import { ObjectInfo, ObjectStore, PutOptions, StoredObject } from './object-store';

export interface ObjectCacheStats {
  hits: number;
  misses: number;
  bytes: number;
  entries: number;
}

interface Entry {
  info: ObjectInfo;
  body: Buffer;
}

/**
 * Keeps small objects read through it in memory, bounded by total bytes (least recently used goes
 * first), so a hot file is fetched from a remote store once. Linkdock's stored objects are
 * immutable (every site version and every upload gets a new key), so an entry stays right until
 * its key is deleted; deletes through this store drop it at once, deletes by another instance
 * leave a removed object readable here until it is evicted.
 */
export class CachingObjectStore extends ObjectStore {
  private readonly entries = new Map<string, Entry>();
  private bytes = 0;
  readonly stats = { hits: 0, misses: 0 };

  constructor(
    private readonly inner: ObjectStore,
    private readonly maxBytes: number,
    private readonly maxObjectBytes: number,
  ) {
    super();
  }

  snapshot(): ObjectCacheStats {
    return { ...this.stats, bytes: this.bytes, entries: this.entries.size };
  }

  put(key: string, body: Buffer | Readable, options?: PutOptions): Promise<number> {
    this.drop(key);
    return this.inner.put(key, body, options);
  }

  async get(key: string): Promise<StoredObject | null> {
    const cached = this.entries.get(key);
    if (cached !== undefined) {
      this.stats.hits += 1;
      // Refresh its place in the LRU order.
      this.entries.delete(key);
      this.entries.set(key, cached);
      return fromMemory(cached);
    }
    this.stats.misses += 1;
    const object = await this.inner.get(key);
    if (object === null || object.size > this.maxObjectBytes) {
      return object;
    }
    const entry = {
      info: { key, size: object.size, modified: object.modified },
      body: await object.buffer(),
    };
    this.remember(key, entry);
    return fromMemory(entry);
  }

  head(key: string): Promise<ObjectInfo | null> {
    const cached = this.entries.get(key);
    return cached !== undefined ? Promise.resolve(cached.info) : this.inner.head(key);
  }

  async delete(keys: string[]): Promise<void> {
    keys.forEach((key) => this.drop(key));
    await this.inner.delete(keys);
  }

  list(prefix: string): AsyncIterable<ObjectInfo> {
    return this.inner.list(prefix);
  }

  override close(): Promise<void> {
    this.entries.clear();
    this.bytes = 0;
    return this.inner.close();
  }

  private remember(key: string, entry: Entry): void {
    this.drop(key);
    this.entries.set(key, entry);
    this.bytes += entry.body.length;
    for (const [oldest, old] of this.entries) {
      if (this.bytes <= this.maxBytes) break;
      this.entries.delete(oldest);
      this.bytes -= old.body.length;
    }
  }

  private drop(key: string): void {
    const entry = this.entries.get(key);
    if (entry !== undefined) {
      this.entries.delete(key);
      this.bytes -= entry.body.length;
    }
  }
}

function fromMemory(entry: Entry): StoredObject {
  return {
    ...entry.info,
    stream: (range) =>
      Readable.from([
        range === undefined ? entry.body : entry.body.subarray(range.start, range.end + 1),
      ]),
    buffer: () => Promise.resolve(entry.body),
  };
}
