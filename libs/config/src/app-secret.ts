import { randomBytes } from 'node:crypto';
import { chmodSync, mkdirSync, readFileSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import type { AppConfig } from './app-config';

export const APP_SECRET_FILE = 'app-secret';

/**
 * The key that signs visitor cookies and keys visitor hashes: APP_SECRET, or else a random key
 * generated once into DATA_DIR (mode 0600) and reused by every later start. Several instances must
 * share it: set APP_SECRET, or give them the same DATA_DIR.
 */
export function resolveAppSecret(config: Pick<AppConfig, 'appSecret' | 'dataDir'>): Buffer {
  if (config.appSecret !== null) {
    return Buffer.from(config.appSecret, 'utf8');
  }
  const file = join(config.dataDir, APP_SECRET_FILE);
  try {
    return Buffer.from(readFileSync(file, 'utf8').trim(), 'base64url');
  } catch (error) {
    if ((error as NodeJS.ErrnoException).code !== 'ENOENT') {
      throw error;
    }
  }
  mkdirSync(config.dataDir, { recursive: true });
  const secret = randomBytes(32);
  try {
    // 'wx': when another process created the file first, read theirs instead.
    writeFileSync(file, secret.toString('base64url'), { mode: 0o600, flag: 'wx' });
    chmodSync(file, 0o600);
    return secret;
  } catch (error) {
    if ((error as NodeJS.ErrnoException).code === 'EEXIST') {
      return Buffer.from(readFileSync(file, 'utf8').trim(), 'base64url');
    }
    throw error;
  }
}
