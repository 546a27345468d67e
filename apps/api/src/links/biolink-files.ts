import { createHash, randomBytes } from 'node:crypto';
import { readFile } from 'node:fs/promises';
import { Inject, Injectable } from '@nestjs/common';
import { ImageFormats, ImageIntake } from '@app/common';
import { APP_CONFIG, type AppConfig } from '@app/config';
import { BIOLINK_UPLOADS_PATH } from '@app/database';
import { ObjectStore } from '@app/storage';

/** Avatars and image blocks are at most this many bytes (and pixels as `ImageIntake` allows). */
export const MAX_BIOLINK_IMAGE_BYTES = 2 * 1024 * 1024;
const FORMATS: ImageFormats = {
  accepted: new Set(['png', 'jpeg', 'webp', 'gif', 'svg']),
  described: 'a PNG, JPEG, WebP, GIF or SVG image',
};
const STORED_NAME = /^[0-9a-f]{40}\.png$/;

/**
 * Images of bio pages (avatars, image blocks) in the object store under `uploads/biolinks/` (on
 * the local disk, `${DATA_DIR}/uploads/biolinks`), served at that path or from
 * STORAGE_PUBLIC_URL, re-encoded as PNG: as splash-page images are (splash-pages/splash-files.ts).
 */
@Injectable()
export class BiolinkFiles {
  /** Where uploads are linked from: STORAGE_PUBLIC_URL, else the app. */
  readonly uploadsBase: string;

  constructor(
    @Inject(APP_CONFIG) config: AppConfig,
    private readonly objects: ObjectStore,
    private readonly images: ImageIntake,
  ) {
    this.uploadsBase = config.storage.publicUrl ?? config.appUrl;
  }

  url(name: string | null): string | null {
    return name === null ? null : `${this.uploadsBase}/${BIOLINK_UPLOADS_PATH}/${name}`;
  }

  /** Reads an upload (in memory or in a temporary file), checks it by content, stores it. */
  async store(
    field: string,
    side: number,
    file: { buffer: Buffer } | { path: string },
  ): Promise<string> {
    const buffer = 'buffer' in file ? file.buffer : await readFile(file.path);
    return this.write(await this.images.normalize(field, buffer, FORMATS, side));
  }

  /** A new name per write (content hash and salt): two pages never share a file. */
  private async write(content: Buffer): Promise<string> {
    const hash = createHash('sha256').update(content).update(randomBytes(16)).digest('hex');
    const name = `${hash.slice(0, 40)}.png`;
    await this.objects.put(`${BIOLINK_UPLOADS_PATH}/${name}`, content, {
      contentType: 'image/png',
    });
    return name;
  }

  async remove(names: Array<string | null | undefined>): Promise<void> {
    const keys = names
      .filter((n): n is string => typeof n === 'string' && STORED_NAME.test(n))
      .map((n) => `${BIOLINK_UPLOADS_PATH}/${n}`);
    if (keys.length > 0) {
      await this.objects.delete(keys);
    }
  }
}
