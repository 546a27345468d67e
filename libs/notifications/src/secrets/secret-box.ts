import { createCipheriv, createDecipheriv, randomBytes } from 'node:crypto';
import { chmodSync, existsSync, mkdirSync, readFileSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { AppConfig, ConfigError } from '@app/config';

const VERSION = 'v1';

/** AES-256-GCM for secrets at rest: `v1.<iv>.<tag>.<ciphertext>`, each part base64url. */
export class SecretBox {
  constructor(private readonly key: Buffer) {
    if (key.length !== 32) {
      throw new Error('SecretBox needs a 32-byte key');
    }
  }

  encrypt(plain: string): string {
    const iv = randomBytes(12);
    const cipher = createCipheriv('aes-256-gcm', this.key, iv);
    const data = Buffer.concat([cipher.update(plain, 'utf8'), cipher.final()]);
    return [VERSION, iv, cipher.getAuthTag(), data]
      .map((p) => (typeof p === 'string' ? p : p.toString('base64url')))
      .join('.');
  }

  /** Throws when the value was not sealed with this key or was tampered with. */
  decrypt(sealed: string): string {
    const [version, iv, tag, data] = sealed.split('.');
    if (version !== VERSION || iv === undefined || tag === undefined || data === undefined) {
      throw new Error('Not a sealed secret');
    }
    const decipher = createDecipheriv('aes-256-gcm', this.key, Buffer.from(iv, 'base64url'));
    decipher.setAuthTag(Buffer.from(tag, 'base64url'));
    return Buffer.concat([
      decipher.update(Buffer.from(data, 'base64url')),
      decipher.final(),
    ]).toString('utf8');
  }
}

export const SECRETS_KEY_FILE = 'secrets.key';

/**
 * The key from SECRETS_KEY, or on embedded SQLite the one kept in `$DATA_DIR/secrets.key`
 * (created once, mode 0600), so that a plain `npm start` needs no configuration. With PostgreSQL
 * the database and the data directory may live apart, so the key must be given explicitly.
 */
export function resolveSecretsKey(config: AppConfig): { key: Buffer; created: string | null } {
  if (config.notifications.secretsKey) {
    return { key: config.notifications.secretsKey, created: null };
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
    return { key, created: null };
  }
  mkdirSync(config.dataDir, { recursive: true });
  const key = randomBytes(32);
  writeFileSync(file, `${key.toString('base64')}\n`, { mode: 0o600, flag: 'wx' });
  chmodSync(file, 0o600);
  return { key, created: file };
}
