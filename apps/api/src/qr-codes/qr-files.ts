import { createHash, randomBytes } from 'node:crypto';
import { Inject, Injectable } from '@nestjs/common';
import { ImageFormats, ImageIntake, UploadedFile } from '@app/common';
import { APP_CONFIG, type AppConfig } from '@app/config';
import { ObjectStore } from '@app/storage';

/** Uploads are at most this many bytes (and as many pixels as `ImageIntake` lets through). */
export const MAX_IMAGE_BYTES = 2 * 1024 * 1024;
/** Stored images are scaled down to fit this square: a logo never needs more. */
const MAX_STORED_SIDE = 1024;
const FORMATS: ImageFormats = {
  accepted: new Set(['png', 'jpeg', 'webp', 'svg']),
  described: 'a PNG, JPEG, WebP or SVG image',
};

export const QR_UPLOAD_DIR = 'uploads/qr-codes';

/**
 * Files of QR codes in the object store under `uploads/qr-codes/` (on the local disk,
 * `${DATA_DIR}/uploads/qr-codes`), served at `/uploads/qr-codes/` or from STORAGE_PUBLIC_URL.
 */
@Injectable()
export class QrFiles {
  private readonly base: string;

  constructor(
    @Inject(APP_CONFIG) config: AppConfig,
    private readonly store: ObjectStore,
    private readonly images: ImageIntake,
  ) {
    this.base = `${config.storage.publicUrl ?? config.appUrl}/${QR_UPLOAD_DIR}`;
  }

  url(name: string | null): string | null {
    return name === null ? null : `${this.base}/${name}`;
  }

  /**
   * Checks an upload by its content (not its name or declared type) and stores it as PNG. SVG is
   * rasterized here and only the PNG is kept: no script, event handler, external reference or
   * foreignObject of an upload can ever reach a browser. librsvg reads no external file when it
   * gets the SVG as a buffer.
   */
  normalizeImage(file: UploadedFile): Promise<Buffer> {
    return this.images.normalize(file.field, file.buffer, FORMATS, MAX_STORED_SIDE);
  }

  /** The stored file, or null when it is not there (any other read failure is thrown). */
  async readIfExists(name: string): Promise<Buffer | null> {
    const object = await this.store.get(this.key(name));
    return object === null ? null : object.buffer();
  }

  /**
   * Writes a file named by a hash of its content and a per-write salt: every render gets a new URL
   * (no cache shows a stale code) and two codes never share a file, so deleting one is safe.
   */
  async write(content: Buffer | string, extension: string): Promise<string> {
    const hash = createHash('sha256').update(content).update(randomBytes(16)).digest('hex');
    const name = `${hash.slice(0, 40)}.${extension}`;
    await this.store.put(this.key(name), Buffer.from(content), {
      contentType: contentTypeOf(name),
    });
    return name;
  }

  /** Writes the rendered code as `<hash>.svg` and `<hash>.png`; returns the SVG's name. */
  async writeRendered(svg: string, png: Buffer): Promise<string> {
    const hash = createHash('sha256')
      .update(svg)
      .update(randomBytes(16))
      .digest('hex')
      .slice(0, 40);
    await this.store.put(this.key(`${hash}.svg`), Buffer.from(svg), {
      contentType: 'image/svg+xml',
    });
    try {
      await this.store.put(this.key(`${hash}.png`), png, { contentType: 'image/png' });
    } catch (e) {
      await this.remove([`${hash}.svg`]);
      throw e;
    }
    return `${hash}.svg`;
  }

  /** The names of every file that belongs to a rendered code (its SVG and its PNG twin). */
  renderedFiles(svgName: string): string[] {
    return [svgName, svgName.replace(/\.svg$/, '.png')];
  }

  async remove(names: Array<string | null>): Promise<void> {
    await this.store.delete(
      names
        .filter((n): n is string => n !== null && /^[0-9a-f]{40}\.(svg|png)$/.test(n))
        .map((n) => this.key(n)),
    );
  }

  private key(name: string): string {
    return `${QR_UPLOAD_DIR}/${name}`;
  }
}

function contentTypeOf(name: string): string {
  return name.endsWith('.svg') ? 'image/svg+xml' : 'image/png';
}
