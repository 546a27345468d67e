import { join } from 'node:path';
import { Global, Inject, Module, OnApplicationShutdown } from '@nestjs/common';
import { APP_CONFIG, type AppConfig } from '@app/config';
import { CachingObjectStore } from './caching-object-store';
import { LocalObjectStore } from './local-object-store';
import { LocalSiteStorage } from './local-site-storage';
import { ObjectSiteStorage } from './object-site-storage';
import { ObjectStore } from './object-store';
import { S3ObjectStore } from './s3-object-store';
import { SiteStorage } from './site-storage';

/** Small remote objects kept in memory by each process (see CachingObjectStore). */
export const OBJECT_CACHE_BYTES = 64 * 1024 * 1024;
export const OBJECT_CACHE_MAX_OBJECT_BYTES = 256 * 1024;

/**
 * The object store of a configuration: `DATA_DIR` on the local disk, or the S3 bucket behind an
 * in-memory cache of small objects.
 */
export function createObjectStore(config: AppConfig): ObjectStore {
  if (config.storage.driver === 's3' && config.storage.s3 !== null) {
    return new CachingObjectStore(
      new S3ObjectStore(config.storage.s3),
      OBJECT_CACHE_BYTES,
      OBJECT_CACHE_MAX_OBJECT_BYTES,
    );
  }
  return new LocalObjectStore(config.dataDir);
}

/** Sites of a configuration: `DATA_DIR/sites` (rename-published directories), or the object store. */
export function createSiteStorage(config: AppConfig, store: ObjectStore): SiteStorage {
  return config.storage.driver === 's3'
    ? new ObjectSiteStorage(store)
    : new LocalSiteStorage(join(config.dataDir, 'sites'));
}

/** Provides ObjectStore (every stored file) and SiteStorage (static sites on top of it). */
@Global()
@Module({
  providers: [
    { provide: ObjectStore, inject: [APP_CONFIG], useFactory: createObjectStore },
    { provide: SiteStorage, inject: [APP_CONFIG, ObjectStore], useFactory: createSiteStorage },
  ],
  exports: [ObjectStore, SiteStorage],
})
export class StorageModule implements OnApplicationShutdown {
  constructor(@Inject(ObjectStore) private readonly store: ObjectStore) {}

  onApplicationShutdown(): Promise<void> {
    return this.store.close();
  }
}
