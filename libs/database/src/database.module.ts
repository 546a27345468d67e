import { DynamicModule, Module } from '@nestjs/common';
import { TypeOrmModule } from '@nestjs/typeorm';
import type { DatabaseConfig } from '@app/config';
import { buildDataSourceOptions } from './data-source';
import { ENTITIES } from './entities';
import { ProjectsRepository } from './projects/projects.repository';
import { QrCodesRepository } from './qr-codes/qr-codes.repository';
import { ApiKeysRepository } from './users/api-keys.repository';
import { UsersRepository } from './users/users.repository';

const REPOSITORIES = [UsersRepository, ApiKeysRepository, ProjectsRepository, QrCodesRepository];

/** The data source and every repository, available to all modules. */
@Module({})
export class DatabaseModule {
  static forRoot(database: DatabaseConfig): DynamicModule {
    return {
      module: DatabaseModule,
      global: true,
      imports: [
        TypeOrmModule.forRoot({
          ...buildDataSourceOptions(database),
          retryAttempts: 3,
          retryDelay: 2000,
        }),
        TypeOrmModule.forFeature(ENTITIES),
      ],
      providers: REPOSITORIES,
      exports: REPOSITORIES,
    };
  }
}
