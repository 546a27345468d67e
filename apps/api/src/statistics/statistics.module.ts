import { Module } from '@nestjs/common';
import { StatisticsController } from './statistics.controller';
import { StatisticsService } from './statistics.service';
import { VisitsRetention } from './visits-retention.service';

@Module({
  controllers: [StatisticsController],
  providers: [StatisticsService, VisitsRetention],
})
export class StatisticsModule {}
