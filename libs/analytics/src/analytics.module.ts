import { Logger, Module } from '@nestjs/common';
import { getDataSourceToken } from '@nestjs/typeorm';
import type { DataSource } from 'typeorm';
import { APP_CONFIG, type AppConfig, deriveKey, SECRETS_KEY } from '@app/config';
import { sqliteConnection, sqliteWriteLock } from '@app/database';
import { StatisticsRepository } from './statistics.repository';
import { UniqueVisitors } from './unique-visitors';
import { VISITOR_HASH_SECRET, VisitEnricher } from './visit-enricher';
import { VISIT_SINK, VisitRecorder } from './visit-recorder.service';
import { InlineVisitSink, type VisitSink } from './visit-sink';
import { ThreadVisitSink, visitThreadScript } from './visit-thread';
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
    {
      provide: VISIT_SINK,
      inject: [APP_CONFIG, VISITOR_HASH_SECRET, getDataSourceToken(), VisitEnricher, VisitWriter],
      useFactory: (
        config: AppConfig,
        secret: Buffer,
        dataSource: DataSource,
        enricher: VisitEnricher,
        writer: VisitWriter,
      ): VisitSink => {
        const inline = (): VisitSink => new InlineVisitSink(enricher, writer, true);
        if (config.visitWriter === 'inline') return inline();
        const script = visitThreadScript();
        if (script === null) {
          new Logger(VisitRecorder.name).error(
            'The visit writer thread is not built (npm run build); writing visits in this thread',
          );
          return inline();
        }
        const lock = sqliteConnection(dataSource) ? sqliteWriteLock(dataSource).buffer : null;
        return new ThreadVisitSink({ config, secret: new Uint8Array(secret), lock }, script);
      },
    },
  ],
  exports: [VisitRecorder, VisitorInfo, VisitWriter, StatisticsRepository],
})
export class AnalyticsModule {}
