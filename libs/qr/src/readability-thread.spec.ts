import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { Logger } from '@nestjs/common';
import { ReadabilityThread } from './readability-thread';
import { prepareRasterImages } from './render/images';
import { layout } from './render/layout';
import { RenderOptions, RgbaImage } from './render/options';
import { plainOptions } from './render/plain-options';
import { rasterize } from './render/raster';

const BASE: RenderOptions = plainOptions({
  data: 'https://linkdock.test/thread',
  ecc: 'L',
  size: 300,
});

async function draw(): Promise<{ img: RgbaImage; modulePixels: number }> {
  const scene = layout(BASE);
  const img = await rasterize(scene, BASE, prepareRasterImages(scene, BASE));
  return { img, modulePixels: scene.moduleBox.w / scene.matrix.size };
}

/** A third of the symbol painted over: unreadable. */
function spoil(img: RgbaImage): RgbaImage {
  const data = new Uint8Array(img.data);
  for (let y = 90; y < 210; y++) data.fill(0, (y * img.width + 60) * 4, (y * img.width + 240) * 4);
  return { ...img, data };
}

describe(ReadabilityThread.name, () => {
  const dir = mkdtempSync(join(tmpdir(), 'readability-thread-'));
  afterAll(() => rmSync(dir, { recursive: true, force: true }));

  it('checks in this thread when the thread dies', async () => {
    const warn = jest.spyOn(Logger.prototype, 'warn').mockImplementation(() => undefined);
    const crashing = join(dir, 'crashing.js');
    writeFileSync(
      crashing,
      "require('node:worker_threads').parentPort.on('message', () => process.exit(7));\n",
    );
    const thread = new ReadabilityThread(crashing);
    const { img, modulePixels } = await draw();
    expect(await thread.isReadable(img, BASE.data, modulePixels)).toBe(true);
    expect(await thread.isReadable(spoil(img), BASE.data, modulePixels)).toBe(false);
    expect(warn).toHaveBeenCalledWith(
      'Readability thread failed (Error: the readability thread exited (code 7)); checking here',
    );
    warn.mockRestore();
  });

  it('checks in this thread when there is no thread to start', async () => {
    const thread = new ReadabilityThread(null);
    const { img, modulePixels } = await draw();
    expect(await thread.isReadable(img, BASE.data, modulePixels)).toBe(true);
  });
});
