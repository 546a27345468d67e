import { createHmac, hkdfSync, randomBytes } from 'node:crypto';
import { chmodSync, existsSync, mkdirSync, readFileSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import type { AppConfig } from './app-config';
import { ConfigError } from './load-config';

export const SECRETS_KEY_FILE = 'secrets.key';

export interface ResolvedSecretsKey {
  key: Buffer;
  /** The key file it was read from (or created in); null when it came from SECRETS_KEY. */
  file: string | null;
  /** The key file, when this call generated it. */
  created: string | null;
}

/**
 * The key from SECRETS_KEY, or on embedded SQLite the one kept in `$DATA_DIR/secrets.key`
 * (created once, mode 0600), so that a plain `npm start` needs no configuration. With PostgreSQL
 * the database and the data directory may live apart, so the key must be given explicitly.
 */
export function resolveSecretsKey(config: AppConfig): ResolvedSecretsKey {
  if (config.notifications.secretsKey) {
    return { key: config.notifications.secretsKey, file: null, created: null };
  }
  if (config.database.type === 'postgres') {
    throw new ConfigError([
      'SECRETS_KEY must be set when DATABASE_URL is PostgreSQL: 32 random bytes as 64 hex digits or base64 (e.g. `openssl rand -base64 32`). It encrypts notification-handler secrets; keep it safe, without it they cannot be read.',
    ]);
  }
  const file = join(config.dataDir, SECRETS_KEY_FILE);
  if (existsSync(file)) {
    const key = Buffer.from(readFileSync(file, 'utf8').trim(), 'base64');
    if (key.length !== 32) {
      throw new ConfigError([`${file} does not hold a 32-byte base64 key`]);
    }
    return { key, file, created: null };
  }
  mkdirSync(config.dataDir, { recursive: true });
  const key = randomBytes(32);
  try {
    // 'wx': when another process created the file first, use theirs.
    writeFileSync(file, `${key.toString('base64')}\n`, { mode: 0o600, flag: 'wx' });
  } catch (error) {
    if ((error as NodeJS.ErrnoException).code === 'EEXIST') {
      return resolveSecretsKey(config);
    }
    throw error;
  }
  chmodSync(file, 0o600);
  return { key, file, created: file };
}

/**
 * A key for one purpose, derived from the secrets key (HKDF-SHA256), so that one SECRETS_KEY
 * serves every use (encrypting handler secrets, signing visitor cookies, keying visitor hashes)
 * without any two uses sharing a key.
 */
export function deriveKey(master: Buffer, purpose: string): Buffer {
  return Buffer.from(hkdfSync('sha256', master, Buffer.alloc(0), `linkdock:${purpose}`, 32));
}

/**
 * What the database stores to recognise its secrets key (table `secrets_key_check`): an HMAC under
 * a key derived for this one purpose, so the stored value tells nothing about the key itself.
 */
export function secretsKeyCheck(master: Buffer): string {
  return createHmac('sha256', deriveKey(master, 'key-check'))
    .update('linkdock secrets key check v1')
    .digest('hex');
}

/**
 * The secrets key is not the one the database's secrets were sealed with. A ConfigError, so that
 * every entry point prints it as it prints a bad variable; its message is the one line to print.
 */
export class SecretsKeyMismatchError extends ConfigError {
  constructor(line: string) {
    super([line]);
    this.message = line;
    this.name = 'SecretsKeyMismatchError';
  }
}
