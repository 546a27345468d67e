import { readFileSync } from 'node:fs';
import jsQR from 'jsqr';
import sharp from 'sharp';
import { prepareZXingModule, readBarcodes } from 'zxing-wasm/reader';
import { RgbaImage } from './render/options';
import { zbarRead } from './zbar';

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
  zbar: string | null;
}

const DECODERS = ['zxing', 'jsqr', 'zbar'] as const;

/** Every decoder has an answer (a wrong string is kept, not retried). */
const allAnswered = (r: DecodeResults): boolean => DECODERS.every((d) => r[d] !== null);

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
function resampled(img: RgbaImage, factor: number): Promise<Grey> {
  const flat = grey(img, 1);
  return viaSharp(flat, (s) =>
    s.resize(Math.max(21, Math.round(flat.width * factor)), null, { kernel: 'cubic' }),
  );
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
  if (result.zbar === null) {
    result.zbar = await zbarRead(small);
  }
}

/**
 * Reads the image with three independent decoders (zxing-wasm, jsQR and ZBar), each first on a copy
 * reduced to about four pixels per module, then, if it found nothing there, to about two and a
 * half, then as rendered, then resampled to the fallback scales. A decoder's answer is the first
 * string it reads; a wrong string is kept, not retried.
 */
export async function decodeAll(img: RgbaImage, modulePixels = 0): Promise<DecodeResults> {
  await zxing();
  const result: DecodeResults = { zxing: null, jsqr: null, zbar: null };
  const done = (): boolean => allAnswered(result);
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

/**
 * The copies a phone camera might see besides the straight image: turned by 7° either way, seen at
 * a slant (the far edge 5 % shorter than the near one, as a code held a little tilted), out of
 * focus (a Gaussian blur of a third of a module) and further away (three pixels per module). Each
 * is made from the image at about four pixels per module, then at five, three, six, 4.5 and
 * 3.5 for a decoder that found nothing (the downscaled one at 3, 3.5 and 2.75): a camera sees
 * many frames, and jsQR in particular reads a copy at one scale and misses it at the next. Every
 * copy must be read by both decoders.
 */
export const VARIANTS = ['turned +7°', 'turned −7°', 'slanted', 'blurred', 'downscaled'] as const;
export type Variant = (typeof VARIANTS)[number];

/** How hard each copy is (degrees, far-edge shortening, blur in modules, px/module) and the scales tried. */
export const VARIANT_SETTINGS = {
  turn: 7,
  slant: 0.05,
  blur: 1 / 3,
  /** The downscaled copy: the first scale, then the others for a decoder that found nothing. */
  downscale: [3, 3.5, 2.75],
  /** The scales every other copy is made at, in order, until both decoders have read it. */
  scales: [4, 5, 3, 6, 4.5, 3.5],
};

async function viaSharp(g: Grey, apply: (s: sharp.Sharp) => sharp.Sharp): Promise<Grey> {
  const { data, info } = await apply(
    sharp(g.data, { raw: { width: g.width, height: g.height, channels: 4 } }),
  )
    .ensureAlpha()
    .raw()
    .toBuffer({ resolveWithObject: true });
  return {
    data: new Uint8ClampedArray(data.buffer, data.byteOffset, data.length),
    width: info.width,
    height: info.height,
  };
}

/** Solves the 8 unknowns of the homography that takes each `from` corner to its `to` corner. */
function homography(from: number[][], to: number[][]): number[] {
  const a: number[][] = [];
  for (let i = 0; i < 4; i++) {
    const [x, y] = from[i];
    const [u, v] = to[i];
    a.push([x, y, 1, 0, 0, 0, -u * x, -u * y, u]);
    a.push([0, 0, 0, x, y, 1, -v * x, -v * y, v]);
  }
  for (let c = 0; c < 8; c++) {
    let p = c;
    for (let r = c + 1; r < 8; r++) {
      if (Math.abs(a[r][c]) > Math.abs(a[p][c])) {
        p = r;
      }
    }
    [a[c], a[p]] = [a[p], a[c]];
    for (let r = 0; r < 8; r++) {
      if (r !== c) {
        const f = a[r][c] / a[c][c];
        for (let k = c; k < 9; k++) {
          a[r][k] -= f * a[c][k];
        }
      }
    }
  }
  return a.map((row, i) => row[8] / row[i]);
}

/**
 * The image seen at a slant: the top edge shorter than the bottom one by VARIANT_SETTINGS.slant,
 * drawn by mapping each output pixel back into the image (bilinear), white outside it.
 */
function slanted(g: Grey): Grey {
  const { width: w, height: h } = g;
  const pad = Math.round((w * VARIANT_SETTINGS.slant) / 2);
  const out = new Uint8ClampedArray(w * h * 4).fill(255);
  // Output corners → source corners: the inverse mapping, so each output pixel finds its source.
  const [a, b, c, d, e, f, gg, hh] = homography(
    [
      [pad, 0],
      [w - pad, 0],
      [w, h],
      [0, h],
    ],
    [
      [0, 0],
      [w, 0],
      [w, h],
      [0, h],
    ],
  );
  const src = g.data;
  for (let y = 0; y < h; y++) {
    for (let x = 0; x < w; x++) {
      const z = gg * (x + 0.5) + hh * (y + 0.5) + 1;
      const sx = (a * (x + 0.5) + b * (y + 0.5) + c) / z - 0.5;
      const sy = (d * (x + 0.5) + e * (y + 0.5) + f) / z - 0.5;
      if (sx < 0 || sy < 0 || sx > w - 1 || sy > h - 1) {
        continue;
      }
      const x0 = Math.floor(sx);
      const y0 = Math.floor(sy);
      const x1 = Math.min(w - 1, x0 + 1);
      const y1 = Math.min(h - 1, y0 + 1);
      const fx = sx - x0;
      const fy = sy - y0;
      const o = (y * w + x) * 4;
      // The four neighbours' offsets and weights, computed once for the three channels.
      const i00 = (y0 * w + x0) * 4;
      const i01 = (y0 * w + x1) * 4;
      const i10 = (y1 * w + x0) * 4;
      const i11 = (y1 * w + x1) * 4;
      const gx = 1 - fx;
      const gy = 1 - fy;
      for (let ch = 0; ch < 3; ch++) {
        const top = src[i00 + ch] * gx + src[i01 + ch] * fx;
        const bottom = src[i10 + ch] * gx + src[i11 + ch] * fx;
        out[o + ch] = top * gy + bottom * fy;
      }
    }
  }
  return { data: out, width: w, height: h };
}

function variant(name: Variant, g: Grey, scale: number): Promise<Grey> | Grey {
  const white = { r: 255, g: 255, b: 255, alpha: 1 };
  switch (name) {
    case 'turned +7°':
      return viaSharp(g, (s) => s.rotate(VARIANT_SETTINGS.turn, { background: white }));
    case 'turned −7°':
      return viaSharp(g, (s) => s.rotate(-VARIANT_SETTINGS.turn, { background: white }));
    case 'slanted':
      return slanted(g);
    case 'blurred':
      return viaSharp(g, (s) => s.blur(Math.max(0.3, scale * VARIANT_SETTINGS.blur)));
    case 'downscaled':
      // readVariant made the image at the downscaled scale already.
      return g;
  }
}

/** The image at about `scale` px/module: whole-block averages when the ratio is whole, else resampled. */
async function atScale(img: RgbaImage, modulePixels: number, scale: number): Promise<Grey> {
  const ratio = modulePixels / scale;
  if (ratio <= 1) {
    return grey(img, 1);
  }
  if (Math.abs(ratio - Math.round(ratio)) < 0.15) {
    return grey(img, Math.round(ratio));
  }
  return resampled(img, scale / modulePixels);
}

/**
 * Which decoders read exactly `expected` from a copy, made from the image at each of
 * VARIANT_SETTINGS.scales px/module (the downscaled copy: at each of VARIANT_SETTINGS.downscale)
 * until both have read it.
 */
async function readVariant(
  img: RgbaImage,
  expected: string,
  modulePixels: number,
  name: Variant,
  sources: Map<number, Promise<Grey>>,
): Promise<Omit<ReadabilityCheck, 'copy'>> {
  const result: DecodeResults = { zxing: null, jsqr: null, zbar: null };
  const scales = name === 'downscaled' ? VARIANT_SETTINGS.downscale : VARIANT_SETTINGS.scales;
  for (const scale of modulePixels > 0 ? scales : [0]) {
    // Every copy at one scale starts from the same reduced image: made once, never written to.
    let source = sources.get(scale);
    if (!source) {
      source = scale > 0 ? atScale(img, modulePixels, scale) : Promise.resolve(grey(img, 1));
      sources.set(scale, source);
    }
    await read(
      await variant(name, await source, scale > 0 ? Math.min(scale, modulePixels) : 0),
      result,
    );
    // A wrong string is kept, as in decodeAll; a decoder that found nothing tries the next scale.
    if (allAnswered(result)) {
      break;
    }
  }
  return matches(result, expected);
}

export interface ReadabilityCheck {
  /** `straight` or one of VARIANTS. */
  copy: 'straight' | Variant;
  zxing: boolean;
  jsqr: boolean;
  zbar: boolean;
}

function matches(r: DecodeResults, expected: string): Omit<ReadabilityCheck, 'copy'> {
  return { zxing: r.zxing === expected, jsqr: r.jsqr === expected, zbar: r.zbar === expected };
}

const allRead = (c: ReadabilityCheck): boolean => c.zxing && c.jsqr && c.zbar;

/** The first check of isReadable alone: the three decoders on the image as rendered. */
export async function readStraight(
  img: RgbaImage,
  expected: string,
  modulePixels = 0,
): Promise<ReadabilityCheck> {
  const found = matches(await decodeAll(img, modulePixels), expected);
  // ZBar also reads the image as rendered: it lost true circle eyes at 500–1000 px, seen as
  // drawn (a phone held close sees many pixels per module), while it read them reduced.
  if (found.zbar && modulePixels > 0) {
    found.zbar = (await zbarRead(grey(img, 1))) === expected;
  }
  return { copy: 'straight', ...found };
}

/**
 * Every check of isReadable, in order, up to the first copy that a decoder does not read (or all
 * of them when `all`).
 */
export async function readabilityChecks(
  img: RgbaImage,
  expected: string,
  modulePixels = 0,
  all = false,
): Promise<ReadabilityCheck[]> {
  const checks: ReadabilityCheck[] = [await readStraight(img, expected, modulePixels)];
  const sources = new Map<number, Promise<Grey>>();
  for (const name of VARIANTS) {
    const last = checks[checks.length - 1];
    if (!all && !allRead(last)) {
      break;
    }
    checks.push({ copy: name, ...(await readVariant(img, expected, modulePixels, name, sources)) });
  }
  return checks;
}

/**
 * Readable means all three decoders return exactly the embedded string from the image as rendered
 * and from every copy in VARIANTS.
 */
export async function isReadable(
  img: RgbaImage,
  expected: string,
  modulePixels = 0,
): Promise<boolean> {
  const checks = await readabilityChecks(img, expected, modulePixels);
  return checks.length === VARIANTS.length + 1 && checks.every(allRead);
}
