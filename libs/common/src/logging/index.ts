export * from './nest-logger';
