export * from './escape';
export * from './render';
export * from './settings';
export * from './assets';
