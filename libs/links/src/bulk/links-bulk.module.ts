import { Module } from '@nestjs/common';
import { OwnerLocks } from '@app/redis';
import { LinkChecks } from '../link-checks.service';
import { LinkInputService } from '../link-input.service';
import { BatchedLinkLookups } from './batched-lookups';
import { LinksBulkService } from './links-bulk.service';
import { LinksExportService } from './links-export.service';

/**
 * Links in bulk: many created at once, all exported. The API's links module and the command
 * line's import and export use it (it needs the database, the configuration and an event emitter).
 */
@Module({
  providers: [
    LinkChecks,
    LinkInputService,
    BatchedLinkLookups,
    LinksBulkService,
    LinksExportService,
    OwnerLocks,
  ],
  exports: [LinksBulkService, LinksExportService],
})
export class LinksBulkModule {}
