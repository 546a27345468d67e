export * from './form-boolean';
export * from './form-decorators';
export * from './validation.pipe';
export * from './is-object';
