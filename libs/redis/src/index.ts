export * from './counter-throttler.storage';
export * from './fallback-throttler.storage';
export * from './redis.module';
export * from './publish';
export * from './owner-locks';
