import { isMainThread, Worker } from 'node:worker_threads';
import { Logger } from '@nestjs/common';
import type BetterSqlite3 from 'better-sqlite3';
import { builtThreadScript } from '@app/common/threads/built-script';
import { closeThread } from '@app/common/threads/close-thread';
import type { SqliteWriteLock } from './sqlite-write-lock';

/** What the checkpointer thread is started with. */
export interface CheckpointerData {
  path: string;
  intervalMs: number;
  /** The process's SqliteWriteLock (its shared memory). */
  lock: SharedArrayBuffer;
}

export type ToCheckpointer = { type: 'close' };
export type FromCheckpointer =
  { type: 'ready' } | { type: 'failed'; error: string } | { type: 'log'; message: string };

/** How often the thread checkpoints: the log then holds about this long's writes. */
export const CHECKPOINT_INTERVAL_MS = 100;
/** SQLite's own default: a commit that leaves the log past this many pages checkpoints it. */
const AUTOCHECKPOINT_PAGES = 1000;
const CLOSE_TIMEOUT_MS = 5000;

/**
 * Keeps SQLite's checkpoints off the event loop. In WAL mode each commit appends pages to the log,
 * and by default the commit that takes the log past 1,000 pages also copies the whole log into the
 * database file and syncs it, on the thread that committed. On the API's connection that was the
 * event loop: under a stream of writes (POST /v1/links) 1 commit in 60 took 2-13 ms instead of
 * 0.1, and every request and redirect waited for it. Here the process's connection stops
 * checkpointing itself (`wal_autocheckpoint = 0`) and a thread with a connection of its own
 * checkpoints every CHECKPOINT_INTERVAL_MS (wal-checkpointer.thread.ts).
 *
 * Until the thread is ready, and again if it fails or exits, the connection checkpoints itself
 * as before. Without a build of the thread (ts-jest) nothing changes. Only the main thread starts
 * one: the visit writer thread's connection already checkpoints off the event loop.
 */
export class WalCheckpointer {
  private readonly logger = new Logger(WalCheckpointer.name);
  private readonly ended: Promise<void>;
  private closing = false;

  private constructor(
    private readonly worker: Worker,
    private readonly connection: BetterSqlite3.Database,
  ) {
    worker.on('message', (message: FromCheckpointer) => {
      if (message.type === 'ready') {
        if (!this.closing) connection.pragma('wal_autocheckpoint = 0');
      } else if (message.type === 'failed') {
        this.logger.warn(`Checkpoints stay on the event loop: ${message.error}`);
      } else {
        this.logger.warn(message.message);
      }
    });
    worker.on('error', (error) => {
      this.logger.error(`The WAL checkpointer thread failed: ${String(error)}`);
    });
    this.ended = new Promise((resolve) =>
      worker.once('exit', () => {
        // Back to checkpointing on commit, so that the log never grows without bound.
        if (!this.closing) connection.pragma(`wal_autocheckpoint = ${AUTOCHECKPOINT_PAGES}`);
        resolve();
      }),
    );
    worker.unref();
  }

  /** Starts the thread for the database file at `path`, or returns null (see above). */
  static start(
    connection: BetterSqlite3.Database,
    path: string,
    lock: SqliteWriteLock,
    intervalMs = CHECKPOINT_INTERVAL_MS,
  ): WalCheckpointer | null {
    if (!isMainThread || path === ':memory:') return null;
    const script = builtThreadScript(__dirname, 'wal-checkpointer.thread');
    if (script === null) return null;
    const workerData: CheckpointerData = { path, intervalMs, lock: lock.buffer };
    return new WalCheckpointer(new Worker(script, { workerData }), connection);
  }

  /** Checkpoints once more, closes the thread's connection and waits for it to end. */
  async stop(): Promise<void> {
    if (this.closing) return;
    this.closing = true;
    this.connection.pragma(`wal_autocheckpoint = ${AUTOCHECKPOINT_PAGES}`);
    const close: ToCheckpointer = { type: 'close' };
    await closeThread(this.worker, close, this.ended, CLOSE_TIMEOUT_MS);
  }
}
