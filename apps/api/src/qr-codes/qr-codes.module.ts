import { Module } from '@nestjs/common';
import { QrCodesController } from './qr-codes.controller';
import { QrCodesService } from './qr-codes.service';
import { QrFiles } from './qr-files';
import { QrScanTargets } from './qr-scan-targets';

@Module({
  controllers: [QrCodesController],
  providers: [QrCodesService, QrFiles, QrScanTargets],
})
export class QrCodesModule {}
