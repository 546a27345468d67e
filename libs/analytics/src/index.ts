export { DIMENSIONS, type Dimension } from '@app/database';
export * from './analytics.module';
export * from './raw-visit';
export * from './statistics.repository';
export * from './visit-recorder.service';
export * from './visit-sink';
export * from './visit-thread';
export * from './visit-writer';
export * from './visitor-info';
