export * from './app-config';
export * from './app-secret';
export * from './config.module';
export * from './load-config';
