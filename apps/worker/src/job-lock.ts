import { createHash } from 'node:crypto';
import { Inject, Injectable } from '@nestjs/common';
import { DataSource } from 'typeorm';
import { APP_CONFIG, type AppConfig } from '@app/config';

/**
 * Keeps workers that share a PostgreSQL database from running the same job at once: a run holds
 * `pg_try_advisory_lock` on one connection of its own and releases it when done; a worker that
 * finds the lock taken skips that run. On SQLite only one process runs jobs (WORKER), and
 * JobRunner already keeps one process from overlapping itself, so the work simply runs.
 */
@Injectable()
export class JobLocks {
  constructor(
    private readonly dataSource: DataSource,
    @Inject(APP_CONFIG) private readonly config: AppConfig,
  ) {}

  /** Runs `work` unless another worker holds the job's lock; returns whether it ran. */
  async exclusive(jobName: string, work: () => Promise<void>): Promise<boolean> {
    if (this.dataSource.options.type !== 'postgres') {
      await work();
      return true;
    }
    const key = this.keyOf(jobName);
    // A session of its own that holds no transaction: advisory locks belong to a connection.
    // eslint-disable-next-line no-restricted-syntax
    const runner = this.dataSource.createQueryRunner();
    try {
      await runner.connect();
      const [row] = (await runner.query('SELECT pg_try_advisory_lock($1::bigint) AS "locked"', [
        key,
      ])) as Array<{ locked: boolean }>;
      if (row?.locked !== true) {
        return false;
      }
      try {
        await work();
        return true;
      } finally {
        // This fails only with its connection, and PostgreSQL drops a session's locks with it.
        await runner.query('SELECT pg_advisory_unlock($1::bigint)', [key]).catch(() => undefined);
      }
    } finally {
      await runner.release();
    }
  }

  /**
   * A stable 64-bit key per job. Advisory locks belong to the whole database, so the key also
   * names the schema when one is set: deployments (and test suites) in other schemas of the same
   * database do not skip each other's runs.
   */
  keyOf(jobName: string): string {
    const schema =
      this.config.database.type === 'postgres' ? (this.config.database.schema ?? '') : '';
    return createHash('sha256')
      .update(`linkdock-job:${schema}:${jobName}`)
      .digest()
      .readBigInt64BE(0)
      .toString();
  }
}
