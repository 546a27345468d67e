import sharp from 'sharp';
import { readBarcodes } from 'zxing-wasm/reader';
import { decodeAll } from '../readability';
import { FRAMES, FrameName, RenderOptions } from './options';
import { plainOptions } from './plain-options';
import { renderQr } from './render';

const BASE: RenderOptions = plainOptions();

const framed = (name: FrameName | null): RenderOptions['frame'] =>
  name && {
    name,
    text: 'Scan me',
    textSize: 0,
    font: 'sora',
    color: '#1d3557',
    textColor: '#ffffff',
  };

describe('image size', () => {
  it.each([50, 100, 237, 500, 1000])(
    'is %i px tall with every frame and without one, and never wider',
    async (size) => {
      const wrong: string[] = [];
      for (const name of [null, ...FRAMES]) {
        const out = await renderQr({ ...BASE, size, frame: framed(name) });
        const png = await sharp(out.png).metadata();
        const svg = /^<svg [^>]*width="(\d+)" height="(\d+)"/.exec(out.svg);
        const dims = [png.width, png.height, Number(svg?.[1]), Number(svg?.[2])];
        if (
          png.height !== size ||
          (png.width ?? 0) > size ||
          (name === null && png.width !== size) ||
          dims[0] !== dims[2] ||
          dims[1] !== dims[3]
        ) {
          wrong.push(`${name ?? 'no frame'}: png ${dims[0]}×${dims[1]}, svg ${dims[2]}×${dims[3]}`);
        }
      }
      expect(wrong).toEqual([]);
    },
    60_000,
  );

  /**
   * The quiet zone as the pixels show it: light columns and rows from each edge to the first dark
   * pixel, in modules of the symbol that zxing-wasm reports (its version gives the module count).
   */
  it.each([60, 100, 130, 150, 200, 237, 300, 500])(
    'keeps the quiet zone asked for (within a module), even on all four sides, at %i px',
    async (size) => {
      const margin = 2;
      const out = await renderQr({ ...BASE, size, margin });
      const { data, info } = await sharp(out.png)
        .flatten({ background: '#ffffff' })
        .greyscale()
        .raw()
        .toBuffer({ resolveWithObject: true });
      const dark = (x: number, y: number): boolean => data[y * info.width + x] < 128;
      const cols = [...Array(info.width).keys()].filter((x) =>
        [...Array(info.height).keys()].some((y) => dark(x, y)),
      );
      const rows = [...Array(info.height).keys()].filter((y) =>
        [...Array(info.width).keys()].some((x) => dark(x, y)),
      );
      const left = cols[0];
      const right = info.width - 1 - cols[cols.length - 1];
      const top = rows[0];
      const bottom = info.height - 1 - rows[rows.length - 1];
      const rgba = {
        width: info.width,
        height: info.height,
        data: new Uint8Array(
          await sharp(out.png).flatten({ background: '#ffffff' }).ensureAlpha().raw().toBuffer(),
        ),
      };
      expect(await decodeAll(rgba)).toEqual({
        zxing: BASE.data,
        jsqr: BASE.data,
        zbar: BASE.data,
      });
      const [symbol] = await readBarcodes(
        { ...rgba, data: new Uint8ClampedArray(rgba.data), colorSpace: 'srgb' },
        { formats: ['QRCode'] },
      );
      // A version v symbol is 17 + 4v modules wide (ISO/IEC 18004).
      const modules = 17 + 4 * Number(symbol.version);
      const module = (info.width - left - right) / modules;
      // Whole pixels per module may widen the quiet zone, by less than a module.
      const quiet = [left, right, top, bottom].map((q) => q / module);
      expect({
        leftRight: Math.abs(left - right) <= 1,
        topBottom: Math.abs(top - bottom) <= 1,
        quiet: quiet.every((q) => q > margin - 0.3 && q < margin + 0.9) || quiet,
      }).toEqual({ leftRight: true, topBottom: true, quiet: true });
    },
  );
});
