import { Logger } from '@nestjs/common';
import type { Job } from './job';
import type { JobLocks } from './job-lock';
import { JobRunner } from './job-runner';

function gate(): { open: () => void; opened: Promise<void> } {
  let open = (): void => undefined;
  const opened = new Promise<void>((resolve) => (open = resolve));
  return { open, opened };
}

function job(
  name: string,
  run: (signal: AbortSignal) => Promise<void>,
  timing: Partial<Pick<Job, 'firstDelayMs' | 'everyMs' | 'offBecause'>> = {},
): Job & { run: jest.Mock<Promise<void>, [AbortSignal]> } {
  return { name, firstDelayMs: 0, everyMs: 1000, offBecause: null, ...timing, run: jest.fn(run) };
}

/** Locks as on SQLite, or on PostgreSQL when no other worker holds them: the work runs. */
function freeLocks(): JobLocks & { exclusive: jest.Mock } {
  const exclusive = jest.fn((_name: string, work: () => Promise<void>) => work().then(() => true));
  return { exclusive } as unknown as JobLocks & { exclusive: jest.Mock };
}

const settled = (): Promise<void> => new Promise((resolve) => setImmediate(resolve));

describe(JobRunner.name, () => {
  let error: jest.SpyInstance;
  beforeEach(() => {
    error = jest.spyOn(Logger.prototype, 'error').mockImplementation(() => undefined);
    jest.spyOn(Logger.prototype, 'debug').mockImplementation(() => undefined);
  });
  afterEach(() => {
    jest.restoreAllMocks();
    jest.useRealTimers();
  });

  it('skips a run of a job while one is under way in this process', async () => {
    const wait = gate();
    const slow = job('slow', () => wait.opened);
    const runner = new JobRunner([slow], freeLocks());

    const first = runner.runOnce(slow);
    expect(await runner.runOnce(slow)).toBe('skipped');
    wait.open();
    expect(await first).toBe('done');
    expect(await runner.runOnce(slow)).toBe('done');
    expect(slow.run).toHaveBeenCalledTimes(2);
  });

  it('skips a run when another worker holds the lock', async () => {
    const locked = job('locked', () => Promise.resolve());
    const locks = freeLocks();
    locks.exclusive.mockResolvedValueOnce(false);
    const runner = new JobRunner([locked], locks);

    expect(await runner.runOnce(locked)).toBe('skipped');
    expect(locked.run).not.toHaveBeenCalled();
    expect(locks.exclusive).toHaveBeenCalledWith('locked', expect.any(Function));
  });

  it('logs a failure, runs the job again next time, and leaves the other jobs alone', async () => {
    const broken = job('broken', () => Promise.reject(new Error('disk gone')));
    const fine = job('fine', () => Promise.resolve());
    const runner = new JobRunner([broken, fine], freeLocks());

    expect(await runner.runOnce(broken)).toBe('failed');
    expect(await runner.runOnce(fine)).toBe('done');
    expect(await runner.runOnce(broken)).toBe('failed');
    expect(broken.run).toHaveBeenCalledTimes(2);
    expect(error).toHaveBeenCalledTimes(2);
    expect(error).toHaveBeenCalledWith(expect.stringContaining('broken failed: Error: disk gone'));
  });

  it('runs each job after its first delay, then every interval after a run ends; never a job that is off', async () => {
    jest.useFakeTimers();
    const starts: string[] = [];
    const quick = job('quick', () => Promise.resolve(void starts.push('quick')), {
      firstDelayMs: 0,
      everyMs: 1000,
    });
    // Takes 300 ms, so its next run starts 300 + 1000 ms after this one.
    const slow = job(
      'slow',
      async () => {
        starts.push('slow');
        await new Promise((resolve) => setTimeout(resolve, 300));
      },
      { firstDelayMs: 500, everyMs: 1000 },
    );
    const off = job('off', () => Promise.resolve(void starts.push('off')), {
      offBecause: 'NOTHING is set',
    });
    const runner = new JobRunner([quick, slow, off], freeLocks());
    expect(runner.scheduled).toEqual([quick, slow]);
    expect(runner.off).toEqual([off]);

    runner.onApplicationBootstrap();
    await jest.advanceTimersByTimeAsync(0);
    expect(starts).toEqual(['quick']);
    await jest.advanceTimersByTimeAsync(500);
    expect(starts).toEqual(['quick', 'slow']);
    await jest.advanceTimersByTimeAsync(500); // t = 1000
    expect(starts).toEqual(['quick', 'slow', 'quick']);
    await jest.advanceTimersByTimeAsync(799); // t = 1799
    expect(starts).toEqual(['quick', 'slow', 'quick']);
    await jest.advanceTimersByTimeAsync(1); // t = 1800: 500 + 300 + 1000
    expect(starts).toEqual(['quick', 'slow', 'quick', 'slow']);

    await jest.advanceTimersByTimeAsync(300); // the slow run ends
    await runner.beforeApplicationShutdown();
    const before = starts.length;
    await jest.advanceTimersByTimeAsync(10_000);
    expect(starts).toHaveLength(before);
  });

  it('on shutdown aborts the signal of a running job, waits for it to return, then starts nothing', async () => {
    const events: string[] = [];
    const wait = gate();
    const long = job('long', async (signal) => {
      events.push('start');
      await wait.opened;
      events.push(signal.aborted ? 'end (aborted)' : 'end');
    });
    const runner = new JobRunner([long], freeLocks());

    const run = runner.runOnce(long);
    await settled();
    const closing = runner.beforeApplicationShutdown().then(() => events.push('closed'));
    await settled();
    expect(events).toEqual(['start']);

    wait.open();
    await closing;
    expect(events).toEqual(['start', 'end (aborted)', 'closed']);
    expect(await run).toBe('done');
    expect(await runner.runOnce(long)).toBe('skipped');
    expect(long.run).toHaveBeenCalledTimes(1);
  });
});
