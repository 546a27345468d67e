import { prepareRasterImages } from './images';
import { layout } from './layout';
import type { RenderOptions, RgbaImage } from './options';
import { rasterize } from './raster';

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
