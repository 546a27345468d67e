import { Module } from '@nestjs/common';
import { LinksController } from './links.controller';
import { LinksService } from './links.service';
import { SiteSweeper } from './static/site-sweeper.service';
import { StaticSites } from './static/static-sites.service';

@Module({
  controllers: [LinksController],
  providers: [LinksService, StaticSites, SiteSweeper],
  exports: [LinksService],
})
export class LinksModule {}
