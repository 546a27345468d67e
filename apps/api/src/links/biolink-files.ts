import { readFile } from 'node:fs/promises';
import { Inject, Injectable } from '@nestjs/common';
import { ImageIntake } from '@app/common';
import { APP_CONFIG, type AppConfig } from '@app/config';
import { BIOLINK_UPLOADS_PATH, PREVIEW_UPLOADS_PATH } from '@app/database';
import { ImageUploads, ObjectStore } from '@app/storage';

/** Avatars and image blocks are at most this many bytes (and pixels as `ImageIntake` allows). */
export const MAX_BIOLINK_IMAGE_BYTES = 2 * 1024 * 1024;

/** A link-preview image upload is at most this many bytes. */
export const MAX_PREVIEW_IMAGE_BYTES = 5 * 1024 * 1024;

/**
 * Images of bio pages (avatars, image blocks) in the object store under `uploads/biolinks/` (on
 * the local disk, `${DATA_DIR}/uploads/biolinks`), served at that path or from
 * STORAGE_PUBLIC_URL, re-encoded as PNG by the one image-upload store (`ImageUploads`).
 */
@Injectable()
export class BiolinkFiles {
  /** Where uploads are linked from: STORAGE_PUBLIC_URL, else the app. */
  readonly uploadsBase: string;
  private readonly uploads: ImageUploads;
  /** Link-preview images under `uploads/previews/`, 1200x630 JPEGs. */
  private readonly previews: ImageUploads;

  constructor(@Inject(APP_CONFIG) config: AppConfig, objects: ObjectStore, images: ImageIntake) {
    this.uploadsBase = config.storage.publicUrl ?? config.appUrl;
    this.uploads = new ImageUploads(objects, images, this.uploadsBase, BIOLINK_UPLOADS_PATH, {
      accepted: new Set(['png', 'jpeg', 'webp', 'gif', 'svg']),
      described: 'a PNG, JPEG, WebP, GIF or SVG image',
    });
    this.previews = new ImageUploads(objects, images, this.uploadsBase, PREVIEW_UPLOADS_PATH, {
      accepted: new Set(['png', 'jpeg', 'webp', 'gif']),
      described: 'a PNG, JPEG, WebP or GIF image',
    });
  }

  /** Stores a link-preview image as a 1200x630 JPEG (cover crop); returns its stored name. */
  async storePreview(file: { buffer: Buffer } | { path: string }): Promise<string> {
    const buffer = 'buffer' in file ? file.buffer : await readFile(file.path);
    return this.previews.storeCover('preview_image', buffer, 1200, 630);
  }

  removePreviews(names: Array<string | null | undefined>): Promise<void> {
    return this.previews.remove(names);
  }

  url(name: string | null): string | null {
    return this.uploads.url(name);
  }

  /** Reads an upload (in memory or in a temporary file), checks it by content, stores it. */
  async store(
    field: string,
    side: number,
    file: { buffer: Buffer } | { path: string },
  ): Promise<string> {
    const buffer = 'buffer' in file ? file.buffer : await readFile(file.path);
    return this.uploads.store(field, buffer, side);
  }

  remove(names: Array<string | null | undefined>): Promise<void> {
    return this.uploads.remove(names);
  }
}
