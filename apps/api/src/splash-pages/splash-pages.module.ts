import { Module } from '@nestjs/common';
import { SplashFiles } from './splash-files';
import { SplashPagesController } from './splash-pages.controller';
import { SplashPagesService } from './splash-pages.service';

@Module({
  controllers: [SplashPagesController],
  providers: [SplashPagesService, SplashFiles],
})
export class SplashPagesModule {}
