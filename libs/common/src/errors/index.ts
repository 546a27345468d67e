export * from './all-exceptions.filter';
export * from './app-error';
export * from './body-parser-errors';
export * from './client-errors';
export * from './database-errors';
export * from './error-codes';
