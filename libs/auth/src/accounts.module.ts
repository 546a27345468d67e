import { Global, Module } from '@nestjs/common';
import { BillingModule } from '@app/billing';
import { ApiKeysService } from './api-keys.service';
import { AuthCache } from './auth-cache';
import { KeyUsage } from './key-usage';
import { UsersService } from './users.service';

/**
 * Users and their API keys, with the plans and payments of @app/billing, without HTTP: the API
 * and the command line both use it. Global, and BillingModule is too: every create of every
 * context checks its plan's limits (PlanLimits). AuthCache is exported so that whoever changes
 * what an actor may do can drop what is cached about it.
 */
@Global()
@Module({
  imports: [BillingModule],
  providers: [UsersService, ApiKeysService, AuthCache, KeyUsage],
  exports: [UsersService, ApiKeysService, AuthCache, BillingModule],
})
export class AccountsModule {}
