import { Module } from '@nestjs/common';
import { QrCodesController } from './qr-codes.controller';
import { QrCodesService } from './qr-codes.service';
import { QrFiles } from './qr-files';

@Module({
  controllers: [QrCodesController],
  providers: [QrCodesService, QrFiles],
})
export class QrCodesModule {}
