import { DynamicModule, Module } from '@nestjs/common';
import { EventEmitterModule } from '@nestjs/event-emitter';
import { AccountsModule } from '@app/auth';
import { CommonModule } from '@app/common';
import { AppConfig, ConfigModule } from '@app/config';
import { DatabaseModule } from '@app/database';
import { DestinationChecks, LinksBulkModule } from '@app/links';
import { RedisModule } from '@app/redis';

/**
 * What the command line needs: configuration, the database, Redis when configured, account
 * management, and the links in bulk of @app/links (import and export apply the rules the API
 * applies, from the same library). Events raised here reach no listener of the API process.
 */
@Module({})
export class CliModule {
  static forRoot(config: AppConfig): DynamicModule {
    return {
      module: CliModule,
      imports: [
        ConfigModule.forRoot(config),
        CommonModule,
        DatabaseModule.forRoot(config.database),
        // With REDIS_URL, what a command changes about keys, users and teams reaches the running
        // servers' AuthCache at once (AuthCache publishes its drops), not after their cache's TTL.
        RedisModule.forRoot(config.redisUrl),
        AccountsModule,
        EventEmitterModule.forRoot(),
        LinksBulkModule,
      ],
      // links:check-destinations runs the worker's destination checks at once.
      providers: [DestinationChecks],
    };
  }
}
