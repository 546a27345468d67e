export * from './built-script';
export * from './thread-calls';
export * from './close-thread';
