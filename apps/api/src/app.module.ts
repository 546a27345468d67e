import { DynamicModule, Module, Type } from '@nestjs/common';
import { APP_FILTER, APP_GUARD, APP_PIPE } from '@nestjs/core';
import { EventEmitterModule } from '@nestjs/event-emitter';
import { ThrottlerModule } from '@nestjs/throttler';
import type Redis from 'ioredis';
import { LoggerModule } from 'nestjs-pino';
import {
  ApiKeyGuard,
  ApiKeyScopeGuard,
  ApiKeyThrottlerGuard,
  AuthModule,
  TeamAccessGuard,
} from '@app/auth';
import {
  AllExceptionsFilter,
  CommonModule,
  createValidationPipe,
  MultipartParser,
  RequestGuard,
} from '@app/common';
import { AppConfig, ConfigModule, SecretsModule } from '@app/config';
import { DatabaseModule } from '@app/database';
import { CounterThrottlerStorage, FallbackThrottlerStorage, REDIS, RedisModule } from '@app/redis';
import { StorageModule } from '@app/storage';
import { WorkerModule } from '../../worker/src/worker.module';
import { AccountLogsModule } from './account-logs/account-logs.module';
import { ApiKeysModule } from './api-keys/api-keys.module';
import { BillingModule } from './billing/billing.module';
import { BiolinkBlocksModule } from './biolink-blocks/biolink-blocks.module';
import { DataModule } from './data/data.module';
import { DomainsModule } from './domains/domains.module';
import { HealthModule } from './health/health.module';
import { LinksModule } from './links/links.module';
import { type HttpLogger, loggerModuleParams } from './logger-options';
import { MetricsModule } from './metrics/metrics.module';
import { NotificationHandlersModule } from './notification-handlers/notification-handlers.module';
import { ProjectsModule } from './projects/projects.module';
import { PushSubscribersModule } from './push-subscribers/push-subscribers.module';
import { QrCodesModule } from './qr-codes/qr-codes.module';
import { SignaturesModule } from './signatures/signatures.module';
import { SplashPagesModule } from './splash-pages/splash-pages.module';
import { StatisticsModule } from './statistics/statistics.module';
import { TeamsModule } from './teams/teams.module';
import { UsersModule } from './users/users.module';
import { VisitorModule } from './visitor/visitor.module';
// The one import of another app's module: see where WorkerModule is imported below.

@Module({})
export class AppModule {
  /** `extraModules` lets tests mount probe controllers inside the fully configured app. */
  static forRoot(
    config: AppConfig,
    httpLogger: HttpLogger,
    extraModules: Type[] = [],
  ): DynamicModule {
    return {
      module: AppModule,
      imports: [
        ConfigModule.forRoot(config),
        SecretsModule,
        LoggerModule.forRoot(loggerModuleParams(httpLogger)),
        CommonModule,
        EventEmitterModule.forRoot(),
        DatabaseModule.forRoot(config.database),
        RedisModule.forRoot(config.redisUrl),
        StorageModule,
        ThrottlerModule.forRootAsync({
          inject: [REDIS],
          useFactory: (redis: Redis | null) => ({
            throttlers: [{ name: 'default', ttl: 60_000, limit: config.apiRateLimit }],
            // In memory: a counter per key (O(1) a hit), not the library's list of hit times.
            storage: redis ? new FallbackThrottlerStorage(redis) : new CounterThrottlerStorage(),
          }),
        }),
        AuthModule,
        HealthModule,
        UsersModule,
        BillingModule,
        ProjectsModule,
        LinksModule,
        VisitorModule,
        MetricsModule,
        DomainsModule,
        SignaturesModule,
        NotificationHandlersModule,
        PushSubscribersModule,
        AccountLogsModule,
        BiolinkBlocksModule,
        DataModule,
        TeamsModule,
        QrCodesModule,
        StatisticsModule,
        SplashPagesModule,
        ApiKeysModule,
        // WORKER=internal (the default): the background jobs run in this process, so one command
        // starts everything on one machine and the jobs share the API's database connection, which
        // matters for SQLite (no second process contends for the file's write lock). This is why an
        // app imports another app's module here. WORKER=external: `npm run worker` runs them.
        ...(config.worker === 'internal' ? [WorkerModule] : []),
        ...extraModules,
      ],
      providers: [
        // Guards run in this order: authenticate the request (a failure counts against the client
        // address), count it against its key's budget, refuse writes to a read-only key, resolve
        // X-Team-Id, then read a multipart body and refuse NUL characters (RequestGuard). There
        // is no global interceptor: the envelope is put on in EnvelopeExpressAdapter.
        { provide: APP_GUARD, useClass: ApiKeyGuard },
        { provide: APP_GUARD, useClass: ApiKeyThrottlerGuard },
        { provide: APP_GUARD, useClass: ApiKeyScopeGuard },
        { provide: APP_GUARD, useClass: TeamAccessGuard },
        MultipartParser,
        { provide: APP_GUARD, useClass: RequestGuard },
        { provide: APP_PIPE, useFactory: createValidationPipe },
        { provide: APP_FILTER, useClass: AllExceptionsFilter },
      ],
    };
  }
}
