import { join } from 'node:path';
import { builtThreadScript } from '@app/common';
import { ReadabilityThread } from '@app/qr/readability-thread';
import type { RenderOptions } from '@app/qr/render/options';
import { drawPixels, paintOver, plainOptions } from '@app/qr/render/plain-options';

/**
 * The QR readability check in its built thread (libs/qr/src/readability.thread.ts), as the API
 * runs it: here because it needs the build, as every e2e suite may. The fallbacks are unit-tested
 * beside the code.
 */
const BASE: RenderOptions = plainOptions({
  data: 'https://linkdock.test/thread',
  ecc: 'L',
  size: 300,
});

describe('QR readability thread', () => {
  it('reads in the built thread: a code is readable, the same code painted over is not', async () => {
    const script = builtThreadScript(join(__dirname, '../libs/qr/src'), 'readability.thread');
    expect(script).not.toBeNull();
    const thread = new ReadabilityThread(script);
    const { img, modulePixels } = await drawPixels(BASE);
    const before = new Uint8Array(img.data);
    expect(await thread.isReadable(img, BASE.data, modulePixels)).toBe(true);
    expect(await thread.isReadable(paintOver(img), BASE.data, modulePixels)).toBe(false);
    expect(await thread.isReadable(img, 'https://linkdock.test/other', modulePixels)).toBe(false);
    // The caller's pixels are left as they were (the thread gets a copy).
    expect(Buffer.compare(img.data, before)).toBe(0);
  });
});
