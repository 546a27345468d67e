import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { Logger } from '@nestjs/common';
import { ReadabilityThread } from './readability-thread';
import type { RenderOptions } from './render/options';
import { drawPixels, paintOver, plainOptions } from './render/plain-options';

const BASE: RenderOptions = plainOptions({
  data: 'https://linkdock.test/thread',
  ecc: 'L',
  size: 300,
});

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
    const { img, modulePixels } = await drawPixels(BASE);
    expect(await thread.isReadable(img, BASE.data, modulePixels)).toBe(true);
    expect(await thread.isReadable(paintOver(img), BASE.data, modulePixels)).toBe(false);
    expect(warn).toHaveBeenCalledWith(
      'Readability thread failed (Error: the readability thread exited (code 7)); checking here',
    );
    warn.mockRestore();
  });

  it('checks in this thread when there is no thread to start', async () => {
    const thread = new ReadabilityThread(null);
    const { img, modulePixels } = await drawPixels(BASE);
    expect(await thread.isReadable(img, BASE.data, modulePixels)).toBe(true);
  });
});
