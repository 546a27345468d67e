import { SqliteWriteLock } from './sqlite-write-lock';

const timers = (): number =>
  process.getActiveResourcesInfo().filter((name) => name === 'Timeout').length;

describe(SqliteWriteLock.name, () => {
  it('holds the event loop open while it waits for the lock, and lets go once it has it', async () => {
    const lock = new SqliteWriteLock();
    const state = new Int32Array(lock.buffer);
    Atomics.store(state, 0, 1); // the writer thread holds it
    const before = timers();

    let held = false;
    const acquired = lock.acquire().then(() => (held = true));
    await new Promise((resolve) => setImmediate(resolve));
    // Atomics.waitAsync alone keeps nothing alive: with the holder's thread unref'd, a process
    // with nothing else to do would exit here.
    expect([held, timers()]).toEqual([false, before + 1]);

    Atomics.store(state, 0, 0);
    Atomics.notify(state, 0);
    await acquired;
    expect([held, Atomics.load(state, 0), timers()]).toEqual([true, 2, before]);
    lock.release();
  });
});
