import { DynamicModule, Module } from '@nestjs/common';
import { AccountsModule } from '@app/auth';
import { CommonModule } from '@app/common';
import { AppConfig, ConfigModule } from '@app/config';
import { DatabaseModule } from '@app/database';

/** What the command line needs: configuration, the database and account management. */
@Module({})
export class CliModule {
  static forRoot(config: AppConfig): DynamicModule {
    return {
      module: CliModule,
      imports: [
        ConfigModule.forRoot(config),
        CommonModule,
        DatabaseModule.forRoot(config.database),
        AccountsModule,
      ],
    };
  }
}
