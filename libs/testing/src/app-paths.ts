import Module from 'node:module';
import { join } from 'node:path';

const LIBS = join(__dirname, '..', '..');
const APP_PATH = /^@app\/([a-z]+)(\/.*)?$/;

/**
 * Lets code loaded by a Jest globalSetup import `@app/<library>`: Jest maps those paths for test
 * files only (moduleNameMapper), while a globalSetup is required as plain Node modules. Imported
 * first by the setup files that load the libraries (test/global-setup-*.ts).
 */
const resolver = Module as unknown as {
  _resolveFilename(request: string, ...rest: unknown[]): string;
};
const resolve = resolver._resolveFilename.bind(resolver);
resolver._resolveFilename = (request: string, ...rest: unknown[]): string => {
  const match = APP_PATH.exec(request);
  return resolve(match ? join(LIBS, match[1], 'src', match[2] ?? '') : request, ...rest);
};
