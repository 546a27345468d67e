import { Worker } from 'node:worker_threads';
import { Logger } from '@nestjs/common';
import { builtThreadScript } from '@app/common/threads/built-script';
import { ThreadCalls } from '@app/common/threads/thread-calls';
import { isReadable } from './readability';
import type { RgbaImage } from './render/options';

export interface ReadabilityRequest {
  id: number;
  width: number;
  height: number;
  data: Uint8Array;
  expected: string;
  modulePixels: number;
}

export type ReadabilityReply = { id: number; readable: boolean } | { id: number; error: string };

/**
 * Runs isReadable in a thread of its own (readability.thread.ts). Decoding a code and its five
 * copies with two decoders takes tens of milliseconds of CPU; on the event loop it would hold up
 * every redirect for that long on each QR code created. The thread starts on the first check and
 * never keeps the process alive while idle. If it cannot start or dies, the check runs here.
 */
export class ReadabilityThread {
  private readonly logger = new Logger('QrReadability');
  private worker: Worker | null = null;
  private readonly calls = new ThreadCalls<boolean>();

  constructor(private readonly script: string | null) {}

  async isReadable(img: RgbaImage, expected: string, modulePixels: number): Promise<boolean> {
    const worker = this.start();
    if (worker === null) return isReadable(img, expected, modulePixels);
    // A copy: the caller reuses its pixel buffer once the render is done.
    const data = new Uint8Array(img.data);
    try {
      return await this.calls.call(
        worker,
        (id): ReadabilityRequest => ({
          id,
          width: img.width,
          height: img.height,
          data,
          expected,
          modulePixels,
        }),
        [data.buffer],
      );
    } catch (error) {
      this.logger.warn(`Readability thread failed (${String(error)}); checking here`);
      return isReadable(img, expected, modulePixels);
    }
  }

  private start(): Worker | null {
    if (this.worker || this.script === null) return this.worker;
    const worker = new Worker(this.script);
    worker.unref();
    worker.on('message', (reply: ReadabilityReply) =>
      this.calls.settle(
        worker,
        reply.id,
        'error' in reply ? { error: new Error(reply.error) } : { value: reply.readable },
      ),
    );
    const fail = (error: Error): void => {
      if (this.worker === worker) this.worker = null;
      this.calls.failAll(error);
    };
    worker.on('error', fail);
    worker.on('exit', (code) => fail(new Error(`the readability thread exited (code ${code})`)));
    this.worker = worker;
    return worker;
  }
}

let shared: ReadabilityThread | null = null;

/** The process's readability thread (see ReadabilityThread). */
export function readabilityThread(): ReadabilityThread {
  shared ??= new ReadabilityThread(builtThreadScript(__dirname, 'readability.thread'));
  return shared;
}
