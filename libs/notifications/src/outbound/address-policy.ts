import ipaddr from 'ipaddr.js';

/**
 * Whether an outbound request may connect to this IP. Only global unicast addresses pass:
 * private, loopback, link-local, unique-local, CGNAT, multicast, unspecified, reserved and the
 * IPv6 transition ranges are refused; an IPv4-mapped IPv6 address is judged as its IPv4 address.
 */
export function isPublicAddress(ip: string): boolean {
  if (!ipaddr.isValid(ip)) {
    return false;
  }
  let address = ipaddr.parse(ip);
  if (address.kind() === 'ipv6') {
    const v6 = address as ipaddr.IPv6;
    if (v6.isIPv4MappedAddress()) {
      address = v6.toIPv4Address();
    }
  }
  return address.range() === 'unicast';
}
