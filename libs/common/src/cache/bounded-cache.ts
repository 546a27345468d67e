/**
 * A Map that forgets its oldest entry beyond `limit` (first in, first out: cheap, and good enough
 * for caches whose entries are dropped on change anyway).
 */
export class BoundedCache<V, K = string> {
  private readonly map = new Map<K, V>();

  constructor(private readonly limit: number) {}

  get(key: K): V | undefined {
    return this.map.get(key);
  }

  set(key: K, value: V): V {
    if (this.map.size >= this.limit && !this.map.has(key)) {
      const oldest = this.map.keys().next();
      if (!oldest.done) this.map.delete(oldest.value);
    }
    this.map.set(key, value);
    return value;
  }

  delete(key: K): void {
    this.map.delete(key);
  }

  clear(): void {
    this.map.clear();
  }

  keys(): IterableIterator<K> {
    return this.map.keys();
  }
}
