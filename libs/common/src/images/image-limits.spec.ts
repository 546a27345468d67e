import { crc32, deflateSync } from 'node:zlib';
import sharp from 'sharp';
import { AppError } from '../errors/app-error';
import { checkImageHeader, ImageFormats } from './image-limits';

const FORMATS: ImageFormats = {
  accepted: new Set(['png', 'jpeg']),
  described: 'a PNG or JPEG image',
};

/**
 * A 1-bit greyscale PNG written byte by byte (PNG specification, 3rd edition, §5.2 signature,
 * §5.3 chunks: length, type, data, CRC-32 of type and data; §11.2.1 IHDR: width, height, bit
 * depth 1, colour type 0, compression 0, filter 0, interlace 0). Only the header matters here:
 * its one IDAT holds a single blank scanline whatever the height says.
 */
function pngHeader(width: number, height: number): Buffer {
  const chunk = (type: string, data: Buffer): Buffer => {
    const body = Buffer.concat([Buffer.from(type, 'latin1'), data]);
    const out = Buffer.alloc(body.length + 8);
    out.writeUInt32BE(data.length, 0);
    body.copy(out, 4);
    out.writeUInt32BE(crc32(body), body.length + 4);
    return out;
  };
  const ihdr = Buffer.alloc(13);
  ihdr.writeUInt32BE(width, 0);
  ihdr.writeUInt32BE(height, 4);
  ihdr.set([1, 0, 0, 0, 0], 8);
  return Buffer.concat([
    Buffer.from([137, 80, 78, 71, 13, 10, 26, 10]),
    chunk('IHDR', ihdr),
    chunk('IDAT', deflateSync(Buffer.alloc(1 + Math.ceil(width / 8)))),
    chunk('IEND', Buffer.alloc(0)),
  ]);
}

async function check(image: Buffer): Promise<unknown> {
  try {
    checkImageHeader('avatar', await sharp(image).metadata(), FORMATS);
    return 'accepted';
  } catch (e) {
    return e instanceof AppError ? e.toEntries() : e;
  }
}

const refused = (title: string) => [
  { status: 400, title, field: 'avatar', code: 'validation_failed' },
];

describe(checkImageHeader.name, () => {
  it('accepts an image of 4096 × 4096 pixels', async () => {
    expect(await check(pngHeader(4096, 4096))).toBe('accepted');
  });

  it.each([
    [1, 16_000_000],
    [16_000_000, 1],
    [4097, 1],
    [1, 4097],
  ])('refuses %i × %i pixels from the header, naming the field and the limit', async (w, h) => {
    expect(await check(pngHeader(w, h))).toEqual(
      refused(`avatar is ${w} × ${h} pixels; each side may be at most 4096 pixels.`),
    );
  });

  it('refuses a format the field does not take', async () => {
    const gif = await sharp({ create: { width: 2, height: 2, channels: 3, background: '#000' } })
      .gif()
      .toBuffer();
    expect(await check(gif)).toEqual(refused('avatar must be a PNG or JPEG image.'));
  });
});
