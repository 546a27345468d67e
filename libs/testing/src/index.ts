export * from './test-app';
export * from './test-database';
export * from './app-error-entries';
