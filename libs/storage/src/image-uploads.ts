import { createHash, randomBytes } from 'node:crypto';
import { type ImageFormats, ImageIntake } from '@app/common';
import { ObjectStore } from './object-store';

/** Stored names: 40 hex digits of a salted content hash and the extension. */
const STORED_NAME = /^[0-9a-f]{40}\.(png|svg|jpg)$/;

/**
 * One kind of uploaded image in the object store under its own prefix (`uploads/<kind>`): checked
 * by content and re-encoded through `ImageIntake` (SVG rasterized, so no script of an upload
 * reaches a browser), stored under a new name per write (content hash and salt: objects are
 * immutable and two owners never share a file), linked from STORAGE_PUBLIC_URL or the app.
 * `BiolinkFiles`, `SplashFiles` and `QrFiles` each hold one.
 */
export class ImageUploads {
  private readonly base: string;

  constructor(
    private readonly objects: ObjectStore,
    private readonly images: ImageIntake,
    /** STORAGE_PUBLIC_URL, else APP_URL. */
    uploadsBase: string,
    readonly prefix: string,
    private readonly formats: ImageFormats,
  ) {
    this.base = `${uploadsBase}/${prefix}`;
  }

  url(name: string | null): string | null {
    return name === null ? null : `${this.base}/${name}`;
  }

  /** The upload checked by its content and re-encoded as a PNG whose larger side is at most `side`. */
  normalize(field: string, content: Buffer, side: number): Promise<Buffer> {
    return this.images.normalize(field, content, this.formats, side);
  }

  /** Normalizes and writes an upload; returns its stored name. */
  async store(field: string, content: Buffer, side: number): Promise<string> {
    return this.write(await this.normalize(field, content, side));
  }

  /**
   * Checks an upload by its content, crops it to `width` x `height` (cover) as a JPEG and writes
   * it; returns its stored name (link previews: 1200 x 630).
   */
  async storeCover(field: string, content: Buffer, width: number, height: number): Promise<string> {
    return this.write(await this.images.cover(field, content, this.formats, width, height), 'jpg');
  }

  /** Writes a file under a new name (salted content hash) and returns the name. */
  async write(content: Buffer | string, extension: 'png' | 'svg' | 'jpg' = 'png'): Promise<string> {
    const name = `${saltedHash(content)}.${extension}`;
    await this.put(name, content);
    return name;
  }

  /** Writes `name` (a name `write` or `saltedHash` made) as it is. */
  async put(name: string, content: Buffer | string): Promise<void> {
    await this.objects.put(
      this.key(name),
      typeof content === 'string' ? Buffer.from(content) : content,
      {
        contentType: name.endsWith('.svg')
          ? 'image/svg+xml'
          : name.endsWith('.jpg')
            ? 'image/jpeg'
            : 'image/png',
      },
    );
  }

  /** The stored file, or null when it is not there (any other read failure is thrown). */
  async readIfExists(name: string): Promise<Buffer | null> {
    const object = await this.objects.get(this.key(name));
    return object === null ? null : object.buffer();
  }

  /** Deletes the named files; anything that is not a stored name is ignored. */
  async remove(names: Array<string | null | undefined>): Promise<void> {
    const keys = names
      .filter((n): n is string => typeof n === 'string' && STORED_NAME.test(n))
      .map((n) => this.key(n));
    if (keys.length > 0) {
      await this.objects.delete(keys);
    }
  }

  private key(name: string): string {
    return `${this.prefix}/${name}`;
  }
}

/** 40 hex digits of the content's SHA-256 with a random salt: a new name for every write. */
export function saltedHash(content: Buffer | string): string {
  return createHash('sha256').update(content).update(randomBytes(16)).digest('hex').slice(0, 40);
}
