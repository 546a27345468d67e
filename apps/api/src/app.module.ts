import { DynamicModule, Module, Type } from '@nestjs/common';
import { APP_FILTER, APP_GUARD, APP_INTERCEPTOR, APP_PIPE } from '@nestjs/core';
import { ThrottlerModule } from '@nestjs/throttler';
import { ApiKeyGuard, ApiKeyThrottlerGuard, AuthModule } from '@app/auth';
import {
  AllExceptionsFilter,
  CommonModule,
  createValidationPipe,
  EnvelopeInterceptor,
  MultipartInterceptor,
} from '@app/common';
import { AppConfig, ConfigModule } from '@app/config';
import { DatabaseModule } from '@app/database';
import { FallbackThrottlerStorage, REDIS, RedisModule } from '@app/redis';
import type Redis from 'ioredis';
import { LoggerModule } from 'nestjs-pino';
import type { HttpLogger } from 'pino-http';
import { HealthModule } from './health/health.module';
import { loggerModuleParams } from './logger-options';
import { ProjectsModule } from './projects/projects.module';
import { QrCodesModule } from './qr-codes/qr-codes.module';
import { UsersModule } from './users/users.module';

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
        LoggerModule.forRoot(loggerModuleParams(httpLogger)),
        CommonModule,
        DatabaseModule.forRoot(config.database),
        RedisModule.forRoot(config.redisUrl),
        ThrottlerModule.forRootAsync({
          inject: [REDIS],
          useFactory: (redis: Redis | null) => ({
            throttlers: [{ name: 'default', ttl: 60_000, limit: config.apiRateLimit }],
            storage: redis ? new FallbackThrottlerStorage(redis) : undefined,
          }),
        }),
        AuthModule,
        HealthModule,
        UsersModule,
        ProjectsModule,
        QrCodesModule,
        ...extraModules,
      ],
      providers: [
        // Guards run in this order: count the request, then authenticate it.
        { provide: APP_GUARD, useClass: ApiKeyThrottlerGuard },
        { provide: APP_GUARD, useClass: ApiKeyGuard },
        { provide: APP_INTERCEPTOR, useClass: MultipartInterceptor },
        { provide: APP_INTERCEPTOR, useClass: EnvelopeInterceptor },
        { provide: APP_PIPE, useFactory: createValidationPipe },
        { provide: APP_FILTER, useClass: AllExceptionsFilter },
      ],
    };
  }
}
