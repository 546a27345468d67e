'use strict';
// Loaded into the Linkdock server by `bench:redirect -- --heap` (node -r): every 250 ms it appends
// one JSON line to $LINKDOCK_HEAP_PROBE with the process's RSS, the main isolate's heap (its young
// generation, new_space, apart) and each worker thread's heap (worker.getHeapStatistics()), named
// by the thread's script. The bench reads the lines back and prints each one's peak per phase.
const { isMainThread } = require('node:worker_threads');

if (isMainThread && process.env.LINKDOCK_HEAP_PROBE) {
  const { appendFileSync } = require('node:fs');
  const v8 = require('node:v8');
  const threads = require('node:worker_threads');
  const out = process.env.LINKDOCK_HEAP_PROBE;
  const workers = new Set();
  const Worker = threads.Worker;
  threads.Worker = class extends Worker {
    constructor(script, options) {
      super(script, options);
      const entry = { name: String(script).split('/').pop().replace(/\.js$/, ''), worker: this };
      workers.add(entry);
      this.once('exit', () => workers.delete(entry));
    }
  };
  // The main isolate's garbage collections so far: young-generation (minor) and full (major).
  const { PerformanceObserver, constants } = require('node:perf_hooks');
  const gc = { minor: 0, minorMs: 0, major: 0, majorMs: 0 };
  new PerformanceObserver((list) => {
    for (const entry of list.getEntries()) {
      const kind = entry.detail?.kind === constants.NODE_PERFORMANCE_GC_MINOR ? 'minor' : 'major';
      gc[kind] += 1;
      gc[`${kind}Ms`] += entry.duration;
    }
  }).observe({ entryTypes: ['gc'] });
  const mb = (bytes) => Math.round(bytes / 104857.6) / 10;
  const sample = async () => {
    const spaces = new Map(v8.getHeapSpaceStatistics().map((s) => [s.space_name, s]));
    const main = v8.getHeapStatistics();
    const line = {
      t: Date.now(),
      rss: mb(process.memoryUsage.rss()),
      gc: { ...gc },
      main: {
        heap: mb(main.total_heap_size),
        used: mb(main.used_heap_size),
        young: mb(spaces.get('new_space')?.space_size ?? 0),
        code: mb(spaces.get('code_space')?.space_size ?? 0),
        malloced: mb(main.malloced_memory),
        external: mb(main.external_memory ?? 0),
      },
    };
    await Promise.all(
      [...workers].map(async ({ name, worker }) => {
        try {
          const s = await worker.getHeapStatistics();
          line[name] = {
            heap: mb(s.total_heap_size),
            used: mb(s.used_heap_size),
            malloced: mb(s.malloced_memory),
            limit: mb(s.heap_size_limit),
          };
        } catch {
          // the thread ended meanwhile
        }
      }),
    );
    appendFileSync(out, `${JSON.stringify(line)}\n`);
  };
  setInterval(() => void sample(), 250).unref();
}
