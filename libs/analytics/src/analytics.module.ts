import { Module } from '@nestjs/common';
import { deriveKey, SECRETS_KEY } from '@app/config';
import { StatisticsRepository } from './statistics.repository';
import { VISITOR_HASH_SECRET, VisitRecorder } from './visit-recorder.service';
import { VisitWriter } from './visit-writer';
import { VisitorInfo } from './visitor-info';

/** The visit pipeline and the statistics reads. */
@Module({
  providers: [
    VisitRecorder,
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
