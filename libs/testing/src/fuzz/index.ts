export * from './encode';
export * from './fuzz-http';
export * from './known-cases';
export * from './openapi-model';
export * from './request-arbitrary';
export * from './schema-arbitraries';
export * from './values';
export * from './visitor-requests';
