/** Who holds the lock: the word at index 0. */
const FREE = 0;
const WRITER = 1;
const OWNER = 2;
/** Index of the number of waiting owner-side transactions. */
const WAITING = 1;

/**
 * Turns between the API's transactions and the visit writer thread, which has its own connection
 * to the same SQLite file. SQLite lets one connection write at a time: without this, a transaction
 * begun while the other side writes waits in SQLite's busy handler, which sleeps synchronously and
 * would stop the event loop (every redirect with it) for as long as the other side writes. The lock
 * lives in shared memory, so the thread can take it by blocking (it has nothing else to do) while
 * the event loop waits for it without blocking (`Atomics.waitAsync`). The API goes first: the
 * writer lets a waiting transaction in before it takes the lock again.
 */
export class SqliteWriteLock {
  readonly buffer: SharedArrayBuffer;
  private readonly state: Int32Array;

  constructor(buffer: SharedArrayBuffer = new SharedArrayBuffer(8)) {
    this.buffer = buffer;
    this.state = new Int32Array(buffer);
  }

  /** The event loop's side: resolves once the lock is held, never blocking the thread. */
  async acquire(): Promise<void> {
    Atomics.add(this.state, WAITING, 1);
    try {
      for (;;) {
        const held = Atomics.compareExchange(this.state, 0, FREE, OWNER);
        if (held === FREE) return;
        const wait = Atomics.waitAsync(this.state, 0, held);
        if (wait.async) await keptAlive(wait.value);
      }
    } finally {
      Atomics.sub(this.state, WAITING, 1);
      Atomics.notify(this.state, WAITING);
    }
  }

  /** The event loop's side, for a synchronous statement: takes the lock if it is free now. */
  tryAcquire(): boolean {
    return Atomics.compareExchange(this.state, 0, FREE, OWNER) === FREE;
  }

  /** The writer thread's side: blocks until the lock is held and no transaction waits for it. */
  acquireBlocking(): void {
    for (;;) {
      const waiting = Atomics.load(this.state, WAITING);
      if (waiting > 0) {
        Atomics.wait(this.state, WAITING, waiting, 50);
        continue;
      }
      const held = Atomics.compareExchange(this.state, 0, FREE, WRITER);
      if (held === FREE) return;
      Atomics.wait(this.state, 0, held, 50);
    }
  }

  /**
   * Blocks until the lock is free and takes it, whether or not a transaction waits for it: for
   * short work that must not be put off for as long as transactions keep coming (the WAL
   * checkpointer's thread).
   */
  acquireWhenFree(): void {
    for (;;) {
      const held = Atomics.compareExchange(this.state, 0, FREE, WRITER);
      if (held === FREE) return;
      Atomics.wait(this.state, 0, held, 50);
    }
  }

  release(): void {
    Atomics.store(this.state, 0, FREE);
    Atomics.notify(this.state, 0);
  }
}

/**
 * Awaits `waiting` with a timer holding the event loop open. A pending `Atomics.waitAsync` does
 * not, and the threads that hold the lock are unref'd: during start-up (migrations, before the
 * server listens) nothing else kept the process alive, so a busy checkpoint made it exit with
 * code 0 in the middle of a transaction.
 */
async function keptAlive<T>(waiting: Promise<T>): Promise<T> {
  const timer = setInterval(() => undefined, 2 ** 31 - 1);
  try {
    return await waiting;
  } finally {
    clearInterval(timer);
  }
}

const locks = new WeakMap<object, SqliteWriteLock>();

/** The lock of a data source (made on first use); one per process and database. */
export function sqliteWriteLock(dataSource: object): SqliteWriteLock {
  let lock = locks.get(dataSource);
  if (!lock) {
    lock = new SqliteWriteLock();
    locks.set(dataSource, lock);
  }
  return lock;
}
