import { hashLinkPassword, verifyLinkPassword } from './link-password';

const FORMAT = /^scrypt\$16384\$8\$1\$([A-Za-z0-9_-]+)\$([A-Za-z0-9_-]+)$/;

describe(hashLinkPassword.name, () => {
  it('writes scrypt$16384$8$1$<salt>$<hash> with a 16-byte salt and a 32-byte hash', async () => {
    const stored = await hashLinkPassword('correct horse');
    const match = FORMAT.exec(stored);
    expect(match).not.toBeNull();
    const [, salt, hash] = match ?? [];
    expect({
      salt: Buffer.from(salt, 'base64url').length,
      hash: Buffer.from(hash, 'base64url').length,
    }).toEqual({ salt: 16, hash: 32 });
  });

  it('salts each hash, so two hashes of the same password differ', async () => {
    const [first, second] = await Promise.all([
      hashLinkPassword('correct horse'),
      hashLinkPassword('correct horse'),
    ]);
    expect(first).not.toEqual(second);
  });
});

describe(verifyLinkPassword.name, () => {
  let stored: string;

  beforeAll(async () => {
    stored = await hashLinkPassword('correct horse 🐴');
  });

  it('accepts the right password', async () => {
    await expect(verifyLinkPassword('correct horse 🐴', stored)).resolves.toEqual(true);
  });

  it('rejects a wrong password', async () => {
    const results = await Promise.all(
      ['correct horse', 'Correct horse 🐴', '', 'correct horse 🐴 '].map((password) =>
        verifyLinkPassword(password, stored),
      ),
    );
    expect(results).toEqual([false, false, false, false]);
  });

  it('rejects a malformed stored value', async () => {
    const results = await Promise.all(
      [
        '',
        'not-a-hash',
        'bcrypt$16384$8$1$c2FsdA$aGFzaA',
        'scrypt$16384$8$1$$aGFzaA',
        'scrypt$16384$8$1$c2FsdA',
        stored.replace(/^scrypt/, 'SCRYPT'),
      ].map((value) => verifyLinkPassword('correct horse 🐴', value)),
    );
    expect(results).toEqual([false, false, false, false, false, false]);
  });

  it('rejects a stored value whose hash decodes to no bytes, whatever the password', async () => {
    const results = await Promise.all(
      ['scrypt$16384$8$1$c2FsdHNhbHQ$!!!!', 'scrypt$16384$8$1$c2FsdHNhbHQ$A'].map((value) =>
        verifyLinkPassword('any password at all', value),
      ),
    );
    expect(results).toEqual([false, false]);
  });

  it('resolves false rather than throwing for unusable scrypt parameters', async () => {
    const results = await Promise.all(
      [
        'scrypt$abc$8$1$c2FsdHNhbHQ$aGFzaGhhc2g',
        'scrypt$1000$8$1$c2FsdHNhbHQ$aGFzaGhhc2g',
        'scrypt$1048576$8$1$c2FsdHNhbHQ$aGFzaGhhc2g',
      ].map((value) => verifyLinkPassword('correct horse 🐴', value).catch(() => 'threw')),
    );
    expect(results).toEqual([false, false, false]);
  });
});
