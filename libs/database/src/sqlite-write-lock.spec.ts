import { spawnSync } from 'node:child_process';
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { ModuleKind, transpileModule } from 'typescript';
import { SqliteWriteLock } from './sqlite-write-lock';

describe(SqliteWriteLock.name, () => {
  it('keeps node running while it waits for a lock held by an unref’d thread', () => {
    // In a process of its own: Jest keeps its own process alive, which would hide the exit.
    const lock = transpileModule(readFileSync(join(__dirname, 'sqlite-write-lock.ts'), 'utf8'), {
      compilerOptions: { module: ModuleKind.CommonJS },
    }).outputText;
    const script = `
      const { Worker } = require('node:worker_threads');
      const exports = {};
      ${lock}
      const lock = new exports.SqliteWriteLock();
      // The thread takes the lock, says so, and holds it for 300 ms (as the WAL checkpointer does).
      const holder = new Worker(
        'const { workerData, parentPort } = require("node:worker_threads");' +
          'const state = new Int32Array(workerData);' +
          'Atomics.store(state, 0, 1); parentPort.postMessage("held");' +
          'Atomics.wait(new Int32Array(new SharedArrayBuffer(4)), 0, 0, 300);' +
          'Atomics.store(state, 0, 0); Atomics.notify(state, 0);',
        { eval: true, workerData: lock.buffer },
      );
      holder.once('message', () => {
        holder.unref();
        lock.acquire().then(() => process.stdout.write('acquired'));
      });
    `;
    const child = spawnSync(process.execPath, ['-e', script], {
      encoding: 'utf8',
      timeout: 20_000,
    });
    expect([child.status, child.stderr, child.stdout]).toEqual([0, '', 'acquired']);
  });
});
