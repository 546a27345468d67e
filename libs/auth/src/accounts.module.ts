import { Module } from '@nestjs/common';
import { ApiKeysService } from './api-keys.service';
import { UsersService } from './users.service';

/** Users and their API keys, without HTTP: the API and the command line both use it. */
@Module({
  providers: [UsersService, ApiKeysService],
  exports: [UsersService, ApiKeysService],
})
export class AccountsModule {}
