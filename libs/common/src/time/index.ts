export * from './clock';
export * from './datetime';
export * from './time-zone';
