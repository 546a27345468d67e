import { Module } from '@nestjs/common';
import { AnalyticsModule } from '@app/analytics';
import { StatisticsController } from './statistics.controller';
import { StatisticsService } from './statistics.service';
import { VisitsRetention } from './visits-retention.service';

@Module({
  imports: [AnalyticsModule],
  controllers: [StatisticsController],
  providers: [StatisticsService, VisitsRetention],
})
export class StatisticsModule {}
