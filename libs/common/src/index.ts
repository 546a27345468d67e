export * from './errors';
export * from './events';
export * from './http';
export * from './list-query';
export * from './swagger';
export * from './time';
export * from './validation';
export * from './common.module';
