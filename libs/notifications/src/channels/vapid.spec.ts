import { createECDH, createPrivateKey, createPublicKey, sign, verify } from 'node:crypto';
import { deriveVapidKeys } from './vapid';

describe('deriveVapidKeys', () => {
  const secrets = Buffer.alloc(32, 7);

  it('derives the same valid P-256 pair from the same secrets key, another from another', () => {
    const keys = deriveVapidKeys(secrets);
    expect(deriveVapidKeys(secrets)).toEqual(keys);
    expect(deriveVapidKeys(Buffer.alloc(32, 8)).publicKey).not.toBe(keys.publicKey);
    const pub = Buffer.from(keys.publicKey, 'base64url');
    expect(pub).toHaveLength(65);
    expect(pub[0]).toBe(4);
    // The public key is the private key's: a signature made with one verifies with the other.
    const ecdh = createECDH('prime256v1');
    ecdh.setPrivateKey(Buffer.from(keys.privateKey, 'base64url'));
    expect(ecdh.getPublicKey().toString('base64url')).toBe(keys.publicKey);
    const jwk = {
      kty: 'EC',
      crv: 'P-256',
      x: pub.subarray(1, 33).toString('base64url'),
      y: pub.subarray(33).toString('base64url'),
    };
    const privateKey = createPrivateKey({ key: { ...jwk, d: keys.privateKey }, format: 'jwk' });
    const signature = sign('sha256', Buffer.from('hello'), privateKey);
    expect(
      verify(
        'sha256',
        Buffer.from('hello'),
        createPublicKey({ key: jwk, format: 'jwk' }),
        signature,
      ),
    ).toBe(true);
  });
});
