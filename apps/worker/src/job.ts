/**
 * A piece of background work that JobRunner runs on a schedule. A run may take long: it checks
 * `signal` between batches and returns early once it is aborted (the process is stopping); the
 * next run, here or in another worker, carries on where it stopped.
 */
export interface Job {
  /** Names the job in logs and in its PostgreSQL advisory lock; never rename a job lightly. */
  readonly name: string;
  /** From the start of the process to the first run. */
  readonly firstDelayMs: number;
  /** From the end of one run to the start of the next. */
  readonly everyMs: number;
  /** Why this configuration gives the job nothing to do (it is then never scheduled), or null. */
  readonly offBecause: string | null;
  run(signal: AbortSignal): Promise<void>;
}

/** The jobs of this worker, in the order they are listed at start (see WorkerModule). */
export const JOBS = Symbol('JOBS');
