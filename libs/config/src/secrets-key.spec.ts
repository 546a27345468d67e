import { createHmac, randomBytes } from 'node:crypto';
import { mkdtempSync, readFileSync, rmSync, statSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { ConfigError, loadConfig } from './load-config';
import {
  deriveKey,
  resolveSecretsKey,
  SecretsKeyMismatchError,
  secretsKeyCheck,
} from './secrets-key';

describe(resolveSecretsKey.name, () => {
  let dir: string;
  beforeEach(() => {
    dir = mkdtempSync(join(tmpdir(), 'secrets-'));
  });
  afterEach(() => rmSync(dir, { recursive: true, force: true }));

  it('uses SECRETS_KEY when set', () => {
    const key = randomBytes(32);
    const config = loadConfig({ DATA_DIR: dir, SECRETS_KEY: key.toString('base64') });
    expect(resolveSecretsKey(config)).toEqual({ key, file: null, created: null });
  });

  it('on SQLite without SECRETS_KEY creates a 0600 key file once, then reuses it', () => {
    const config = loadConfig({ DATA_DIR: dir });
    const first = resolveSecretsKey(config);
    const file = join(dir, 'secrets.key');
    expect(first).toMatchObject({ file, created: file });
    expect(statSync(file).mode & 0o777).toBe(0o600);
    expect(Buffer.from(readFileSync(file, 'utf8').trim(), 'base64')).toEqual(first.key);
    expect(resolveSecretsKey(config)).toEqual({ key: first.key, file, created: null });
  });

  it('on PostgreSQL without SECRETS_KEY refuses to start, naming the variable', () => {
    const config = loadConfig({ DATA_DIR: dir, DATABASE_URL: 'postgres://db/linkdock' });
    expect(() => resolveSecretsKey(config)).toThrow(ConfigError);
    expect(() => resolveSecretsKey(config)).toThrow(
      /SECRETS_KEY must be set when DATABASE_URL is PostgreSQL/,
    );
  });
});

describe(deriveKey.name, () => {
  it('gives each purpose its own stable 32-byte key', () => {
    const master = randomBytes(32);
    const a = deriveKey(master, 'edge');
    expect(a).toHaveLength(32);
    expect(deriveKey(master, 'edge').equals(a)).toBe(true);
    expect(deriveKey(master, 'other').equals(a)).toBe(false);
    expect(deriveKey(randomBytes(32), 'edge').equals(a)).toBe(false);
  });
});

describe(secretsKeyCheck.name, () => {
  it('is the HMAC-SHA256 of a fixed text under the key derived for key checks', () => {
    const master = Buffer.alloc(32, 7);
    expect(secretsKeyCheck(master)).toBe(
      createHmac('sha256', deriveKey(master, 'key-check'))
        .update('linkdock secrets key check v1')
        .digest('hex'),
    );
    expect(secretsKeyCheck(master)).toMatch(/^[0-9a-f]{64}$/);
    expect(secretsKeyCheck(Buffer.alloc(32, 8))).not.toBe(secretsKeyCheck(master));
  });
});

describe(SecretsKeyMismatchError.name, () => {
  it('is a ConfigError whose message is its one line', () => {
    const error = new SecretsKeyMismatchError('SECRETS_KEY does not match.');
    expect(error).toBeInstanceOf(ConfigError);
    expect(error.message).toBe('SECRETS_KEY does not match.');
  });
});
