import { isIP } from 'node:net';
import ipaddr from 'ipaddr.js';

const NAT64_WELL_KNOWN = ipaddr.IPv6.parseCIDR('64:ff9b::/96');
const IPV4_COMPATIBLE = ipaddr.IPv6.parseCIDR('::/96');

/**
 * Whether an outbound request may connect to this IP. Only global unicast addresses pass:
 * private, loopback, link-local, unique-local, CGNAT, multicast, unspecified and reserved ones
 * are refused.
 *
 * An IPv6 address that carries an IPv4 address is judged as the IPv4 address(es) its packets
 * would reach: IPv4-mapped `::ffff:a.b.c.d`, NAT64 `64:ff9b::a.b.c.d`, 6to4 `2002:AABB:CCDD::/48`
 * and Teredo (its server, bits 32-63, and its client, the last 32 bits inverted). A public IPv4
 * passes there too: those forms are how IPv6-only hosts (NAT64/DNS64) and old tunnels reach
 * ordinary servers, and every resolved address must pass, so refusing them would refuse hosts
 * that also publish such an AAAA record. Refused outright: IPv4-compatible `::a.b.c.d`
 * (deprecated, yet still tunnelled to the IPv4 address by some stacks) and the NAT64 local-use
 * prefix 64:ff9b:1::/48, whose IPv4 position depends on the operator's translator and which
 * leads into the operator's own network.
 */
export function isPublicAddress(ip: string): boolean {
  const address = parseStrict(ip);
  if (address === null) {
    return false;
  }
  if (address.kind() === 'ipv4') {
    return address.range() === 'unicast';
  }
  const carried = carriedIpv4(address as ipaddr.IPv6);
  if (carried === null) {
    return address.range() === 'unicast';
  }
  return carried.length > 0 && carried.every((v4) => v4.range() === 'unicast');
}

/**
 * The address in the standard text forms only (node's parser: no `127.1` or `0x7f.0.0.1`).
 * ipaddr.js reads `::a.b.c.d` as `::ffff:a.b.c.d`, which is another address, so a dotted IPv4
 * tail is rewritten as its two hex groups first.
 */
function parseStrict(ip: string): ipaddr.IPv4 | ipaddr.IPv6 | null {
  switch (isIP(ip)) {
    case 4:
      return ipaddr.IPv4.parse(ip);
    case 6:
      return ipaddr.IPv6.parse(
        ip.replace(/(\d+)\.(\d+)\.(\d+)\.(\d+)(?=%|$)/, (_match, a, b, c, d) => {
          const group = (high: string, low: string): string =>
            ((Number(high) << 8) | Number(low)).toString(16);
          return `${group(a as string, b as string)}:${group(c as string, d as string)}`;
        }),
      );
    default:
      return null;
  }
}

/**
 * The IPv4 addresses an IPv6 address leads to, null when it embeds none, or an empty list when
 * it embeds one that cannot be judged (and is refused).
 */
function carriedIpv4(v6: ipaddr.IPv6): ipaddr.IPv4[] | null {
  const bytes = v6.toByteArray();
  const ipv4 = (start: number, mask = 0): ipaddr.IPv4 =>
    new ipaddr.IPv4(bytes.slice(start, start + 4).map((b) => b ^ mask));
  // `::` and `::1` are refused as unspecified and loopback; the rest of ::/96 as deprecated.
  if (v6.match(IPV4_COMPATIBLE)) {
    return [];
  }
  const range = v6.range();
  if (range === 'ipv4Mapped') {
    return [v6.toIPv4Address()];
  }
  if (range === 'rfc6052') {
    return v6.match(NAT64_WELL_KNOWN) ? [ipv4(12)] : [];
  }
  if (range === '6to4') {
    return [ipv4(2)];
  }
  if (range === 'teredo') {
    return [ipv4(4), ipv4(12, 0xff)];
  }
  return null;
}
