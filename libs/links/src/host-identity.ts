import { isIP } from 'node:net';
import ipaddr from 'ipaddr.js';

/** What every loopback name and address stands for: they all reach the machine itself. */
export const LOOPBACK_HOST = 'localhost';

/**
 * The server a URL's host names, for telling whether two URLs reach the same one. Takes the
 * `hostname` of a WHATWG URL, which has already folded case, turned IDNs into punycode and read
 * decimal, hex and octal IPv4 spellings (`2130706433`, `0x7f.1`, `0177.0.0.1`) as dotted quads.
 * On top of that: trailing dots and IPv6 brackets go, an IPv4-mapped IPv6 address becomes its
 * IPv4 address, and every loopback spelling (`localhost`, `*.localhost`, 127.0.0.0/8, `::1`, and
 * the unspecified 0.0.0.0 and `::`, which connect to the local machine) becomes LOOPBACK_HOST.
 */
export function hostIdentity(hostname: string): string {
  let host = hostname.toLowerCase().replace(/\.+$/, '');
  if (host.startsWith('[') && host.endsWith(']')) {
    host = host.slice(1, -1);
  }
  if (host === LOOPBACK_HOST || host.endsWith(`.${LOOPBACK_HOST}`)) {
    return LOOPBACK_HOST;
  }
  if (isIP(host) === 0) {
    return host;
  }
  let address = ipaddr.parse(host);
  if (address.kind() === 'ipv6' && (address as ipaddr.IPv6).isIPv4MappedAddress()) {
    address = (address as ipaddr.IPv6).toIPv4Address();
  }
  const range = address.range();
  return range === 'loopback' || range === 'unspecified' ? LOOPBACK_HOST : address.toString();
}

/**
 * The server a URL reaches: its host identity, and for the local machine also its port, since
 * one machine serves many things on loopback (a destination at `localhost:8080` is not this
 * service at `localhost:3000`). On other hosts the port is left out: a URL on this service's own
 * name is refused whatever its port.
 */
export function serverIdentity(url: URL): string {
  const host = hostIdentity(url.hostname);
  if (host !== LOOPBACK_HOST) {
    return host;
  }
  return `${host}:${url.port || (url.protocol === 'https:' ? '443' : '80')}`;
}
