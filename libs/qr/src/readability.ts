import { readFileSync } from 'node:fs';
import jsQR from 'jsqr';
import sharp from 'sharp';
import { prepareZXingModule, readBarcodes } from 'zxing-wasm/reader';
import { RgbaImage } from './render/options';

let zxingReady: Promise<unknown> | null = null;

/** zxing-wasm fetches its .wasm from a CDN unless it is handed the binary: load it from node_modules. */
function zxing(): Promise<unknown> {
  zxingReady ??= (async () => {
    const bytes = readFileSync(require.resolve('zxing-wasm/reader/zxing_reader.wasm'));
    const wasmBinary = bytes.buffer.slice(bytes.byteOffset, bytes.byteOffset + bytes.byteLength);
    return prepareZXingModule({ overrides: { wasmBinary }, fireImmediately: true });
  })();
  return zxingReady;
}

export interface DecodeResults {
  zxing: string | null;
  jsqr: string | null;
}

const LITTLE_ENDIAN = new Uint8Array(new Uint16Array([1]).buffer)[0] === 1;

/**
 * Averages k×k blocks and composites transparency onto white, as a code printed on paper is seen.
 * The decoders' time grows with the pixel count, and a code that reads at about four pixels per
 * module reads at any larger scale too.
 */
function grey(
  img: RgbaImage,
  k: number,
): { data: Uint8ClampedArray; width: number; height: number } {
  const { width } = img;
  let data = img.data;
  const w = Math.floor(img.width / k);
  const h = Math.floor(img.height / k);
  const out = new Uint8ClampedArray(w * h * 4);
  const area = k * k;
  if (!LITTLE_ENDIAN) {
    return greyBytes(img, k, w, h, out);
  }
  if (data.byteOffset % 4 !== 0) {
    data = new Uint8Array(data);
  }
  // One 32-bit read per pixel (R in the low byte); the sums of each output row's k source rows
  // are accumulated per column, reading the source in order.
  const px = new Uint32Array(data.buffer, data.byteOffset, data.length >> 2);
  const acc = new Float64Array(w * 3);
  for (let y = 0; y < h; y++) {
    acc.fill(0);
    for (let dy = 0; dy < k; dy++) {
      let p = (y * k + dy) * width;
      for (let x = 0, j = 0; x < w; x++, j += 3) {
        let r = 0;
        let g = 0;
        let b = 0;
        for (let dx = 0; dx < k; dx++, p++) {
          const v = px[p];
          const a = v >>> 24;
          if (a === 255) {
            r += v & 255;
            g += (v >>> 8) & 255;
            b += (v >>> 16) & 255;
          } else {
            const white = 255 - a;
            r += ((v & 255) * a) / 255 + white;
            g += (((v >>> 8) & 255) * a) / 255 + white;
            b += (((v >>> 16) & 255) * a) / 255 + white;
          }
        }
        acc[j] += r;
        acc[j + 1] += g;
        acc[j + 2] += b;
      }
    }
    for (let x = 0, j = 0, o = y * w * 4; x < w; x++, j += 3, o += 4) {
      out[o] = acc[j] / area;
      out[o + 1] = acc[j + 1] / area;
      out[o + 2] = acc[j + 2] / area;
      out[o + 3] = 255;
    }
  }
  return { data: out, width: w, height: h };
}

/** grey() one byte at a time, for big-endian machines. */
function greyBytes(
  img: RgbaImage,
  k: number,
  w: number,
  h: number,
  out: Uint8ClampedArray,
): { data: Uint8ClampedArray; width: number; height: number } {
  const { width, data } = img;
  const area = k * k;
  for (let y = 0; y < h; y++) {
    for (let x = 0; x < w; x++) {
      let r = 0;
      let g = 0;
      let b = 0;
      for (let dy = 0; dy < k; dy++) {
        let i = ((y * k + dy) * width + x * k) * 4;
        for (let dx = 0; dx < k; dx++, i += 4) {
          const a = data[i + 3];
          if (a === 255) {
            r += data[i];
            g += data[i + 1];
            b += data[i + 2];
          } else {
            const white = 255 - a;
            r += (data[i] * a) / 255 + white;
            g += (data[i + 1] * a) / 255 + white;
            b += (data[i + 2] * a) / 255 + white;
          }
        }
      }
      const o = (y * w + x) * 4;
      out[o] = r / area;
      out[o + 1] = g / area;
      out[o + 2] = b / area;
      out[o + 3] = 255;
    }
  }
  return { data: out, width: w, height: h };
}

/** Scales tried, in pixels per module: a phone sees a code at a few pixels per module. */
const SCALES = [4, 2.5];

/** Whole-pixel reduction factors for the scales, then the image as rendered. */
function factors(modulePixels: number): number[] {
  const ks = SCALES.map((s) => Math.max(1, Math.round(modulePixels / s)));
  return [...new Set([...ks, 1])];
}

type Grey = { data: Uint8ClampedArray; width: number; height: number };

/** Resamples to a scale that is not a whole fraction of the rendered size (libvips, cubic). */
async function resampled(img: RgbaImage, factor: number): Promise<Grey> {
  const flat = grey(img, 1);
  const { data, info } = await sharp(flat.data, {
    raw: { width: flat.width, height: flat.height, channels: 4 },
  })
    .resize(Math.max(21, Math.round(flat.width * factor)), null, { kernel: 'cubic' })
    .ensureAlpha()
    .raw()
    .toBuffer({ resolveWithObject: true });
  return {
    data: new Uint8ClampedArray(data.buffer, data.byteOffset, data.length),
    width: info.width,
    height: info.height,
  };
}

/**
 * A camera sees a code at any scale, and jsQR in particular reads a code at one scale and misses
 * it at the next (one grid cell read at 4.5, 4 and 3 px per module but not at 5 or 3.5). So each
 * decoder that has found nothing yet tries more scales, resampled: a code counts as read when a
 * decoder returns its text at one of these common camera scales.
 */
const FALLBACK_SCALES = [4.5, 3.5, 3];

async function read(small: Grey, result: DecodeResults): Promise<void> {
  if (result.zxing === null) {
    const image = { ...small, colorSpace: 'srgb' as const };
    const found = await readBarcodes(image as ImageData, {
      formats: ['QRCode'],
      tryInvert: false,
      maxNumberOfSymbols: 1,
    });
    result.zxing = found.find((r) => r.isValid)?.text ?? null;
  }
  if (result.jsqr === null) {
    const found = jsQR(small.data, small.width, small.height, { inversionAttempts: 'dontInvert' });
    result.jsqr = found ? found.data : null;
  }
}

/**
 * Reads the image with two independent decoders (zxing-wasm and jsQR), each first on a copy
 * reduced to about four pixels per module, then, if it found nothing there, to about two and a
 * half, then as rendered, then resampled to the fallback scales. A decoder's answer is the first
 * string it reads; a wrong string is kept, not retried.
 */
export async function decodeBoth(img: RgbaImage, modulePixels = 0): Promise<DecodeResults> {
  await zxing();
  const result: DecodeResults = { zxing: null, jsqr: null };
  const done = (): boolean => result.zxing !== null && result.jsqr !== null;
  for (const k of factors(modulePixels)) {
    if (done()) {
      return result;
    }
    await read(grey(img, k), result);
  }
  for (const scale of modulePixels > 0 ? FALLBACK_SCALES : []) {
    if (done()) {
      break;
    }
    if (scale < modulePixels) {
      await read(await resampled(img, scale / modulePixels), result);
    }
  }
  return result;
}

/** Readable means both decoders return exactly the embedded string. */
export async function isReadable(
  img: RgbaImage,
  expected: string,
  modulePixels = 0,
): Promise<boolean> {
  const r = await decodeBoth(img, modulePixels);
  return r.zxing === expected && r.jsqr === expected;
}
