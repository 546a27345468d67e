import { Module } from '@nestjs/common';
import { StatisticsRepository } from './statistics.repository';
import { VisitWriter } from './visit-writer';

/** The visit pipeline and the statistics reads. */
@Module({
  providers: [VisitWriter, StatisticsRepository],
  exports: [VisitWriter, StatisticsRepository],
})
export class AnalyticsModule {}
