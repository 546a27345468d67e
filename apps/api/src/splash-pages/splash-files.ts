import { Inject, Injectable } from '@nestjs/common';
import { ImageIntake, UploadedFile } from '@app/common';
import { APP_CONFIG, type AppConfig } from '@app/config';
import { SPLASH_UPLOADS_PATH } from '@app/database';
import { ImageUploads, ObjectStore } from '@app/storage';

/** The image fields of a splash page, each with the largest side it is stored at. */
export const SPLASH_IMAGES = { logo: 512, favicon: 128, opengraph: 1200 } as const;
export type SplashImage = keyof typeof SPLASH_IMAGES;
export const SPLASH_IMAGE_FIELDS = Object.keys(SPLASH_IMAGES) as SplashImage[];

/** Uploads are at most this many bytes (and as many pixels as `ImageIntake` lets through). */
export const MAX_SPLASH_IMAGE_BYTES = 2 * 1024 * 1024;

/**
 * Images of splash pages in the object store under `uploads/splash-pages/` (on the local disk,
 * `${DATA_DIR}/uploads/splash-pages`), served at that path or from STORAGE_PUBLIC_URL, through
 * the one image-upload store (`ImageUploads`).
 */
@Injectable()
export class SplashFiles {
  private readonly uploads: ImageUploads;

  constructor(@Inject(APP_CONFIG) config: AppConfig, objects: ObjectStore, images: ImageIntake) {
    const base = config.storage.publicUrl ?? config.appUrl;
    this.uploads = new ImageUploads(objects, images, base, SPLASH_UPLOADS_PATH, {
      accepted: new Set(['png', 'jpeg', 'webp', 'gif', 'svg']),
      described: 'a PNG, JPEG, WebP, GIF or SVG image',
    });
  }

  url(name: string | null): string | null {
    return this.uploads.url(name);
  }

  /**
   * Checks an upload by its content (not its name or declared type) and re-encodes it as a PNG no
   * larger than the field needs. SVG is rasterized, so no script of an upload reaches a browser.
   */
  normalize(field: SplashImage, file: UploadedFile): Promise<Buffer> {
    return this.uploads.normalize(field, file.buffer, SPLASH_IMAGES[field]);
  }

  /** A new name per write (content hash and salt): two pages never share a file. */
  write(content: Buffer): Promise<string> {
    return this.uploads.write(content);
  }

  remove(names: Array<string | null>): Promise<void> {
    return this.uploads.remove(names);
  }
}
