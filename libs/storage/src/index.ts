export * from './local-site-storage';
export * from './site-storage';
export * from './storage.module';
