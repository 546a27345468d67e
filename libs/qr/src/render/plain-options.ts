import { prepareRasterImages } from './images';
import { layout } from './layout';
import type { QrMatrix } from './matrix';
import type { RenderOptions, RgbaImage } from './options';
import { rasterize } from './raster';
import { bounds, type Prim } from './shapes';

/*
 * Helpers of the engine's specs (and of the e2e suite of the readability thread).
 */

/**
 * A plain code (black squares on white, margin 2, no logo, image or frame) with `overrides`: the
 * starting point of the engine's specs.
 */
export function plainOptions(overrides: Partial<RenderOptions> = {}): RenderOptions {
  return {
    data: 'https://linkdock.test/m',
    ecc: 'M',
    size: 500,
    margin: 2,
    style: 'square',
    innerEyeStyle: 'square',
    outerEyeStyle: 'square',
    foreground: { type: 'color', color: '#000000' },
    eyes: null,
    background: { color: '#ffffff', transparency: 0 },
    logo: null,
    backgroundImage: null,
    foregroundImage: null,
    frame: null,
    ...overrides,
  };
}

/** The pixels of a code as the engine rasterises them, and its module size in pixels. */
export async function drawPixels(
  options: RenderOptions,
): Promise<{ img: RgbaImage; modulePixels: number }> {
  const scene = layout(options);
  const img = await rasterize(scene, options, prepareRasterImages(scene, options));
  return { img, modulePixels: scene.moduleBox.w / scene.matrix.size };
}

/** A copy of a 300 px code with the middle third of the symbol painted black: unreadable. */
export function paintOver(img: RgbaImage): RgbaImage {
  const data = new Uint8Array(img.data);
  for (let y = 90; y < 210; y++) data.fill(0, (y * img.width + 60) * 4, (y * img.width + 240) * 4);
  return { ...img, data };
}

/**
 * A matrix as black 4×4-pixel squares with a 4-module quiet zone, RGBA, with the modules in `flip`
 * inverted: what a decoder reads of the bare symbol.
 */
export function matrixImage(m: QrMatrix, flip: ReadonlySet<number> = new Set()): ImageData {
  const k = 4;
  const width = (m.size + 8) * k;
  const data = new Uint8ClampedArray(width * width * 4).fill(255);
  for (let y = 0; y < width; y++) {
    for (let x = 0; x < width; x++) {
      const r = Math.floor(y / k) - 4;
      const c = Math.floor(x / k) - 4;
      const inside = r >= 0 && c >= 0 && r < m.size && c < m.size;
      const at = r * m.size + c;
      if (inside && (m.dark[at] === 1) !== flip.has(at)) {
        data.fill(0, (y * width + x) * 4, (y * width + x) * 4 + 3);
      }
    }
  }
  return { data, width, height: width, colorSpace: 'srgb' };
}

/**
 * The pixels of a code whose outer eyes are true circles (rings of radius 3.5 and 2.5 modules):
 * the `circle` eye as it was drawn before it became a squircle, which zxing-wasm and jsQR read
 * and ZBar does not.
 */
export async function trueCircleEyes(
  options: RenderOptions,
): Promise<{ img: RgbaImage; modulePixels: number }> {
  const scene = layout(options);
  const round = (p: Prim): Prim => {
    const [x0, y0, x1, y1] = bounds(p);
    return { kind: 'circle', cx: (x0 + x1) / 2, cy: (y0 + y1) / 2, r: (x1 - x0) / 2 };
  };
  scene.outerEyes = scene.outerEyes.map((eye) => ({
    add: eye.add.map(round),
    sub: eye.sub.map(round),
  }));
  const img = await rasterize(scene, options, prepareRasterImages(scene, options));
  return { img, modulePixels: scene.moduleBox.w / scene.matrix.size };
}
