import { AsyncLocalStorage } from 'node:async_hooks';
import type { DataSource, EntityManager, QueryRunner } from 'typeorm';
import { sqliteWriteLock } from './sqlite-write-lock';

/**
 * TypeORM gives better-sqlite3 one connection and one query runner for the whole process. Two
 * transactions begun at once by different requests both run on it: the second BEGIN fails
 * ("cannot start a transaction within a transaction") and the first commit then finds no
 * transaction, so both requests fail and neither write is kept. This makes transactions on SQLite
 * take turns, process-wide:
 *
 * - `manager.transaction(work)` runs `work` in an async context of its own; a transaction begun
 *   from inside that context (a nested call, with or without the `em` it was given) is a
 *   savepoint of the open one, as TypeORM intends, and never waits for itself;
 * - any other transaction begun on the runner (by `repository.save`, or from another context)
 *   waits until the open one has committed or rolled back.
 *
 * Statements outside any transaction are not held back: reads see the open transaction's rows as
 * SQLite's one connection always did.
 *
 * A transaction also holds the data source's SqliteWriteLock, shared with the visit writer thread
 * (which writes through a connection of its own), so that neither waits for the other inside
 * SQLite's busy handler.
 */
const WRITE = /^\s*(?:INSERT|UPDATE|DELETE|REPLACE|WITH)\b/i;

export function serializeSqliteTransactions(dataSource: DataSource): void {
  if (dataSource.options.type !== 'better-sqlite3') return;
  const context = new AsyncLocalStorage<symbol>();
  const runner = dataSource.createQueryRunner();
  const writeLock = sqliteWriteLock(dataSource);
  let owner: symbol | null = null;
  let held: Promise<void> = Promise.resolve();
  let release: (() => void) | null = null;

  const start = runner.startTransaction.bind(runner);
  const commit = runner.commitTransaction.bind(runner);
  const rollback = runner.rollbackTransaction.bind(runner);

  const acquire = async (): Promise<void> => {
    for (;;) {
      const current = held;
      await current;
      if (held === current) break;
    }
    held = new Promise<void>((resolve) => {
      release = () => {
        writeLock.release();
        resolve();
      };
    });
    await writeLock.acquire();
  };
  const releaseIfDone = (): void => {
    if (!runner.isTransactionActive && release) {
      const done = release;
      release = null;
      owner = null;
      done();
    }
  };

  runner.startTransaction = async (isolation?: Parameters<QueryRunner['startTransaction']>[0]) => {
    const mine = context.getStore() ?? null;
    if (runner.isTransactionActive && mine !== null && mine === owner) {
      return start(isolation);
    }
    await acquire();
    owner = mine;
    try {
      await start(isolation);
    } catch (error) {
      releaseIfDone();
      throw error;
    }
  };
  runner.commitTransaction = async () => {
    try {
      await commit();
    } finally {
      releaseIfDone();
    }
  };
  runner.rollbackTransaction = async () => {
    try {
      await rollback();
    } finally {
      releaseIfDone();
    }
  };

  // A write outside any transaction (an `update()`, a raw statement) takes the write lock too, so
  // that it waits for the writer thread here rather than inside SQLite's busy handler. Inside a
  // transaction the lock is held already.
  const query = runner.query.bind(runner) as (...args: unknown[]) => Promise<unknown>;
  runner.query = (async (...args: unknown[]) => {
    if (runner.isTransactionActive || typeof args[0] !== 'string' || !WRITE.test(args[0])) {
      return query(...args);
    }
    await writeLock.acquire();
    try {
      return await query(...args);
    } finally {
      writeLock.release();
    }
  }) as QueryRunner['query'];

  const manager: EntityManager = dataSource.manager;
  const transaction = manager.transaction.bind(manager) as (...args: unknown[]) => Promise<unknown>;
  // Transactions begun in a context of their own and not settled yet.
  let contexts = 0;
  manager.transaction = (...args: unknown[]) => {
    if (context.getStore() !== undefined) {
      return transaction(...args);
    }
    contexts += 1;
    return context
      .run(Symbol('transaction'), () => transaction(...args))
      .finally(() => {
        contexts -= 1;
        // With no transaction's context left, the storage is switched off until the next run():
        // on Node 20, each AsyncLocalStorage switched on adds work to every promise and async
        // resource the process creates (about 7 % of a short API request's CPU, bench:api).
        if (contexts === 0) {
          context.disable();
        }
      });
  };
}
