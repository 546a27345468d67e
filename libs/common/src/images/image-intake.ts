import sharp from 'sharp';
import { AppError } from '../errors/app-error';
import { checkImageHeader, ImageFormats, MAX_IMAGE_PIXELS } from './image-limits';
import { ImageQueue } from './image-queue';

/**
 * The one way an uploaded image comes in (avatars, image blocks, splash-page images, QR images):
 * its header checked before anything is decoded, then re-encoded as a PNG that fits `side`, all of
 * it through the image queue. SVG is rasterized, so no script of an upload reaches a browser.
 */
export class ImageIntake {
  constructor(private readonly queue: ImageQueue) {
    // One libvips worker per pipeline: with the queue's one pipeline at a time on a 2-core box,
    // a core stays free for the event loop (libvips' default is one thread per core).
    sharp.concurrency(1);
  }

  normalize(field: string, buffer: Buffer, formats: ImageFormats, side: number): Promise<Buffer> {
    return this.reencode(field, buffer, formats, (image) =>
      image.resize(side, side, { fit: 'inside', withoutEnlargement: true }).png().toBuffer(),
    );
  }

  /**
   * The upload checked like `normalize`, then cropped to exactly `width` x `height` (cover, from
   * the centre) and encoded as a JPEG: the shape chat apps and social sites show a preview in.
   */
  cover(
    field: string,
    buffer: Buffer,
    formats: ImageFormats,
    width: number,
    height: number,
  ): Promise<Buffer> {
    return this.reencode(field, buffer, formats, (image) =>
      image
        .resize(width, height, { fit: 'cover', position: 'centre' })
        .flatten({ background: '#ffffff' })
        .jpeg({ quality: 85, mozjpeg: true })
        .toBuffer(),
    );
  }

  /**
   * Through the queue: the header checked before anything is decoded, the image turned upright,
   * then `encode`; anything sharp cannot read is a 400 naming the field and the formats taken.
   */
  private reencode(
    field: string,
    buffer: Buffer,
    formats: ImageFormats,
    encode: (image: sharp.Sharp) => Promise<Buffer>,
  ): Promise<Buffer> {
    return this.queue.run(async () => {
      try {
        const image = sharp(buffer, { limitInputPixels: MAX_IMAGE_PIXELS, density: 144 });
        checkImageHeader(field, await image.metadata(), formats);
        return await encode(image.rotate());
      } catch (e) {
        throw e instanceof AppError
          ? e
          : new AppError('validation_failed', `${field} must be ${formats.described}.`, field);
      }
    });
  }
}
