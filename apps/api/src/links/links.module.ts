import { Module } from '@nestjs/common';
import { BiolinkFiles } from './biolink-files';
import { LinksBulkModule } from './bulk/links-bulk.module';
import { LinkChecks } from './link-checks.service';
import { LinkInputService } from './link-input.service';
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
