import type { Readable } from 'node:stream';

/**
 * A flat store of objects named by `/`-separated keys: the local disk or an S3 bucket. Everything
 * Linkdock stores (static sites, QR images, splash images, future uploads) goes through one.
 * Keys are checked by every implementation (`objectKeySegments`); a bad key is an
 * InvalidObjectKeyError, never resolved.
 */
export abstract class ObjectStore {
  /** Stores `body` at `key` (replacing what was there); returns its size. */
  abstract put(key: string, body: Buffer | Readable, options?: PutOptions): Promise<number>;
  /** The object at `key`, or null when there is none. */
  abstract get(key: string): Promise<StoredObject | null>;
  /** Size and modification time of the object at `key`, or null. */
  abstract head(key: string): Promise<ObjectInfo | null>;
  /** Removes the objects; missing ones are ignored. */
  abstract delete(keys: string[]): Promise<void>;
  /** Every object whose key starts with `prefix`, in no promised order. */
  abstract list(prefix: string): AsyncIterable<ObjectInfo>;
  /** True when at least one key starts with `prefix`. */
  async hasPrefix(prefix: string): Promise<boolean> {
    for await (const _ of this.list(prefix)) {
      return true;
    }
    return false;
  }
  /** Releases connections; the store is not used afterwards. */
  close(): Promise<void> {
    return Promise.resolve();
  }
}

export interface PutOptions {
  contentType?: string;
  /** Rejects with ObjectTooLargeError (and stores nothing) past this many bytes. */
  maxBytes?: number;
}

export interface ObjectInfo {
  key: string;
  size: number;
  modified: Date;
}

/** An object opened for reading. `stream()` may be called once. */
export interface StoredObject extends ObjectInfo {
  /** The whole object, or the bytes from `start` to `end` inclusive. */
  stream(range?: { start: number; end: number }): Readable;
  /** The whole object in memory. */
  buffer(): Promise<Buffer>;
}

export class InvalidObjectKeyError extends Error {
  constructor(key: string) {
    super(`Not an acceptable object key: ${JSON.stringify(key)}`);
    this.name = 'InvalidObjectKeyError';
  }
}

export class ObjectTooLargeError extends Error {
  constructor() {
    super('The object is larger than allowed');
    this.name = 'ObjectTooLargeError';
  }
}

const KEY_MAX = 1024;

/** The segments of a key, or null: no empty, `.` or `..` segment, no backslash, no control character. */
export function objectKeySegments(key: string): string[] | null {
  if (key.length === 0 || Buffer.byteLength(key) > KEY_MAX) return null;
  const segments = key.split('/');
  for (const segment of segments) {
    if (segment === '' || segment === '.' || segment === '..' || segment.includes('\\')) {
      return null;
    }
    for (let i = 0; i < segment.length; i += 1) {
      const code = segment.charCodeAt(i);
      if (code < 0x20 || code === 0x7f) return null;
    }
  }
  return segments;
}

export function checkObjectKey(key: string): string {
  if (objectKeySegments(key) === null) {
    throw new InvalidObjectKeyError(key);
  }
  return key;
}

/** A prefix is a key, or a key followed by `/`, or empty (everything). */
export function checkObjectPrefix(prefix: string): string {
  if (prefix !== '') checkObjectKey(prefix.endsWith('/') ? prefix.slice(0, -1) : prefix);
  return prefix;
}
