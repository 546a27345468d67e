import { spawnSync } from 'node:child_process';
import { join } from 'node:path';
import { SqliteWriteLock } from './sqlite-write-lock';

describe(SqliteWriteLock.name, () => {
  it('keeps the process alive while it waits for the lock', () => {
    // The lock is released by a timer that holds nothing open, as when the WAL checkpointer's
    // unreferenced thread releases it: node runs the script with its types stripped.
    const script = `
      const { SqliteWriteLock } = require(${JSON.stringify(join(__dirname, 'sqlite-write-lock.ts'))});
      const lock = new SqliteWriteLock();
      const other = new SqliteWriteLock(lock.buffer);
      other.tryAcquire();
      setTimeout(() => other.release(), 200).unref();
      lock.acquire().then(() => console.log('acquired'));
    `;
    const run = spawnSync(process.execPath, ['-e', script], { encoding: 'utf8' });
    expect({ status: run.status, stdout: run.stdout }).toEqual({ status: 0, stdout: 'acquired\n' });
  });

  it('takes a free lock at once and hands it on when released', async () => {
    const lock = new SqliteWriteLock();
    await lock.acquire();
    expect(lock.tryAcquire()).toBe(false);
    lock.release();
    expect(lock.tryAcquire()).toBe(true);
  });
});
