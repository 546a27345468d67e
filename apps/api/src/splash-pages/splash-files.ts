import { createHash, randomBytes } from 'node:crypto';
import { Inject, Injectable } from '@nestjs/common';
import { ImageFormats, ImageIntake, UploadedFile } from '@app/common';
import { APP_CONFIG, type AppConfig } from '@app/config';
import { SPLASH_UPLOADS_PATH } from '@app/database';
import { ObjectStore } from '@app/storage';

/** The image fields of a splash page, each with the largest side it is stored at. */
export const SPLASH_IMAGES = { logo: 512, favicon: 128, opengraph: 1200 } as const;
export type SplashImage = keyof typeof SPLASH_IMAGES;
export const SPLASH_IMAGE_FIELDS = Object.keys(SPLASH_IMAGES) as SplashImage[];

/** Uploads are at most this many bytes (and as many pixels as `ImageIntake` lets through). */
export const MAX_SPLASH_IMAGE_BYTES = 2 * 1024 * 1024;
const FORMATS: ImageFormats = {
  accepted: new Set(['png', 'jpeg', 'webp', 'gif', 'svg']),
  described: 'a PNG, JPEG, WebP, GIF or SVG image',
};
const STORED_NAME = /^[0-9a-f]{40}\.png$/;

/**
 * Images of splash pages in the object store under `uploads/splash-pages/` (on the local disk,
 * `${DATA_DIR}/uploads/splash-pages`), served at that path or from STORAGE_PUBLIC_URL.
 */
@Injectable()
export class SplashFiles {
  private readonly base: string;

  constructor(
    @Inject(APP_CONFIG) config: AppConfig,
    private readonly store: ObjectStore,
    private readonly images: ImageIntake,
  ) {
    this.base = `${config.storage.publicUrl ?? config.appUrl}/${SPLASH_UPLOADS_PATH}`;
  }

  url(name: string | null): string | null {
    return name === null ? null : `${this.base}/${name}`;
  }

  /**
   * Checks an upload by its content (not its name or declared type) and re-encodes it as a PNG no
   * larger than the field needs. SVG is rasterized, so no script of an upload reaches a browser.
   */
  normalize(field: SplashImage, file: UploadedFile): Promise<Buffer> {
    return this.images.normalize(field, file.buffer, FORMATS, SPLASH_IMAGES[field]);
  }

  /** A new name per write (content hash and salt): two pages never share a file. */
  async write(content: Buffer): Promise<string> {
    const hash = createHash('sha256').update(content).update(randomBytes(16)).digest('hex');
    const name = `${hash.slice(0, 40)}.png`;
    await this.store.put(`${SPLASH_UPLOADS_PATH}/${name}`, content, { contentType: 'image/png' });
    return name;
  }

  async remove(names: Array<string | null>): Promise<void> {
    await this.store.delete(
      names
        .filter((n): n is string => n !== null && STORED_NAME.test(n))
        .map((n) => `${SPLASH_UPLOADS_PATH}/${n}`),
    );
  }
}
