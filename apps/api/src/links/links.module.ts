import { Module } from '@nestjs/common';
import { LinksController } from './links.controller';
import { LinksService } from './links.service';
import { StaticSites } from './static/static-sites.service';

@Module({
  controllers: [LinksController],
  providers: [LinksService, StaticSites],
  exports: [LinksService],
})
export class LinksModule {}
