import { Module } from '@nestjs/common';
import { LinksBulkModule, LinkChecks, LinkInputService } from '@app/links';
import { BiolinkFiles } from './biolink-files';
import { LinksController } from './links.controller';
import { LinksService } from './links.service';
import { StaticSites } from './static/static-sites.service';

@Module({
  imports: [LinksBulkModule],
  controllers: [LinksController],
  providers: [LinksService, LinkInputService, LinkChecks, StaticSites, BiolinkFiles],
  exports: [BiolinkFiles],
})
export class LinksModule {}
