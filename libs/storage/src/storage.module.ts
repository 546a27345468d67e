import { join } from 'node:path';
import { Global, Module } from '@nestjs/common';
import { APP_CONFIG, type AppConfig } from '@app/config';
import { LocalSiteStorage } from './local-site-storage';
import { SiteStorage } from './site-storage';

/** Provides SiteStorage: the local disk under `DATA_DIR/sites` (object storage to follow). */
@Global()
@Module({
  providers: [
    {
      provide: SiteStorage,
      inject: [APP_CONFIG],
      useFactory: (config: AppConfig) => new LocalSiteStorage(join(config.dataDir, 'sites')),
    },
  ],
  exports: [SiteStorage],
})
export class StorageModule {}
