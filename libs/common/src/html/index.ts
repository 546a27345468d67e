export * from './escape-html';
