export * from './clock';
export * from './datetime';
