import { Logger } from '@nestjs/common';
import type { AppConfig } from '@app/config';
import type { VisitsRepository } from '@app/database';
import { VisitsRetentionJob } from './visits-retention.job';

const NOW = new Date('2026-03-31T12:00:00.000Z');

function retention(days: number | null, deleted = 0) {
  const deleteOlderThan = jest.fn<Promise<number>, [Date, number?, AbortSignal?]>(() =>
    Promise.resolve(deleted),
  );
  const job = new VisitsRetentionJob(
    { deleteOlderThan } as unknown as VisitsRepository,
    { now: () => NOW },
    { visitsRetentionDays: days } as AppConfig,
  );
  return { job, deleteOlderThan };
}

describe(VisitsRetentionJob.name, () => {
  beforeEach(() => jest.spyOn(Logger.prototype, 'log').mockImplementation(() => undefined));
  afterEach(() => jest.restoreAllMocks());

  it('deletes the visits older than VISITS_RETENTION_DAYS, stopping when the signal says so', async () => {
    const { job, deleteOlderThan } = retention(30, 12);
    const signal = new AbortController().signal;

    expect(job.offBecause).toBeNull();
    expect(await job.prune(signal)).toBe(12);
    expect(deleteOlderThan).toHaveBeenCalledWith(
      new Date('2026-03-01T12:00:00.000Z'),
      undefined,
      signal,
    );
    expect(Logger.prototype.log).toHaveBeenCalledWith('Deleted 12 visits older than 30 days');
  });

  it('runs hourly, the first time at start', () => {
    const { job } = retention(30);
    expect([job.name, job.firstDelayMs, job.everyMs]).toEqual(['visits-retention', 0, 3_600_000]);
  });

  it('is off, and deletes nothing, while VISITS_RETENTION_DAYS is unset', async () => {
    const { job, deleteOlderThan } = retention(null);

    expect(job.offBecause).toBe('VISITS_RETENTION_DAYS is unset');
    await job.run(new AbortController().signal);
    expect(deleteOlderThan).not.toHaveBeenCalled();
  });
});
