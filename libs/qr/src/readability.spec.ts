import { decodeAll, isReadable, readabilityChecks, readStraight, VARIANTS } from './readability';
import { prepareRasterImages } from './render/images';
import { layout } from './render/layout';
import { RenderOptions } from './render/options';
import { drawPixels, plainOptions, trueCircleEyes } from './render/plain-options';
import { rasterize } from './render/raster';

const BASE: RenderOptions = plainOptions({
  data: 'https://linkdock.test/readability',
  ecc: 'L',
  size: 300,
});

describe('decodeAll', () => {
  it('reads a plain code with all three decoders', async () => {
    const { img, modulePixels } = await drawPixels(BASE);
    expect(await decodeAll(img, modulePixels)).toEqual({
      zxing: BASE.data,
      jsqr: BASE.data,
      zbar: BASE.data,
    });
  });

  it('finds nothing when a third of the symbol is painted over', async () => {
    const { img, modulePixels } = await drawPixels(BASE);
    for (let y = 90; y < 210; y++) {
      img.data.fill(0, (y * img.width + 60) * 4, (y * img.width + 240) * 4);
    }
    expect(await decodeAll(img, modulePixels)).toEqual({ zxing: null, jsqr: null, zbar: null });
  });

  it('calls a code drawn below one pixel per module unreadable', async () => {
    const long = { ...BASE, data: 'x'.repeat(600), size: 50 };
    const { img, modulePixels } = await drawPixels(long);
    expect(modulePixels).toBeLessThan(1);
    expect(await isReadable(img, long.data, modulePixels)).toBe(false);
  });

  it('reads a plain code in every copy: turned, slanted, blurred and downscaled', async () => {
    const { img, modulePixels } = await drawPixels({ ...BASE, size: 500 });
    expect(await readabilityChecks(img, BASE.data, modulePixels, true)).toEqual(
      ['straight', ...VARIANTS].map((copy) => ({ copy, zxing: true, jsqr: true, zbar: true })),
    );
  });

  it('calls a code of pin-prick modules unreadable: it reads straight, not as a camera sees it', async () => {
    // Every dark module shrunk to a dot under half a module wide: sharp enough to read as drawn,
    // too faint or too small once turned, slanted or out of focus.
    const options = { ...BASE, size: 400 };
    const scene = layout(options);
    scene.modules = scene.modules.map((p) =>
      p.kind === 'rect'
        ? { kind: 'circle', cx: p.x + p.w / 2, cy: p.y + p.h / 2, r: p.w * 0.22 }
        : p,
    );
    const img = await rasterize(scene, options, prepareRasterImages(scene, options));
    const modulePixels = scene.moduleBox.w / scene.matrix.size;
    const checks = await readabilityChecks(img, options.data, modulePixels, true);
    expect(checks[0]).toEqual({ copy: 'straight', zxing: true, jsqr: true, zbar: true });
    expect(checks.filter((c) => !c.zxing || !c.jsqr || !c.zbar).map((c) => c.copy)).not.toEqual([]);
    expect(await isReadable(img, options.data, modulePixels)).toBe(false);
  });

  it('calls a code ZBar cannot read unreadable though zxing-wasm and jsQR read it', async () => {
    // True circle rings (the circle eye before issue 36): ZBar places the grid by the finders'
    // straight edges and misses the image as drawn (it reads it reduced to 4 px a module).
    const options = plainOptions({ data: 'https://linkdock.test/r/abc123', size: 1000 });
    const circle = { ...options, outerEyeStyle: 'circle', innerEyeStyle: 'dot' } as const;
    const { img, modulePixels } = await trueCircleEyes(circle);
    expect(await readStraight(img, options.data, modulePixels)).toEqual({
      copy: 'straight',
      zxing: true,
      jsqr: true,
      zbar: false,
    });
    expect(await isReadable(img, options.data, modulePixels)).toBe(false);
    // The squircle the circle eye is now drawn as reads on all three, in every copy.
    const now = await drawPixels(circle);
    expect(await isReadable(now.img, options.data, now.modulePixels)).toBe(true);
  });
});
