export * from './built-script';
export * from './thread-calls';
