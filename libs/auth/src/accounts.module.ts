import { Module } from '@nestjs/common';
import { ApiKeysService } from './api-keys.service';
import { AuthCache } from './auth-cache';
import { KeyUsage } from './key-usage';
import { UsersService } from './users.service';

/**
 * Users and their API keys, without HTTP: the API and the command line both use it. AuthCache is
 * exported so that whoever changes what an actor may do can drop what is cached about it.
 */
@Module({
  providers: [UsersService, ApiKeysService, AuthCache, KeyUsage],
  exports: [UsersService, ApiKeysService, AuthCache],
})
export class AccountsModule {}
