import type { IncomingMessage } from 'node:http';
import { BlockList, isIP } from 'node:net';

/** `::ffff:1.2.3.4` → `1.2.3.4`, so IPv4 clients look the same on dual-stack sockets. */
export function normaliseIp(ip: string): string {
  return ip.startsWith('::ffff:') && isIP(ip.slice(7)) === 4 ? ip.slice(7) : ip;
}

export function buildTrustedProxies(entries: readonly string[]): BlockList | null {
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
  return list;
}

function isTrusted(list: BlockList, ip: string): boolean {
  const family = isIP(ip);
  return family !== 0 && list.check(ip, family === 6 ? 'ipv6' : 'ipv4');
}

/**
 * The visitor's address: the socket's peer, unless that peer is a trusted proxy; then the
 * right-most X-Forwarded-For entry that is not itself a trusted proxy. Without TRUSTED_PROXIES the
 * header is ignored, so a client cannot choose its own address.
 */
export function clientIp(req: IncomingMessage, trusted: BlockList | null): string {
  const peer = normaliseIp(req.socket.remoteAddress ?? '');
  if (trusted === null || !isTrusted(trusted, peer)) {
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
    if (!isTrusted(trusted, hop)) {
      return hop;
    }
  }
  return hops[0] ?? peer;
}
