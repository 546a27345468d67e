import { Module } from '@nestjs/common';
import { LinksBulkModule } from './bulk/links-bulk.module';
import { LinkChecks } from './link-checks.service';
import { LinkInputService } from './link-input.service';
import { LinksController } from './links.controller';
import { LinksService } from './links.service';
import { StaticSites } from './static/static-sites.service';

@Module({
  imports: [LinksBulkModule],
  controllers: [LinksController],
  providers: [LinksService, LinkInputService, LinkChecks, StaticSites],
  exports: [LinksService],
})
export class LinksModule {}
