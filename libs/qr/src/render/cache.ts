import { createHash } from 'node:crypto';

/**
 * A small least-recently-used map for parts of a render that do not depend on the encoded content
 * (a logo decoded and sized, the frame text's outlines and pixels). Whole renders are never cached.
 */
export class Lru<V> {
  private readonly map = new Map<string, V>();

  constructor(private readonly max: number) {}

  get(key: string): V | undefined {
    const v = this.map.get(key);
    if (v !== undefined) {
      this.map.delete(key);
      this.map.set(key, v);
    }
    return v;
  }

  set(key: string, value: V): void {
    this.map.delete(key);
    this.map.set(key, value);
    if (this.map.size > this.max) {
      this.map.delete(this.map.keys().next().value as string);
    }
  }

  delete(key: string): void {
    this.map.delete(key);
  }

  clear(): void {
    this.map.clear();
  }
}

const all: Array<Lru<unknown>> = [];

/** A bounded cache that clearRenderCaches() empties. */
export function lru<V>(max: number): Lru<V> {
  const c = new Lru<V>(max);
  all.push(c);
  return c;
}

/** Empties every content-independent cache of the renderer (for cold timings and tests). */
export function clearRenderCaches(): void {
  all.forEach((c) => c.clear());
}

/** A key for the bytes of an image. */
export function digest(bytes: Buffer): string {
  return createHash('sha1').update(bytes).digest('base64');
}
