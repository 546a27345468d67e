export * from './form-decorators';
export * from './validation.pipe';
