import { randomBytes } from 'node:crypto';
import { SecretBox } from './secret-box';

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
