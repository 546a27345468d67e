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
 * The TRUSTED_PROXIES addresses and networks. Node's BlockList builds a SocketAddress for every
 * check, which cost about a tenth of a redirect's CPU; the answer for each address seen is kept
 * (bounded, and only for strings short enough to be an address), so a proxy's address, checked on
 * every request, is looked up once.
 */
export class TrustedProxies {
  private readonly remembered = new BoundedCache<boolean>(REMEMBERED_LIMIT);

  constructor(private readonly list: BlockList) {}

  has(ip: string): boolean {
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
  for (const entry of entries) {
    const [address, prefix] = entry.split('/');
    const family = isIP(address) === 6 ? 'ipv6' : 'ipv4';
    if (prefix === undefined) {
      list.addAddress(address, family);
    } else {
      list.addSubnet(address, Number(prefix), family);
    }
  }
  return new TrustedProxies(list);
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
    if (isIP(hop) === 0) {
      return peer;
    }
    if (!trusted.has(hop)) {
      return hop;
    }
  }
  return hops[0] ?? peer;
}
