export { DIMENSIONS, type Dimension } from '@app/database';
export * from './analytics.module';
export * from './statistics.repository';
export * from './visit-writer';
