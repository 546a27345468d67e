import { AsyncLocalStorage } from 'node:async_hooks';
import { Inject, Injectable } from '@nestjs/common';
import {
  DataSource,
  type EntityManager,
  type EntityTarget,
  type ObjectLiteral,
  type Repository,
} from 'typeorm';
import { type PreparedQuery, readsOnly, type Row, runPrepared } from './prepared-query';
import { prepared, sqliteBindable, sqliteConnection } from './sqlite/sqlite-connection';
import { readCommitted } from './sqlite/sqlite-reader';
import { sqliteWriteLock } from './sqlite/sqlite-write-lock';
import { WriteTurns } from './sqlite/write-turns';

/** SQLite: this connection's changed rows and the commits of every other connection (changeStamp). */
const CHANGE_STAMP = 'SELECT total_changes() AS c, data_version AS v FROM pragma_data_version';

/** Which database runs. */
export type Dialect = 'sqlite' | 'postgres';

/** The open write of an async context; `done` once it has committed or rolled back. */
interface OpenWrite {
  em: EntityManager;
  done: boolean;
}

/** What a statement run with `execute` did. */
export interface Executed {
  /** Rows it changed. */
  affected: number;
  /** Rows it returned (RETURNING). */
  rows: Row[];
}

/**
 * The database engine's seam: the only code that knows which dialect runs and how its writes take
 * turns. Repositories and services write with `write(work)`, which runs `work` in one transaction:
 *
 * - on PostgreSQL, on a pooled connection of its own;
 * - on SQLite, on the driver's one connection once it is this write's turn (WriteTurns: this
 *   process's writes in order, then the write lock shared with the visit writer and checkpointer
 *   threads), so two requests' writes never run into each other's transaction.
 *
 * Inside `work`, `manager` and `repository(Entity)` are the transaction's; outside a write they are
 * the data source's. A write begun inside a write is part of it (it commits or rolls back with the
 * outer one): a service opens its write and calls plan checks, repositories and the outbox in
 * order, and a repository's own `write` joins it. The open write lives in an AsyncLocalStorage
 * (on Node 24 an async context frame: it costs nothing while unused), so no transaction handle is
 * passed from one library to another.
 *
 * On SQLite, nothing may yield to the event loop inside `work` (no timers, no setImmediate): the
 * other requests' reads run on the same connection meanwhile, and a second app on the same file
 * would wait in SQLite's busy handler, holding this process with it.
 *
 * The seam takes the app's DataSource and never builds one (building one would close a cycle
 * through the migrations). DatabaseModule provides the app's; a second Db of the same data source
 * (a start-up check) still takes turns with it through the data source's SqliteWriteLock.
 */
@Injectable()
export class Db {
  readonly dialect: Dialect;
  /**
   * Whether other connections' writes run at the same time as this process's (PostgreSQL, several
   * instances): a write that counts or reads before it writes locks what it reads (FOR UPDATE,
   * rowLock, lockOwner). False on SQLite, whose writes take turns (WriteTurns, SqliteWriteLock).
   */
  readonly concurrentWrites: boolean;
  /**
   * Whether statements run on the event loop's thread (better-sqlite3 is synchronous): long work is
   * split into chunks with requests served in between (link-visits.ts). False on PostgreSQL, whose
   * statements are awaited.
   */
  readonly onEventLoop: boolean;
  private readonly open = new AsyncLocalStorage<OpenWrite>();
  /** SQLite only: the turns of its one connection. */
  private readonly turns: WriteTurns | null;

  constructor(@Inject(DataSource) readonly dataSource: DataSource) {
    this.dialect = dataSource.options.type === 'postgres' ? 'postgres' : 'sqlite';
    this.concurrentWrites = this.dialect === 'postgres';
    this.onEventLoop = this.dialect === 'sqlite';
    this.turns = this.dialect === 'sqlite' ? new WriteTurns(sqliteWriteLock(dataSource)) : null;
  }

  /** The open write's entity manager inside `write`, the data source's outside. */
  get manager(): EntityManager {
    return this.current()?.em ?? this.dataSource.manager;
  }

  /** Whether this code runs inside a write. */
  get writing(): boolean {
    return this.current() !== null;
  }

  /** The entity's repository: the open write's inside `write`, the data source's outside. */
  repository<T extends ObjectLiteral>(target: EntityTarget<T>): Repository<T> {
    return this.manager.getRepository(target);
  }

  /** Runs `work` in a write transaction (or in the open one; see above) and returns its result. */
  async write<T>(work: () => Promise<T>): Promise<T> {
    if (this.current() !== null) return work();
    if (this.turns === null) return this.transaction(work);
    await this.turns.take();
    try {
      return await this.transaction(work);
    } finally {
      this.turns.give();
    }
  }

  /**
   * As `write`, but only if it can begin at once: null when another write holds the SQLite
   * connection or its lock (the caller tries again later, rather than waiting on the event loop).
   * On PostgreSQL writes never wait for each other to begin: this is `write`.
   */
  async tryWriteNow<T>(work: () => Promise<T>): Promise<T | null> {
    if (this.current() !== null || this.turns === null) return this.write(work);
    // A transaction begun outside this seam (none should be) counts as busy too.
    if (sqliteConnection(this.dataSource)?.inTransaction === true) return null;
    if (!this.turns.tryTake()) return null;
    try {
      return await this.transaction(work);
    } finally {
      this.turns.give();
    }
  }

  /**
   * A read-only statement that sees committed rows only, off the event loop where that helps: on a
   * SQLite file in the reader thread (sqlite-reader.ts), elsewhere as an ordinary query.
   */
  readCommitted<T>(sql: string, parameters: unknown[] = []): Promise<T> {
    return readCommitted<T>(this.dataSource, sql, parameters);
  }

  /**
   * A statement whose SQL text never changes, prepared once per connection (prepared-query.ts).
   * Placeholders are `?` on SQLite and `$1`... on PostgreSQL. A statement that writes runs in the
   * open write, or in a write of its own.
   */
  prepared(sql: string): PreparedQuery {
    let writes: boolean | undefined;
    return {
      all: async (values = []) => {
        // Inside the async function, a statement that does not compile rejects as em.query does.
        writes ??= !readsOnly(this.dataSource, sql);
        if (writes && !this.writing) {
          return this.write(() => runPrepared(this.dataSource, this.manager, sql, values));
        }
        return runPrepared(this.dataSource, this.manager, sql, values);
      },
    };
  }

  /** Runs one write statement (in the open write, or in a write of its own). */
  execute(sql: string, parameters: unknown[] = []): Promise<Executed> {
    return this.write(async () => {
      const runner = this.manager.queryRunner;
      if (runner === undefined) throw new Error('A write has a query runner');
      const result = await runner.query(sql, parameters, true);
      const rows = Array.isArray(result.records) ? (result.records as Row[]) : [];
      return { affected: result.affected ?? rows.length, rows };
    });
  }

  /** A value as the driver binds it: better-sqlite3 binds no booleans, which SQLite stores as 0 and 1. */
  bindable<T>(value: T): T | number {
    return this.dialect === 'sqlite' ? sqliteBindable(value) : value;
  }

  /** The placeholder of a statement's `n`-th parameter (from 1): `?` on SQLite, `$n` on PostgreSQL. */
  placeholder(n: number): string {
    return this.dialect === 'postgres' ? `$${n}` : '?';
  }

  /**
   * Holds advisory lock `key` shared until the open write ends, where writes run concurrently
   * (PostgreSQL); nothing on SQLite, whose writes take turns. Inside a write.
   */
  async holdShared(key: number): Promise<void> {
    if (this.concurrentWrites) {
      await this.manager.query('SELECT pg_advisory_xact_lock_shared($1)', [key]);
    }
  }

  /**
   * Notifies `channel`'s listeners in every process when the open write commits (at once outside
   * a write, never if it rolls back): PostgreSQL's NOTIFY. Nothing on SQLite, whose one file has
   * no listeners: a process learns of its own writes, and of others' by polling.
   */
  async notify(channel: string): Promise<void> {
    if (this.dialect === 'postgres') await this.manager.query(`NOTIFY ${channel}`);
  }

  /**
   * A value that differs whenever the database may have changed since it was last taken, for a
   * read that is kept until then (GET /v1/user's usage counts); null when that cannot be known
   * cheaply. On SQLite: the connection's total_changes() (every row this process's writes changed,
   * rolled-back ones included) with PRAGMA data_version (which moves with every commit of another
   * connection: the visit writer and checkpointer threads, the command line, a second process).
   * Null on PostgreSQL, where other instances write unseen, and inside a write.
   */
  changeStamp(): string | null {
    if (this.turns === null || this.current() !== null) return null;
    const connection = sqliteConnection(this.dataSource);
    if (connection === null) return null;
    const row = prepared(connection, CHANGE_STAMP).get() as { c: number; v: number };
    return `${row.c}:${row.v}`;
  }

  private current(): OpenWrite | null {
    const open = this.open.getStore();
    return open !== undefined && !open.done ? open : null;
  }

  private transaction<T>(work: () => Promise<T>): Promise<T> {
    return this.dataSource.manager.transaction(async (em) => {
      const open: OpenWrite = { em, done: false };
      try {
        return await this.open.run(open, work);
      } finally {
        // Callbacks scheduled inside the write (timers, emitters) keep its context: from now on
        // they are outside any write.
        open.done = true;
      }
    });
  }
}
