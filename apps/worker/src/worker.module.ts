import { Module } from '@nestjs/common';
import { CommonModule } from '@app/common';
import { DestinationChecks } from '@app/links';
import { NotificationsModule } from '@app/notifications';
import { StorageModule } from '@app/storage';
import { EventDispatcher } from './dispatch/event-dispatcher';
import { JOBS, type Job } from './job';
import { JobLocks } from './job-lock';
import { JobRunner } from './job-runner';
import { AccountLogsRetentionJob } from './jobs/account-logs-retention.job';
import { DestinationChecksJob } from './jobs/destination-checks.job';
import { DomainReverificationJob } from './jobs/domain-reverification.job';
import { LinkExpiryJob } from './jobs/link-expiry.job';
import { SiteSweepJob } from './jobs/site-sweep.job';
import { StatisticsMonthsJob } from './jobs/statistics-months.job';
import { VisitsRetentionJob } from './jobs/visits-retention.job';

const JOB_CLASSES = [
  VisitsRetentionJob,
  SiteSweepJob,
  LinkExpiryJob,
  DomainReverificationJob,
  AccountLogsRetentionJob,
  StatisticsMonthsJob,
  DestinationChecksJob,
];

/**
 * The background jobs and their runner. It expects the configuration (ConfigModule) and the
 * database (DatabaseModule) from the app that imports it: the worker's own WorkerAppModule, or
 * the API's AppModule when WORKER=internal.
 */
@Module({
  imports: [CommonModule, StorageModule, NotificationsModule],
  providers: [
    ...JOB_CLASSES,
    {
      provide: JOBS,
      inject: JOB_CLASSES,
      useFactory: (...jobs: Job[]): Job[] => jobs,
    },
    DestinationChecks,
    JobLocks,
    JobRunner,
    EventDispatcher,
  ],
  exports: [JobRunner, EventDispatcher],
})
export class WorkerModule {}
