import { randomBytes } from 'node:crypto';
import { mkdtempSync, readFileSync, rmSync, statSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { ConfigError, loadConfig } from '@app/config';
import { resolveSecretsKey, SecretBox } from './secret-box';

describe(SecretBox.name, () => {
  const box = new SecretBox(randomBytes(32));

  it('round-trips, with a fresh IV each time', () => {
    const a = box.encrypt('xoxb-secret');
    const b = box.encrypt('xoxb-secret');
    expect(a).not.toBe(b);
    expect(a).not.toContain('xoxb');
    expect(box.decrypt(a)).toBe('xoxb-secret');
  });

  it('refuses a tampered value and another key', () => {
    const sealed = box.encrypt('token');
    const parts = sealed.split('.');
    const data = Buffer.from(parts[3], 'base64url');
    data[0] ^= 1;
    parts[3] = data.toString('base64url');
    expect(() => box.decrypt(parts.join('.'))).toThrow();
    expect(() => new SecretBox(randomBytes(32)).decrypt(sealed)).toThrow();
    expect(() => box.decrypt('plain text')).toThrow('Not a sealed secret');
  });
});

describe(resolveSecretsKey.name, () => {
  let dir: string;
  beforeEach(() => {
    dir = mkdtempSync(join(tmpdir(), 'secrets-'));
  });
  afterEach(() => rmSync(dir, { recursive: true, force: true }));

  it('uses SECRETS_KEY when set', () => {
    const key = randomBytes(32);
    const config = loadConfig({ DATA_DIR: dir, SECRETS_KEY: key.toString('base64') });
    expect(resolveSecretsKey(config)).toEqual({ key, created: null });
  });

  it('on SQLite without SECRETS_KEY creates a 0600 key file once, then reuses it', () => {
    const config = loadConfig({ DATA_DIR: dir });
    const first = resolveSecretsKey(config);
    const file = join(dir, 'secrets.key');
    expect(first.created).toBe(file);
    expect(statSync(file).mode & 0o777).toBe(0o600);
    expect(Buffer.from(readFileSync(file, 'utf8').trim(), 'base64')).toEqual(first.key);
    expect(resolveSecretsKey(config)).toEqual({ key: first.key, created: null });
  });

  it('on PostgreSQL without SECRETS_KEY refuses to start, naming the variable', () => {
    const config = loadConfig({ DATA_DIR: dir, DATABASE_URL: 'postgres://db/linkdock' });
    expect(() => resolveSecretsKey(config)).toThrow(ConfigError);
    expect(() => resolveSecretsKey(config)).toThrow(
      /SECRETS_KEY must be set when DATABASE_URL is PostgreSQL/,
    );
  });
});
