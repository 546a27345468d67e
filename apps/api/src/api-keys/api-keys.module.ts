import { Module } from '@nestjs/common';
import { AccountsModule } from '@app/auth';
import { ApiKeysController } from './api-keys.controller';
import { OwnApiKeysService } from './own-api-keys.service';

@Module({
  imports: [AccountsModule],
  controllers: [ApiKeysController],
  providers: [OwnApiKeysService],
})
export class ApiKeysModule {}
