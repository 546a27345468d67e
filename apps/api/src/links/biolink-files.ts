import { createHash, randomBytes } from 'node:crypto';
import { readFile } from 'node:fs/promises';
import { Inject, Injectable } from '@nestjs/common';
import sharp from 'sharp';
import { AppError } from '@app/common';
import { APP_CONFIG, type AppConfig } from '@app/config';
import { BIOLINK_UPLOADS_PATH } from '@app/database';
import { ObjectStore } from '@app/storage';

/** Avatars and image blocks are at most this big, in bytes and in pixels. */
export const MAX_BIOLINK_IMAGE_BYTES = 2 * 1024 * 1024;
const MAX_INPUT_PIXELS = 4096 * 4096;
const ACCEPTED = new Set(['png', 'jpeg', 'webp', 'gif', 'svg']);
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
    return this.write(await normalize(field, side, buffer));
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

/** An image re-encoded as a PNG no larger than `side`; SVG is rasterized (no script survives). */
async function normalize(field: string, side: number, buffer: Buffer): Promise<Buffer> {
  const bad = (): AppError =>
    new AppError(
      'validation_failed',
      `${field} must be a PNG, JPEG, WebP, GIF or SVG image.`,
      field,
    );
  try {
    const image = sharp(buffer, { limitInputPixels: MAX_INPUT_PIXELS, density: 144 });
    const meta = await image.metadata();
    if (!meta.format || !ACCEPTED.has(meta.format)) {
      throw bad();
    }
    return await image
      .rotate()
      .resize(side, side, { fit: 'inside', withoutEnlargement: true })
      .png()
      .toBuffer();
  } catch (e) {
    throw e instanceof AppError ? e : bad();
  }
}
