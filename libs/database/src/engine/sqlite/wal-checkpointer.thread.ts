import { parentPort, workerData } from 'node:worker_threads';
import Database from 'better-sqlite3';
import { SqliteWriteLock } from './sqlite-write-lock';
import type { CheckpointerData, FromCheckpointer, ToCheckpointer } from './wal-checkpointer';

/**
 * The WAL checkpointer thread (see WalCheckpointer): its own connection to the database file,
 * which copies committed pages from the write-ahead log into the database every `intervalMs`.
 * It holds the process's SqliteWriteLock meanwhile, so that no commit adds pages while it copies:
 * the log is then wholly copied, and the next commit starts it again from its beginning (with
 * commits coming faster than a checkpoint's turn, a log checkpointed beside them never catches up
 * and grows without end). Transactions wait for the lock without blocking the event loop.
 * PASSIVE never waits for readers and never calls the busy handler: what a reader still needs is
 * copied on a later turn.
 */
const data = workerData as CheckpointerData;
const port = parentPort;
if (!port) throw new Error('wal-checkpointer.thread runs as a worker thread');
const send = (message: FromCheckpointer): void => port.postMessage(message);

let db: Database.Database | null = null;
try {
  db = new Database(data.path, { fileMustExist: true });
} catch (error) {
  send({ type: 'failed', error: String(error) });
}

if (db) {
  const connection = db;
  let failing = false;
  const lock = new SqliteWriteLock(data.lock);
  const checkpoint = (): void => {
    lock.acquireWhenFree();
    try {
      connection.pragma('wal_checkpoint(PASSIVE)');
      failing = false;
    } catch (error) {
      // Reported once per run of failures, not on every turn.
      if (!failing) send({ type: 'log', message: `WAL checkpoint failed: ${String(error)}` });
      failing = true;
    } finally {
      lock.release();
    }
  };
  const timer = setInterval(checkpoint, data.intervalMs);
  port.on('message', (message: ToCheckpointer) => {
    if (message.type === 'close') {
      clearInterval(timer);
      checkpoint();
      connection.close();
      port.close();
    }
  });
  send({ type: 'ready' });
}
