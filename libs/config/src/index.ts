export * from './app-config';
export * from './config.module';
export * from './load-config';
export * from './notifications-config';
export * from './secrets-key';
export * from './storage-config';
export * from './startup-failure';
export * from './worker-process';
