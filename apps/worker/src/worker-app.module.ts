import { DynamicModule, Module } from '@nestjs/common';
import { LoggerModule } from 'nestjs-pino';
import type { Logger as PinoLogger } from 'pino';
import { AppConfig, ConfigModule } from '@app/config';
import { DatabaseModule } from '@app/database';
import { WorkerModule } from './worker.module';

/** The worker process (`npm run worker`): configuration, the database, JSON logs and the jobs. */
@Module({})
export class WorkerAppModule {
  static forRoot(config: AppConfig, logger: PinoLogger): DynamicModule {
    return {
      module: WorkerAppModule,
      imports: [
        ConfigModule.forRoot(config),
        LoggerModule.forRoot({ pinoHttp: { logger }, useExisting: true }),
        DatabaseModule.forRoot(config.database),
        WorkerModule,
      ],
    };
  }
}
