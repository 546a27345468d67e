import { Module } from '@nestjs/common';
import { PassportModule } from '@nestjs/passport';
import { ApiKeysService } from './api-keys.service';
import { BearerStrategy } from './bearer.strategy';
import { UsersService } from './users.service';

@Module({
  imports: [PassportModule],
  providers: [UsersService, ApiKeysService, BearerStrategy],
  exports: [UsersService, ApiKeysService],
})
export class AuthModule {}
