import type { Metadata } from 'sharp';
import { AppError } from '../errors/app-error';

/** Neither side of an uploaded image may pass this, whatever its area. */
export const MAX_IMAGE_SIDE = 4096;
/** Nor may its area: sharp's `limitInputPixels` enforces the same number while it decodes. */
export const MAX_IMAGE_PIXELS = MAX_IMAGE_SIDE * MAX_IMAGE_SIDE;

/** The formats an image field accepts, and how its error title names them. */
export interface ImageFormats {
  accepted: ReadonlySet<string>;
  /** e.g. `a PNG, JPEG, WebP or SVG image` */
  described: string;
}

/**
 * Checks what an image's header says before any pixel is decoded: its format, each side and its
 * area. A 1 × 16,000,000 PNG is 31 KB and within the area, yet took 3-9 s of a thread to decode.
 */
export function checkImageHeader(field: string, meta: Metadata, formats: ImageFormats): void {
  if (!meta.format || !formats.accepted.has(meta.format)) {
    throw new AppError('validation_failed', `${field} must be ${formats.described}.`, field);
  }
  const { width, height } = meta;
  if (!width || !height) {
    throw new AppError('validation_failed', `${field} must be ${formats.described}.`, field);
  }
  if (width > MAX_IMAGE_SIDE || height > MAX_IMAGE_SIDE) {
    throw new AppError(
      'validation_failed',
      `${field} is ${width} × ${height} pixels; each side may be at most ${MAX_IMAGE_SIDE} pixels.`,
      field,
    );
  }
}
