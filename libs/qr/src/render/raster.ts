import type { Box } from './box';
import { Canvas, Paint } from './canvas';
import { foregroundAt, parseHex } from './color';
import { Scene } from './layout';
import { RenderOptions, RgbaImage } from './options';
import { Shape } from './shapes';

/** Images decoded to RGBA at the size of their box (see prepareRasterImages). */
export interface RasterImages {
  logo: RgbaImage | null;
  background: RgbaImage | null;
  foreground: RgbaImage | null;
  text: RgbaImage | null;
}

const solid = (hex: string): Paint => parseHex(hex);

/** Draws the scene straight into an RGBA buffer: no SVG parsing on the way to a PNG. */
export async function rasterize(
  scene: Scene,
  options: RenderOptions,
  pending: Promise<RasterImages>,
  /** A buffer of the right size to draw into instead of a new one (cleared first). */
  target?: Uint8Array,
): Promise<RgbaImage> {
  // libvips decodes and sizes the images on its own threads while the modules are drawn here.
  let images: RasterImages = { logo: null, background: null, foreground: null, text: null };
  const needed = options.backgroundImage || options.foregroundImage;
  if (needed) {
    images = await pending;
  }
  const canvas = new Canvas(scene.width, scene.height, target);
  const frame = options.frame;
  const hole = scene.backgroundShape;
  if (scene.frame && frame) {
    const { add, sub } = scene.frame;
    if (add.length === 1 && add[0].kind === 'rect' && sub.length === 0 && hole.kind === 'rect') {
      // One rectangle: filled row by row; its hole is the background shape, set next over it.
      canvas.fillRect(add[0], parseHex(frame.color));
    } else {
      canvas.fill(add, [...sub, hole], parseHex(frame.color));
    }
  }
  const cb = scene.codeBox;
  // The background is the code area's bottom layer: its pixels are set, not blended (the frame
  // leaves them empty when the hole is not a rectangle, so blending onto them sets them too).
  const bgAlpha = Math.round(255 * (1 - options.background.transparency / 100));
  if (hole.kind === 'rect') {
    canvas.fillRect(hole, parseHex(options.background.color), bgAlpha);
  } else {
    canvas.fill([hole], [], parseHex(options.background.color), bgAlpha / 255);
  }
  if (images.background && options.backgroundImage) {
    canvas.image(images.background, cb, 1 - options.backgroundImage.transparency / 100);
  }
  const fg = foregroundAt(options.foreground, scene.moduleBox);
  const mask = images.foreground ? new Uint8Array(scene.width * scene.height) : null;
  for (const p of scene.modules) {
    canvas.fill([p], [], mask ? markMask(mask, scene.width, fg) : fg);
  }
  if (mask && images.foreground && options.foregroundImage) {
    const w = scene.width;
    canvas.image(
      images.foreground,
      scene.moduleBox,
      1 - options.foregroundImage.transparency / 100,
      (x, y) => mask[y * w + x] === 1,
    );
  }
  const outer = options.eyes ? solid(options.eyes.outer) : fg;
  const inner = options.eyes ? solid(options.eyes.inner) : fg;
  for (const eye of scene.outerEyes) {
    canvas.fill(eye.add, eye.sub, outer);
  }
  for (const eye of scene.innerEyes) {
    canvas.fill(eye.add, eye.sub, inner, 1, eye.clip);
  }
  if (!needed) {
    images = await pending;
  }
  if (images.logo && scene.logoBox) {
    canvas.image(images.logo, centred(images.logo, scene.logoBox), 1);
  }
  if (images.text && scene.frame) {
    canvas.image(images.text, scene.frame.textBox, 1);
  }
  return { width: scene.width, height: scene.height, data: canvas.data };
}

/** Wraps a paint so that it also records which pixels the modules cover. */
function markMask(mask: Uint8Array, width: number, paint: Paint): Paint {
  return (x, y, out) => {
    mask[Math.floor(y) * width + Math.floor(x)] = 1;
    if (typeof paint === 'function') {
      paint(x, y, out);
    } else {
      out[0] = paint[0];
      out[1] = paint[1];
      out[2] = paint[2];
    }
  };
}

function centred(img: RgbaImage, box: Box): Box {
  return {
    x: box.x + (box.w - img.width) / 2,
    y: box.y + (box.h - img.height) / 2,
    w: img.width,
    h: img.height,
  };
}

export type { Shape };
