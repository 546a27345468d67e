export * from './app-error-entries';
export * from './test-app';
export * from './test-database';
export * from './dns-server';
export * from './fixtures';
export * from './zip-writer';
export * from './browser';
export * from './cleanup';
