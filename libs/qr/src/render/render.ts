import sharp from 'sharp';
import { readabilityThread } from '../readability-thread';
import { prepareRasterImages } from './images';
export { clearRenderCaches } from './cache';
import { layout } from './layout';
import { Ecc, RenderOptions } from './options';
import { rasterize } from './raster';
import { writeSvg } from './svg';

export interface RenderedQr {
  svg: string;
  png: Buffer;
  /** Both decoders read exactly `options.data` from the PNG. */
  isReadable: boolean;
  /** The error-correction level encoded (raised above the request when a logo needs it). */
  ecc: Ecc;
  width: number;
  height: number;
}

/** Canvas buffers of finished renders, reused by the next renders (no pixels leave renderQr). */
const spare: Uint8Array[] = [];

export async function renderQr(options: RenderOptions): Promise<RenderedQr> {
  const scene = layout(options);
  const bytes = scene.width * scene.height * 4;
  const i = spare.findIndex((b) => b.length === bytes);
  const target = i >= 0 ? spare.splice(i, 1)[0] : undefined;
  const pixels = await rasterize(scene, options, prepareRasterImages(scene, options), target);
  // libvips encodes the PNG on its own thread while this one decodes and writes the SVG. Level 6:
  // level 3 saves CPU but nearly doubles the size of flat images like these.
  const png = sharp(pixels.data, {
    raw: { width: pixels.width, height: pixels.height, channels: 4 },
  })
    .png({ compressionLevel: 6, adaptiveFiltering: false })
    .toBuffer();
  const readable = await readabilityThread().isReadable(
    pixels,
    options.data,
    scene.moduleBox.w / scene.matrix.size,
  );
  const svg = writeSvg(scene, options, {
    logo: options.logo?.image ?? null,
    background: options.backgroundImage?.image ?? null,
    foreground: options.foregroundImage?.image ?? null,
  });
  const encoded = await png;
  // libvips and both decoders are done with the pixels.
  spare.push(pixels.data);
  if (spare.length > 2) {
    spare.shift();
  }
  return {
    svg,
    png: encoded,
    isReadable: readable,
    ecc: scene.ecc,
    width: scene.width,
    height: scene.height,
  };
}
