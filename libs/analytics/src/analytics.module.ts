import { Module } from '@nestjs/common';
import { deriveKey, SECRETS_KEY } from '@app/config';
import { StatisticsRepository } from './statistics.repository';
import { UniqueVisitors } from './unique-visitors';
import { VISITOR_HASH_SECRET, VisitEnricher } from './visit-enricher';
import { VisitRecorder } from './visit-recorder.service';
import { VisitWriter } from './visit-writer';
import { VisitorInfo } from './visitor-info';

/**
 * The visit pipeline (buffer, enrichment, uniqueness, batch writes with their roll-ups) and the
 * statistics reads. One instance per app: the visitor side records into it and asks VisitorInfo
 * about its visitors, the statistics API reads what it wrote.
 */
@Module({
  providers: [
    VisitRecorder,
    VisitEnricher,
    UniqueVisitors,
    VisitWriter,
    StatisticsRepository,
    { provide: VisitorInfo, useFactory: () => new VisitorInfo() },
    {
      provide: VISITOR_HASH_SECRET,
      inject: [SECRETS_KEY],
      // The same key the visitor side signs its cookies with: the label is part of the key, and a
      // new one would make every visitor seen today count as new once more.
      useFactory: (key: Buffer) => deriveKey(key, 'edge cookies and visitor hashes'),
    },
  ],
  exports: [VisitRecorder, VisitorInfo, VisitWriter, StatisticsRepository],
})
export class AnalyticsModule {}
