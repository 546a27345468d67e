import { Inject, Injectable } from '@nestjs/common';
import { ImageIntake, UploadedFile } from '@app/common';
import { APP_CONFIG, type AppConfig } from '@app/config';
import { ImageUploads, ObjectStore, saltedHash } from '@app/storage';

/** Uploads are at most this many bytes (and as many pixels as `ImageIntake` lets through). */
export const MAX_IMAGE_BYTES = 2 * 1024 * 1024;
/** Stored images are scaled down to fit this square: a logo never needs more. */
const MAX_STORED_SIDE = 1024;

export const QR_UPLOAD_DIR = 'uploads/qr-codes';

/**
 * Files of QR codes in the object store under `uploads/qr-codes/` (on the local disk,
 * `${DATA_DIR}/uploads/qr-codes`), served at `/uploads/qr-codes/` or from STORAGE_PUBLIC_URL:
 * uploaded images through the one image-upload store (`ImageUploads`), and the rendered codes.
 */
@Injectable()
export class QrFiles {
  private readonly uploads: ImageUploads;

  constructor(@Inject(APP_CONFIG) config: AppConfig, objects: ObjectStore, images: ImageIntake) {
    const base = config.storage.publicUrl ?? config.appUrl;
    this.uploads = new ImageUploads(objects, images, base, QR_UPLOAD_DIR, {
      accepted: new Set(['png', 'jpeg', 'webp', 'svg']),
      described: 'a PNG, JPEG, WebP or SVG image',
    });
  }

  url(name: string | null): string | null {
    return this.uploads.url(name);
  }

  /**
   * Checks an upload by its content (not its name or declared type) and stores it as PNG. SVG is
   * rasterized here and only the PNG is kept: no script, event handler, external reference or
   * foreignObject of an upload can ever reach a browser. librsvg reads no external file when it
   * gets the SVG as a buffer.
   */
  normalizeImage(file: UploadedFile): Promise<Buffer> {
    return this.uploads.normalize(file.field, file.buffer, MAX_STORED_SIDE);
  }

  /** The stored file, or null when it is not there (any other read failure is thrown). */
  readIfExists(name: string): Promise<Buffer | null> {
    return this.uploads.readIfExists(name);
  }

  /**
   * Writes a file named by a hash of its content and a per-write salt: every render gets a new URL
   * (no cache shows a stale code) and two codes never share a file, so deleting one is safe.
   */
  write(content: Buffer | string, extension: 'png' | 'svg'): Promise<string> {
    return this.uploads.write(content, extension);
  }

  /** Writes the rendered code as `<hash>.svg` and `<hash>.png`; returns the SVG's name. */
  async writeRendered(svg: string, png: Buffer): Promise<string> {
    const hash = saltedHash(svg);
    await this.uploads.put(`${hash}.svg`, svg);
    try {
      await this.uploads.put(`${hash}.png`, png);
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

  remove(names: Array<string | null>): Promise<void> {
    return this.uploads.remove(names);
  }
}
