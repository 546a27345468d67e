export * from './api-headers';
export * from './envelope.interceptor';
export * from './id-param';
export * from './multipart.interceptor';
export * from './paginated';
export * from './request-id';
export * from './client-ip';
export * from './uploads.decorator';
