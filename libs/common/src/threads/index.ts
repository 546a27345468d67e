export * from './built-script';
