export * from './bounded-cache';
