export * from './image-intake';
export * from './image-limits';
export * from './image-queue';
