import { Module } from '@nestjs/common';
import { SignaturePreviewController } from './signature-preview.controller';
import { SignaturesController } from './signatures.controller';
import { SignaturesService } from './signatures.service';

@Module({
  controllers: [SignaturesController, SignaturePreviewController],
  providers: [SignaturesService],
})
export class SignaturesModule {}
