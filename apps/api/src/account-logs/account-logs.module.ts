import { Module } from '@nestjs/common';
import { AccountLogsController } from './account-logs.controller';
import { AccountLogsService } from './account-logs.service';

@Module({
  controllers: [AccountLogsController],
  providers: [AccountLogsService],
})
export class AccountLogsModule {}
