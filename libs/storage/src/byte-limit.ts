import { Transform } from 'node:stream';
import { ObjectTooLargeError } from './object-store';

/** A pass-through that counts bytes and fails with ObjectTooLargeError past `maxBytes`. */
export function byteLimit(maxBytes?: number): Transform & { bytes: number } {
  const limit = new Transform({
    transform(chunk: Buffer, _encoding, done) {
      limit.bytes += chunk.length;
      if (maxBytes !== undefined && limit.bytes > maxBytes) {
        done(new ObjectTooLargeError());
        return;
      }
      done(null, chunk);
    },
  }) as Transform & { bytes: number };
  limit.bytes = 0;
  return limit;
}
