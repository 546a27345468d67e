import { DynamicModule, Module } from '@nestjs/common';
import { TypeOrmModule } from '@nestjs/typeorm';
import type { DatabaseConfig } from '@app/config';
import { AccountLogsRepository } from './account-logs/account-logs.repository';
import { PaymentsRepository } from './billing/payments.repository';
import { PlansRepository } from './billing/plans.repository';
import { BiolinkBlocksRepository } from './biolink-blocks/biolink-blocks.repository';
import { DataRepository } from './data/data.repository';
import { AppDataSource, buildDataSourceOptions } from './data-source';
import { DomainsRepository } from './domains/domains.repository';
import { Db } from './engine/db';
import { ENTITIES } from './entities';
import { DeliveriesRepository } from './events/deliveries.repository';
import { DeliveryLogRepository } from './events/delivery-log.repository';
import { Outbox } from './events/outbox';
import { OutboxWaker } from './events/outbox-waker';
import { LinksRepository } from './links/links.repository';
import { NotificationHandlersRepository } from './notification-handlers/notification-handlers.repository';
import { ProjectsRepository } from './projects/projects.repository';
import { PushSubscribersRepository } from './push-subscribers/push-subscribers.repository';
import { QrCodesRepository } from './qr-codes/qr-codes.repository';
import { SealedSecretsRepository } from './secrets/sealed-secrets.repository';
import { SignaturesRepository } from './signatures/signatures.repository';
import { SplashPagesRepository } from './splash-pages/splash-pages.repository';
import { TeamMembersRepository } from './teams/team-members.repository';
import { TeamsRepository } from './teams/teams.repository';
import { ApiKeysRepository } from './users/api-keys.repository';
import { UsersRepository } from './users/users.repository';
import { VisitsRepository } from './visits/visits.repository';

const REPOSITORIES = [
  Db,
  OutboxWaker,
  Outbox,
  UsersRepository,
  ApiKeysRepository,
  PlansRepository,
  PaymentsRepository,
  ProjectsRepository,
  DomainsRepository,
  LinksRepository,
  VisitsRepository,
  SignaturesRepository,
  NotificationHandlersRepository,
  DeliveriesRepository,
  DeliveryLogRepository,
  PushSubscribersRepository,
  AccountLogsRepository,
  TeamsRepository,
  TeamMembersRepository,
  QrCodesRepository,
  SplashPagesRepository,
  BiolinkBlocksRepository,
  DataRepository,
  SealedSecretsRepository,
];

/**
 * The data source, its Db (the engine's seam), the outbox and its waker, and every repository,
 * available to all modules.
 */
@Module({})
export class DatabaseModule {
  static forRoot(database: DatabaseConfig): DynamicModule {
    const options = buildDataSourceOptions(database);
    return {
      module: DatabaseModule,
      global: true,
      imports: [
        TypeOrmModule.forRootAsync({
          // A database that does not answer fails the start at once, in one line naming
          // DATABASE_URL (the entry points' startup-failure report); whatever supervises the
          // process starts it again.
          useFactory: () => ({ ...options, toRetry: () => false }),
          dataSourceFactory: () => Promise.resolve(new AppDataSource(options)),
        }),
        TypeOrmModule.forFeature(ENTITIES),
      ],
      providers: REPOSITORIES,
      exports: REPOSITORIES,
    };
  }
}
