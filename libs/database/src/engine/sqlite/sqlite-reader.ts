import { isMainThread, Worker } from 'node:worker_threads';
import { Logger } from '@nestjs/common';
import { DataSource, QueryFailedError } from 'typeorm';
import { builtThreadScript } from '@app/common/threads/built-script';
import { closeThread } from '@app/common/threads/close-thread';
import { ThreadCalls } from '@app/common/threads/thread-calls';

/** What the reader thread is started with. */
export interface ReaderData {
  path: string;
}

export type ToReader =
  { type: 'query'; id: number; sql: string; parameters: unknown[] } | { type: 'close' };
export type FromReader =
  { id: number; rows: unknown[] } | { id: number; error: { message: string; code?: string } };

const CLOSE_TIMEOUT_MS = 5000;

/** The thread is gone (it could not open the file, or exited): the read runs on the caller's side. */
class ReaderGone extends Error {}

type Fallback = (sql: string, parameters: unknown[]) => Promise<unknown>;

/**
 * Read-only statements of one SQLite file in a thread with a connection of its own
 * (sqlite-reader.thread.ts). better-sqlite3 runs a statement synchronously on the thread that calls
 * it: on the API's connection a statistics breakdown over a year of roll-ups held the event loop,
 * and every redirect and request with it, for 2-30 ms (bench:stats). Here the event loop only
 * posts the statement and takes the rows back.
 *
 * The thread's connection sees what is committed, never a transaction the API's connection has
 * open. The thread starts on the first read and never keeps the process alive while idle; if it
 * cannot start or dies, reads run on the caller's connection as before.
 */
export class SqliteReader {
  private readonly logger = new Logger('SqliteReader');
  private worker: Worker | null = null;
  /** Once the thread has failed, or the reader is stopped: every read takes the fallback. */
  private retired = false;
  private ended: Promise<void> | null = null;
  private readonly calls = new ThreadCalls<unknown[]>();

  constructor(
    private readonly path: string,
    private readonly script: string | null,
    private readonly fallback: Fallback,
  ) {}

  async query<T>(sql: string, parameters: unknown[] = []): Promise<T> {
    const worker = this.start();
    if (worker === null) return (await this.fallback(sql, parameters)) as T;
    try {
      return (await this.calls.call(worker, (id): ToReader => ({
        type: 'query',
        id,
        sql,
        parameters,
      }))) as T;
    } catch (error) {
      if (error instanceof ReaderGone) return (await this.fallback(sql, parameters)) as T;
      // As TypeORM reports a statement's error: the driver's error inside a QueryFailedError.
      throw new QueryFailedError(sql, parameters, error as Error);
    }
  }

  /** Lets the reads already sent finish, then closes the thread's connection. */
  async stop(): Promise<void> {
    this.retired = true;
    const worker = this.worker;
    if (worker === null) return;
    const close: ToReader = { type: 'close' };
    await closeThread(worker, close, this.ended ?? Promise.resolve(), CLOSE_TIMEOUT_MS);
  }

  private start(): Worker | null {
    if (this.worker !== null || this.retired || this.script === null) return this.worker;
    const worker = new Worker(this.script, {
      workerData: { path: this.path } satisfies ReaderData,
    });
    worker.unref();
    worker.on('message', (reply: FromReader) => {
      if ('rows' in reply) {
        this.calls.settle(worker, reply.id, { value: reply.rows });
        return;
      }
      const error = Object.assign(new Error(reply.error.message), { code: reply.error.code });
      this.calls.settle(worker, reply.id, { error });
    });
    worker.on('error', (error) => {
      // A thread's error arrives as a copy, which is not always an Error here.
      const { message } = error as { message?: unknown };
      const reason = typeof message === 'string' ? message : 'it failed';
      this.logger.warn(`Reads run on the event loop's connection: ${reason}`);
      this.retired = true;
    });
    this.ended = new Promise((resolve) =>
      worker.once('exit', (code) => {
        if (this.worker === worker) this.worker = null;
        this.retired = true;
        this.calls.failAll(new ReaderGone(`the SQLite reader thread exited (code ${code})`));
        resolve();
      }),
    );
    this.worker = worker;
    return worker;
  }
}

const readers = new WeakMap<DataSource, SqliteReader>();

/**
 * Runs a read-only statement (SELECT) of the data source off the event loop where that helps:
 * on a SQLite file, in the process's SqliteReader thread; elsewhere (PostgreSQL, `:memory:`,
 * another worker thread) as `dataSource.query`. Only committed rows are read.
 */
export function readCommitted<T>(
  dataSource: DataSource,
  sql: string,
  parameters: unknown[] = [],
): Promise<T> {
  const options = dataSource.options;
  if (
    options.type !== 'better-sqlite3' ||
    options.database === ':memory:' ||
    !isMainThread ||
    !dataSource.isInitialized
  ) {
    return dataSource.query<T>(sql, parameters);
  }
  let reader = readers.get(dataSource);
  if (reader === undefined) {
    reader = new SqliteReader(
      options.database,
      builtThreadScript(__dirname, 'sqlite-reader.thread'),
      (s, p) => dataSource.query(s, p),
    );
    readers.set(dataSource, reader);
  }
  return reader.query<T>(sql, parameters);
}

/** Stops the data source's reader thread, if it has one (AppDataSource.destroy). */
export async function stopSqliteReader(dataSource: DataSource): Promise<void> {
  const reader = readers.get(dataSource);
  readers.delete(dataSource);
  await reader?.stop();
}
