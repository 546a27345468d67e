import {
  BeforeApplicationShutdown,
  Inject,
  Injectable,
  Logger,
  OnApplicationBootstrap,
} from '@nestjs/common';
import { JOBS, type Job } from './job';
import { JobLocks } from './job-lock';

/**
 * How one attempt at a run ended. `skipped`: a run was under way, here or in another worker, or
 * shutdown had begun.
 */
export type JobOutcome = 'done' | 'skipped' | 'failed';

/**
 * Runs each job at boot (after its first delay) and then `everyMs` after each run ends. A job
 * never runs twice at once in this process, nor (on PostgreSQL) in two workers; a failure is
 * logged and the job runs again at its next time, the other jobs unaffected. On shutdown nothing
 * new starts, running jobs see their signal aborted, and shutdown waits until they return (before
 * the database closes: this is the "before" hook).
 */
@Injectable()
export class JobRunner implements OnApplicationBootstrap, BeforeApplicationShutdown {
  private readonly logger = new Logger(JobRunner.name);
  private readonly timers = new Set<NodeJS.Timeout>();
  private readonly running = new Map<string, Promise<JobOutcome>>();
  private readonly stopping = new AbortController();

  constructor(
    @Inject(JOBS) private readonly jobs: readonly Job[],
    private readonly locks: JobLocks,
  ) {}

  /** The jobs this configuration runs. */
  get scheduled(): Job[] {
    return this.jobs.filter((job) => job.offBecause === null);
  }

  /** The jobs this configuration leaves off. */
  get off(): Job[] {
    return this.jobs.filter((job) => job.offBecause !== null);
  }

  onApplicationBootstrap(): void {
    for (const job of this.scheduled) {
      this.schedule(job, job.firstDelayMs);
    }
  }

  async beforeApplicationShutdown(): Promise<void> {
    this.stopping.abort();
    for (const timer of this.timers) {
      clearTimeout(timer);
    }
    this.timers.clear();
    await Promise.all(this.running.values());
  }

  /** One run of `job` now, unless one is under way here or in another worker. Never rejects. */
  runOnce(job: Job): Promise<JobOutcome> {
    if (this.stopping.signal.aborted || this.running.has(job.name)) {
      return Promise.resolve('skipped');
    }
    const run = this.attempt(job).finally(() => this.running.delete(job.name));
    this.running.set(job.name, run);
    return run;
  }

  private async attempt(job: Job): Promise<JobOutcome> {
    try {
      const ran = await this.locks.exclusive(job.name, () => job.run(this.stopping.signal));
      if (!ran) {
        this.logger.debug(`${job.name}: skipped, another worker is running it`);
        return 'skipped';
      }
      return 'done';
    } catch (error) {
      this.logger.error(
        `${job.name} failed: ${error instanceof Error ? (error.stack ?? error.message) : String(error)}`,
      );
      return 'failed';
    }
  }

  private schedule(job: Job, delayMs: number): void {
    if (this.stopping.signal.aborted) {
      return;
    }
    const timer = setTimeout(() => {
      this.timers.delete(timer);
      void this.runOnce(job).then(() => this.schedule(job, job.everyMs));
    }, delayMs);
    // Timers never keep a process alive: the API's server does, and the worker's main.
    timer.unref();
    this.timers.add(timer);
  }
}
