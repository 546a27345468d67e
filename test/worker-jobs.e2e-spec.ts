import { ModulesContainer } from '@nestjs/core';
import {
  closeAfterAll,
  createTestApp,
  createTestDatabase,
  currentTestDb,
  TestApp,
} from '@app/testing';
import { StatisticsModule } from '../apps/api/src/statistics/statistics.module';
import type { Job } from '../apps/worker/src/job';
import { JobLocks } from '../apps/worker/src/job-lock';
import { JobRunner } from '../apps/worker/src/job-runner';
import { WorkerModule } from '../apps/worker/src/worker.module';

function gate(): { open: () => void; opened: Promise<void> } {
  let open = (): void => undefined;
  const opened = new Promise<void>((resolve) => (open = resolve));
  return { open, opened };
}

function probe(name: string, run: (signal: AbortSignal) => Promise<void>): Job {
  return { name, firstDelayMs: 0, everyMs: 60_000, offBecause: null, run };
}

const aborted = (signal: AbortSignal): Promise<void> =>
  signal.aborted
    ? Promise.resolve()
    : new Promise((resolve) => signal.addEventListener('abort', () => resolve(), { once: true }));

describe('Background jobs in the API process (WORKER=internal)', () => {
  const opened = closeAfterAll();

  it('closing the app aborts the signal of a running job and waits until the job returns', async () => {
    const t = opened.add(await createTestApp());
    const events: string[] = [];
    const wait = gate();
    let started: (signal: AbortSignal) => void = () => undefined;
    const running = new Promise<AbortSignal>((resolve) => (started = resolve));
    const job = probe('close-probe', async (signal) => {
      events.push('start');
      started(signal);
      await wait.opened;
      // Still connected: the database closes only after the job has returned.
      await t.dataSource.query('SELECT 1');
      events.push(signal.aborted ? 'end (aborted)' : 'end');
    });

    const run = t.app.get(JobRunner).runOnce(job);
    const signal = await running;
    const closing = t.close().then(() => events.push('closed'));
    await aborted(signal);
    // Time enough for a close that did not wait to finish (the wait itself is proven in
    // job-runner.spec.ts); this one is still waiting for the job.
    const pause = new Promise<string>((resolve) => setTimeout(resolve, 1000, 'still closing'));
    expect(await Promise.race([closing.then(() => 'closed'), pause])).toBe('still closing');
    expect(events).toEqual(['start']);

    wait.open();
    await closing;
    expect(events).toEqual(['start', 'end (aborted)', 'closed']);
    expect(await run).toBe('done');
  });

  it('runs no jobs in the API process when WORKER=external', async () => {
    const t = opened.add(await createTestApp({ env: { WORKER: 'external' } }));
    const modules = [...t.app.get(ModulesContainer).values()].map((m) => m.metatype);
    expect(modules).not.toContain(WorkerModule);
    expect(modules).toContain(StatisticsModule);
  });
});

if (currentTestDb() === 'postgres') {
  describe('Background jobs in two workers on one PostgreSQL schema', () => {
    const opened = closeAfterAll();
    // Two apps, each with its own pool: what two worker processes are to the database.
    let locks: [JobLocks, JobLocks];
    let first: JobRunner;
    let second: JobRunner;
    beforeAll(async () => {
      const database = opened.add(await createTestDatabase(), (db) => db.drop());
      const a: TestApp = opened.add(await createTestApp({ database }));
      const b: TestApp = opened.add(await createTestApp({ database }));
      locks = [a.app.get(JobLocks), b.app.get(JobLocks)];
      first = new JobRunner([], locks[0]);
      second = new JobRunner([], locks[1]);
    });

    it('skips a run while another worker runs the job, and runs it once that run ended', async () => {
      const wait = gate();
      const events: string[] = [];
      let started = (): void => undefined;
      const running = new Promise<void>((resolve) => (started = resolve));
      const long = probe('lock-probe', async () => {
        events.push('first: start');
        started();
        await wait.opened;
        events.push('first: end');
      });
      const quick = probe('lock-probe', () => Promise.resolve(void events.push('second: ran')));

      const run = first.runOnce(long);
      await running;
      expect(await second.runOnce(quick)).toBe('skipped');
      wait.open();
      expect(await run).toBe('done');
      expect(await second.runOnce(quick)).toBe('done');
      expect(events).toEqual(['first: start', 'first: end', 'second: ran']);

      // A failed run lets go of the lock too.
      const failing = probe('lock-probe', () => Promise.reject(new Error('broken on purpose')));
      expect(await first.runOnce(failing)).toBe('failed');
      expect(await second.runOnce(quick)).toBe('done');
    });

    it('never overlaps two runs of a job, however the workers race', async () => {
      let inside = 0;
      let most = 0;
      let runs = 0;
      const job = probe('race-probe', async () => {
        inside += 1;
        runs += 1;
        most = Math.max(most, inside);
        await new Promise((resolve) => setTimeout(resolve, 20));
        inside -= 1;
      });
      const attempts = async (runner: JobRunner): Promise<string[]> => {
        const outcomes: string[] = [];
        for (let i = 0; i < 15; i += 1) {
          outcomes.push(await runner.runOnce(job));
        }
        return outcomes;
      };

      const outcomes = (await Promise.all([attempts(first), attempts(second)])).flat();
      expect(most).toBe(1);
      expect(outcomes.filter((o) => o === 'done')).toHaveLength(runs);
      expect(outcomes.filter((o) => o !== 'done' && o !== 'skipped')).toEqual([]);
      expect(runs).toBeGreaterThan(0);
    });

    it('gives each job its own lock, and the same one in every worker of a schema', () => {
      expect(locks[0].keyOf('site-sweep')).toBe(locks[1].keyOf('site-sweep'));
      expect(locks[0].keyOf('site-sweep')).not.toBe(locks[0].keyOf('visits-retention'));
    });
  });
}
