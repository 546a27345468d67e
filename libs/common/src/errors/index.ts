export * from './all-exceptions.filter';
export * from './app-error';
export * from './database-errors';
export * from './error-codes';
export * from './body-parser-errors';
