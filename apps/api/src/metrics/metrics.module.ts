import { Module } from '@nestjs/common';
import { NotificationsModule } from '@app/notifications';
import { VisitorModule } from '../visitor/visitor.module';
import { MetricsService } from './metrics.service';

/** Prometheus metrics of the API process: GET /metrics (METRICS_TOKEN) or METRICS_PORT. */
@Module({
  imports: [VisitorModule, NotificationsModule],
  providers: [MetricsService],
  exports: [MetricsService],
})
export class MetricsModule {}
