export * from './api-responses';
