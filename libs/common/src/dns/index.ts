export * from './dns-txt.resolver';
export * from './domain-verification';
