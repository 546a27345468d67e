import { createHash } from 'node:crypto';
import { API_KEY_PREFIX, generateApiKey, hashApiKey } from './api-key';

const sha256 = (text: string): string => createHash('sha256').update(text, 'utf8').digest('hex');

describe(generateApiKey.name, () => {
  it('returns a prefixed base64url key of 256 bits with its hash and display prefix', () => {
    const { key, hash, prefix } = generateApiKey();

    expect(key).toMatch(/^ld_[A-Za-z0-9_-]{43}$/);
    expect(key.startsWith(API_KEY_PREFIX)).toBe(true);
    expect(Buffer.from(key.slice(3), 'base64url')).toHaveLength(32);
    expect({ hash, prefix }).toEqual({ hash: sha256(key), prefix: key.slice(0, 10) });
    expect(prefix).toHaveLength(10);
  });

  it('never returns the same key twice in 1000 draws', () => {
    const keys = Array.from({ length: 1000 }, () => generateApiKey().key);
    expect(new Set(keys).size).toBe(1000);
  });
});

describe(hashApiKey.name, () => {
  it('is the SHA-256 hex digest of the key, the same every time', () => {
    const key = 'ld_abcdefghijklmnopqrstuvwxyz0123456789ABCDEFG';

    expect(hashApiKey(key)).toBe(sha256(key));
    expect(hashApiKey(key)).toBe(hashApiKey(key));
    expect(hashApiKey(key)).toMatch(/^[0-9a-f]{64}$/);
  });

  it('gives different keys different hashes', () => {
    expect(hashApiKey('ld_a')).not.toBe(hashApiKey('ld_b'));
  });
});
