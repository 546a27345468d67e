import sharp from 'sharp';
import { digest, lru } from './cache';
import { Scene } from './layout';
import { RenderOptions, RgbaImage } from './options';
import { RasterImages } from './raster';

async function toRgba(
  input: Buffer | sharp.Sharp,
  w: number,
  h: number,
  fit: 'contain' | 'fill',
): Promise<RgbaImage> {
  const pipeline = Buffer.isBuffer(input) ? sharp(input) : input;
  const { data, info } = await pipeline
    .resize(Math.max(1, Math.round(w)), Math.max(1, Math.round(h)), {
      fit,
      background: { r: 0, g: 0, b: 0, alpha: 0 },
    })
    .ensureAlpha()
    .raw()
    .toBuffer({ resolveWithObject: true });
  return { width: info.width, height: info.height, data };
}

/**
 * Decoded and sized logos and frame texts, which do not depend on the content: the same few recur
 * across renders. The pixels are shared, so nothing may write into them (the canvas only reads).
 */
const sized = lru<Promise<RgbaImage>>(32);

function cached(key: string, make: () => Promise<RgbaImage>): Promise<RgbaImage> {
  let p = sized.get(key);
  if (!p) {
    p = make();
    sized.set(key, p);
    // A failed decode is not remembered.
    p.catch(() => {
      if (sized.get(key) === p) {
        sized.delete(key);
      }
    });
  }
  return p;
}

/** The frame text, drawn by librsvg from its outlines into a box-sized RGBA image. */
function textImage(scene: Scene, options: RenderOptions): Promise<RgbaImage> | null {
  const frame = options.frame;
  if (!scene.frame || !frame || !scene.frame.textPath) {
    return null;
  }
  const { x, y, w, h } = scene.frame.textBox;
  const width = Math.round(w);
  const height = Math.round(h);
  const svg = `<svg xmlns="http://www.w3.org/2000/svg" width="${width}" height="${height}"><path transform="translate(${-x} ${-y})" fill="${frame.textColor}" d="${scene.frame.textPath}"/></svg>`;
  return cached(`text ${svg}`, () => toRgba(Buffer.from(svg), width, height, 'fill'));
}

/** Decodes and sizes every image of a render, in parallel (libvips runs them on its own threads). */
export async function prepareRasterImages(
  scene: Scene,
  options: RenderOptions,
): Promise<RasterImages> {
  const [logo, background, foreground, text] = await Promise.all([
    options.logo && scene.logoBox
      ? logoImage(options.logo.image, scene.logoBox.w, scene.logoBox.h)
      : null,
    options.backgroundImage
      ? toRgba(options.backgroundImage.image, scene.codeBox.w, scene.codeBox.h, 'fill')
      : null,
    options.foregroundImage
      ? toRgba(options.foregroundImage.image, scene.moduleBox.w, scene.moduleBox.h, 'fill')
      : null,
    textImage(scene, options),
  ]);
  return { logo, background, foreground, text };
}

function logoImage(image: Buffer, w: number, h: number): Promise<RgbaImage> {
  return cached(`logo ${digest(image)} ${w} ${h}`, () => toRgba(image, w, h, 'contain'));
}
