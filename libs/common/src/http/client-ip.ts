import type { IncomingMessage } from 'node:http';
import { BlockList, isIP } from 'node:net';
import { BoundedCache } from '../cache/bounded-cache';

/** `::ffff:1.2.3.4` → `1.2.3.4`, so IPv4 clients look the same on dual-stack sockets. */
export function normaliseIp(ip: string): string {
  return ip.startsWith('::ffff:') && isIP(ip.slice(7)) === 4 ? ip.slice(7) : ip;
}

/** Longer than any textual IP address (45 characters): never remembered, and never trusted. */
const ADDRESS_MAX = 45;
const REMEMBERED_LIMIT = 4096;

/**
 * A dotted-quad IPv4 address as an unsigned 32-bit number, or -1 for any text that
 * `net.isIP` would not call IPv4 (leading zeros, out of range, anything else).
 */
export function parseIPv4(text: string): number {
  const length = text.length;
  if (length < 7 || length > 15) {
    return -1;
  }
  let value = 0;
  let octet = 0;
  let digits = 0;
  let dots = 0;
  for (let i = 0; i < length; i += 1) {
    const c = text.charCodeAt(i);
    if (c === 46) {
      if (digits === 0 || dots === 3) {
        return -1;
      }
      value = value * 256 + octet;
      octet = 0;
      digits = 0;
      dots += 1;
    } else if (c >= 48 && c <= 57) {
      if (digits > 0 && octet === 0) {
        return -1;
      }
      octet = octet * 10 + (c - 48);
      digits += 1;
      if (octet > 255) {
        return -1;
      }
    } else {
      return -1;
    }
  }
  return dots === 3 && digits > 0 ? value * 256 + octet : -1;
}

/** An IPv4 network: the address's first `prefix` bits, as numbers. */
interface Ipv4Network {
  base: number;
  size: number;
}

/**
 * The TRUSTED_PROXIES addresses and networks. An IPv4 address, as nearly every client is, is
 * checked against the IPv4 networks as numbers. Node's BlockList, which builds a SocketAddress for
 * every check, answers the rest (IPv6, and IPv4 against IPv6 entries); its answers are kept
 * (bounded, and only for strings short enough to be an address). With clients from many networks
 * behind a proxy, remembering answers for IPv4 too missed on most of them: the check and the
 * cache's turnover cost a sixth of a redirect's CPU in bench:redirect's mix.
 */
export class TrustedProxies {
  private readonly remembered = new BoundedCache<boolean>(REMEMBERED_LIMIT);

  constructor(
    private readonly list: BlockList,
    private readonly ipv4: readonly Ipv4Network[],
    private readonly hasIpv6: boolean,
  ) {}

  has(ip: string): boolean {
    const v4 = parseIPv4(ip);
    if (v4 >= 0) {
      for (const network of this.ipv4) {
        if (v4 - network.base >= 0 && v4 - network.base < network.size) {
          return true;
        }
      }
      if (!this.hasIpv6) {
        return false;
      }
    }
    if (ip.length > ADDRESS_MAX) {
      return false;
    }
    let trusted = this.remembered.get(ip);
    if (trusted === undefined) {
      const family = isIP(ip);
      trusted = this.remembered.set(
        ip,
        family !== 0 && this.list.check(ip, family === 6 ? 'ipv6' : 'ipv4'),
      );
    }
    return trusted;
  }
}

export function buildTrustedProxies(entries: readonly string[]): TrustedProxies | null {
  if (entries.length === 0) {
    return null;
  }
  const list = new BlockList();
  const ipv4: Ipv4Network[] = [];
  let hasIpv6 = false;
  for (const entry of entries) {
    const [address, prefix] = entry.split('/');
    const family = isIP(address) === 6 ? 'ipv6' : 'ipv4';
    const bits = prefix === undefined ? (family === 'ipv6' ? 128 : 32) : Number(prefix);
    if (prefix === undefined) {
      list.addAddress(address, family);
    } else {
      list.addSubnet(address, bits, family);
    }
    if (family === 'ipv6') {
      hasIpv6 = true;
    } else {
      const size = 2 ** (32 - bits);
      ipv4.push({ base: Math.floor(parseIPv4(address) / size) * size, size });
    }
  }
  return new TrustedProxies(list, ipv4, hasIpv6);
}

/**
 * The visitor's address: the socket's peer, unless that peer is a trusted proxy; then the
 * right-most X-Forwarded-For entry that is not itself a trusted proxy. Without TRUSTED_PROXIES the
 * header is ignored, so a client cannot choose its own address.
 */
export function clientIp(req: IncomingMessage, trusted: TrustedProxies | null): string {
  const peer = normaliseIp(req.socket.remoteAddress ?? '');
  if (trusted === null || !trusted.has(peer)) {
    return peer;
  }
  const header = req.headers['x-forwarded-for'];
  const hops = (Array.isArray(header) ? header.join(',') : (header ?? ''))
    .split(',')
    .map((h) => normaliseIp(h.trim()))
    .filter((h) => h !== '');
  for (let i = hops.length - 1; i >= 0; i -= 1) {
    const hop = hops[i];
    if (parseIPv4(hop) < 0 && isIP(hop) === 0) {
      return peer;
    }
    if (!trusted.has(hop)) {
      return hop;
    }
  }
  return hops[0] ?? peer;
}
