import { Module } from '@nestjs/common';
import { AccountsModule } from '@app/auth';
import { UsersController } from './users.controller';

@Module({ imports: [AccountsModule], controllers: [UsersController] })
export class UsersModule {}
