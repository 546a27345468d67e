export * from './caching-object-store';
export * from './local-object-store';
export * from './local-site-storage';
export * from './object-site-storage';
export * from './object-store';
export * from './s3-object-store';
export * from './site-storage';
export * from './storage.module';
