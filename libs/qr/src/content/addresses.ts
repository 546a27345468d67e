import { sha256 } from '@noble/hashes/sha2';
import { keccak_256 } from '@noble/hashes/sha3';
import { bech32, bech32m, createBase58check } from '@scure/base';

const base58check = createBase58check(sha256);

/** Base58Check with a valid checksum and one of these version bytes (P2PKH 0x00, P2SH 0x05). */
function isBase58Address(address: string, versions: readonly number[]): boolean {
  try {
    const payload = base58check.decode(address);
    return payload.length === 21 && versions.includes(payload[0]);
  } catch {
    return false;
  }
}

/** A bech32 (BIP 173) or bech32m (BIP 350) string with this prefix, as its 5-bit words. */
function bech32Words(address: string, prefix: string, variant: typeof bech32): number[] | null {
  // Either case is allowed (upper case packs smaller in a QR code); mixed case is not.
  if (address !== address.toLowerCase() && address !== address.toUpperCase()) {
    return null;
  }
  try {
    const decoded = variant.decode(address.toLowerCase() as `${string}1${string}`, 90);
    return decoded.prefix === prefix ? decoded.words : null;
  } catch {
    return null;
  }
}

/**
 * A segwit address (BIP 173, BIP 350): witness version 0 in bech32 with a 20- or 32-byte program,
 * versions 1 to 16 in bech32m with 2 to 40 bytes.
 */
function isSegwitAddress(address: string, prefix: string): boolean {
  const v0 = bech32Words(address, prefix, bech32);
  if (v0 !== null && v0[0] === 0) {
    const program = bech32.fromWordsUnsafe(v0.slice(1));
    return program !== undefined && (program.length === 20 || program.length === 32);
  }
  const v1 = bech32Words(address, prefix, bech32m);
  if (v1 !== null && v1[0] >= 1 && v1[0] <= 16) {
    const program = bech32m.fromWordsUnsafe(v1.slice(1));
    return program !== undefined && program.length >= 2 && program.length <= 40;
  }
  return false;
}

/** A bitcoin main-network address: legacy Base58Check (1…, 3…) or segwit (bc1…). */
export function isBitcoinAddress(address: string): boolean {
  return isBase58Address(address, [0x00, 0x05]) || isSegwitAddress(address, 'bc');
}

/** A MultiversX (Elrond) address: bech32 `erd1…` of a 32-byte public key. */
export function isElrondAddress(address: string): boolean {
  const words = bech32Words(address, 'erd', bech32);
  const key = words && bech32.fromWordsUnsafe(words);
  return key !== null && key !== undefined && key.length === 32;
}

/**
 * An Ethereum address: `0x` and 40 hex digits. Mixed case is an EIP-55 checksum and must match
 * it (a mistyped letter changes the case pattern); all lower or all upper case carries none.
 */
export function isEthereumAddress(address: string): boolean {
  if (!/^0x[0-9a-fA-F]{40}$/.test(address)) {
    return false;
  }
  const hex = address.slice(2);
  if (hex === hex.toLowerCase() || hex === hex.toUpperCase()) {
    return true;
  }
  const hash = Buffer.from(keccak_256(Buffer.from(hex.toLowerCase(), 'ascii'))).toString('hex');
  return [...hex].every((ch, i) =>
    /[0-9]/.test(ch) ? true : parseInt(hash[i], 16) >= 8 === (ch === ch.toUpperCase()),
  );
}
