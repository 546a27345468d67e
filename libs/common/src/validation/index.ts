export * from './checked';
export * from './email';
export * from './form-boolean';
export * from './form-decorators';
export * from './http-url';
export * from './validation.pipe';
export * from './is-object';
