import { Module } from '@nestjs/common';
import { LinkChecks } from './link-checks.service';
import { LinkInputService } from './link-input.service';
import { LinksController } from './links.controller';
import { LinksService } from './links.service';
import { SiteSweeper } from './static/site-sweeper.service';
import { StaticSites } from './static/static-sites.service';

@Module({
  controllers: [LinksController],
  providers: [LinksService, LinkInputService, LinkChecks, StaticSites, SiteSweeper],
  exports: [LinksService],
})
export class LinksModule {}
