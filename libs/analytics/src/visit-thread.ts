import { Worker } from 'node:worker_threads';
import { Logger } from '@nestjs/common';
import { builtThreadScript } from '@app/common/threads/built-script';
import { closeThread } from '@app/common/threads/close-thread';
import { ThreadCalls } from '@app/common/threads/thread-calls';
import type { AppConfig } from '@app/config';
import { type GeoFiles, loadGeoFiles } from './geo-files';
import type { VisitBatch, VisitBatchData } from './visit-batch';
import type { BatchOutcome, VisitSink } from './visit-sink';

/** What the writer thread is started with (copied into it). */
export interface VisitThreadData {
  config: AppConfig;
  /** The key of visitor hashes (see VISITOR_HASH_SECRET). */
  secret: Uint8Array;
  /** SqliteWriteLock's shared memory, on SQLite. */
  lock: SharedArrayBuffer | null;
  /** The geo database, read once by this process (the thread shares the bytes). */
  geo: GeoFiles;
}

export type ToThread = { type: 'write'; id: number; batch: VisitBatchData } | { type: 'close' };

export type FromThread =
  | { type: 'ready' }
  | { type: 'failed'; error: string }
  | { type: 'done'; id: number; outcome: BatchOutcome }
  | { type: 'log'; level: 'log' | 'warn' | 'error'; message: string };

/** After a thread failed to start, how long writes wait before another is started. */
const RESTART_DELAY_MS = 5000;
const CLOSE_TIMEOUT_MS = 10_000;

/** The compiled writer thread, or null when there is no build (see builtThreadScript). */
export function visitThreadScript(): string | null {
  return builtThreadScript(__dirname, 'visit-writer.thread');
}

/**
 * Hands counted visits to the visit writer thread (visit-writer.thread.ts), which enriches them
 * (geo, device, uniqueness) and writes them through a database connection of its own, so that
 * none of that work holds up a redirect. The thread is started on the first write. A write is
 * answered once the thread has committed it; if the thread dies first, the write fails and the
 * recorder hands the visits over again to a new thread.
 */
export class ThreadVisitSink implements VisitSink {
  private readonly logger = new Logger('VisitWriterThread');
  private worker: Worker | null = null;
  private starting: Promise<Worker> | null = null;
  private failedAt = 0;
  private readonly calls = new ThreadCalls<BatchOutcome>();

  constructor(
    private readonly data: Omit<VisitThreadData, 'geo'>,
    private readonly script: string,
    private readonly restartDelayMs = RESTART_DELAY_MS,
  ) {}

  async write(batch: VisitBatch): Promise<BatchOutcome> {
    const worker = await this.start();
    const data = batch.toData();
    return this.calls.call(worker, (id): ToThread => ({ type: 'write', id, batch: data }));
  }

  async close(): Promise<void> {
    const worker = this.worker ?? (await this.starting?.catch(() => null)) ?? null;
    if (!worker) return;
    this.worker = null;
    const exited = new Promise<void>((resolve) => worker.once('exit', () => resolve()));
    await closeThread(worker, { type: 'close' } satisfies ToThread, exited, CLOSE_TIMEOUT_MS);
  }

  private start(): Promise<Worker> {
    if (this.worker) return Promise.resolve(this.worker);
    if (this.starting) return this.starting;
    if (Date.now() - this.failedAt < this.restartDelayMs) {
      return Promise.reject(new Error('the visit writer thread failed to start; retrying soon'));
    }
    this.starting = loadGeoFiles()
      .then(
        (geo) =>
          new Promise<Worker>((resolve, reject) => {
            const workerData: VisitThreadData = { ...this.data, geo };
            // A young generation of 8 MB instead of V8's default: about 40 MB less under load
            // (bench:redirect's mix), and the writer drains as fast. (A --max-semi-space-size node
            // option overrides it: V8 applies its flags over a thread's limits.) An old generation
            // bounded at 512 MB: V8 then lets the heap grow to about 1.4 times what is live between
            // full collections instead of up to 4 times (its factor for heaps of 2 GB and more).
            // The most measured in use under load is 71 MB (20,000-visit handovers, the largest); a
            // thread that runs out anyway exits, and its visits go to the next one (start()).
            const worker = new Worker(this.script, {
              workerData,
              resourceLimits: { maxYoungGenerationSizeMb: 8, maxOldGenerationSizeMb: 512 },
            });
            const onStartError = (error: Error): void => {
              this.failedAt = Date.now();
              reject(error);
            };
            worker.on('message', (message: FromThread) => {
              if (message.type === 'ready') {
                this.worker = worker;
                worker.unref();
                resolve(worker);
              } else if (message.type === 'failed') {
                onStartError(
                  new Error(`the visit writer thread failed to start: ${message.error}`),
                );
                void worker.terminate();
              } else {
                this.onMessage(message);
              }
            });
            worker.on('error', (error: Error) => {
              this.logger.error(`The visit writer thread failed: ${String(error)}`);
              onStartError(error);
            });
            worker.on('exit', (code) => {
              if (this.worker === worker) this.worker = null;
              onStartError(new Error(`the visit writer thread exited (code ${code})`));
              this.calls.failAll(new Error(`the visit writer thread exited (code ${code})`));
            });
          }),
      )
      .finally(() => {
        this.starting = null;
      });
    return this.starting;
  }

  private onMessage(message: FromThread): void {
    if (message.type === 'log') {
      this.logger[message.level](message.message);
    } else if (message.type === 'done') {
      this.calls.settle(this.worker, message.id, { value: message.outcome });
    }
  }
}
