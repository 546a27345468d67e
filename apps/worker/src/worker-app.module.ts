import { DynamicModule, Module } from '@nestjs/common';
import { EventEmitterModule } from '@nestjs/event-emitter';
import { LoggerModule } from 'nestjs-pino';
import type { Logger as PinoLogger } from 'pino';
import { AppConfig, ConfigModule, SecretsModule } from '@app/config';
import { DatabaseModule } from '@app/database';
import { NotificationsModule } from '@app/notifications';
import { WorkerMetrics } from './worker-metrics';
import { WorkerModule } from './worker.module';

/**
 * The worker process (`npm run worker`): configuration, the secrets key (handler settings are
 * encrypted with it), the database, JSON logs, the jobs and the event dispatcher, and its metrics
 * on METRICS_PORT.
 */
@Module({})
export class WorkerAppModule {
  static forRoot(config: AppConfig, logger: PinoLogger): DynamicModule {
    return {
      module: WorkerAppModule,
      imports: [
        ConfigModule.forRoot(config),
        SecretsModule,
        LoggerModule.forRoot({ pinoHttp: { logger }, useExisting: true }),
        DatabaseModule.forRoot(config.database),
        EventEmitterModule.forRoot(),
        WorkerModule,
        // The same DeliveryResults the dispatcher counts into, for WorkerMetrics.
        NotificationsModule,
      ],
      providers: [WorkerMetrics],
    };
  }
}
