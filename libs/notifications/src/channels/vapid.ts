import { createECDH } from 'node:crypto';
import { deriveKey } from '@app/config';

/** The order of P-256: a private key is a number from 1 to n - 1. */
const P256_ORDER = BigInt('0xffffffff00000000ffffffffffffffffbce6faada7179e84f3b9cac2fc632551');

export interface VapidKeys {
  /** 65-byte uncompressed P-256 point, base64url: what browsers pass as applicationServerKey. */
  publicKey: string;
  /** 32-byte P-256 private key, base64url. */
  privateKey: string;
}

/**
 * The installation's VAPID key pair: derived from the secrets key (HKDF, purpose
 * `vapid-p256`), so that every instance and the worker sign with the same pair without storing
 * or configuring one. The derived 32 bytes are a valid P-256 key unless they are 0 or ≥ n
 * (probability about 2⁻³²); then the next counter is tried.
 */
export function deriveVapidKeys(secretsKey: Buffer): VapidKeys {
  for (let i = 0; ; i += 1) {
    const candidate = deriveKey(secretsKey, i === 0 ? 'vapid-p256' : `vapid-p256-${i}`);
    const value = BigInt(`0x${candidate.toString('hex')}`);
    if (value === 0n || value >= P256_ORDER) continue;
    const ecdh = createECDH('prime256v1');
    ecdh.setPrivateKey(candidate);
    return {
      publicKey: ecdh.getPublicKey().toString('base64url'),
      privateKey: candidate.toString('base64url'),
    };
  }
}
