import { Module } from '@nestjs/common';
import { LinksModule } from '../links/links.module';
import { BiolinkBlocksController } from './biolink-blocks.controller';
import { BiolinkBlocksService } from './biolink-blocks.service';

@Module({
  imports: [LinksModule],
  controllers: [BiolinkBlocksController],
  providers: [BiolinkBlocksService],
})
export class BiolinkBlocksModule {}
