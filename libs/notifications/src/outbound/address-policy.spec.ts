import ipaddr from 'ipaddr.js';
import { isPublicAddress } from './address-policy';

describe(isPublicAddress.name, () => {
  it.each([
    '127.0.0.1',
    '127.5.6.7',
    '10.0.0.1',
    '172.16.0.1',
    '172.31.255.255',
    '192.168.1.1',
    '169.254.169.254',
    '100.64.0.1',
    '0.0.0.0',
    '224.0.0.1',
    '255.255.255.255',
    '192.0.2.1',
    '::',
    '::1',
    'fe80::1',
    'fc00::1',
    'fd12:3456::1',
    'ff02::1',
    '::ffff:127.0.0.1',
    '::ffff:10.0.0.1',
    '::ffff:169.254.169.254',
    '::ffff:0:7f00:1',
    'not-an-ip',
  ])('refuses %s', (ip) => {
    expect(isPublicAddress(ip)).toBe(false);
  });

  it.each(['93.184.216.34', '8.8.8.8', '172.32.0.1', '2606:4700:4700::1111', '::ffff:8.8.8.8'])(
    'allows %s',
    (ip) => {
      expect(isPublicAddress(ip)).toBe(true);
    },
  );

  /**
   * IPv6 addresses that carry an IPv4 address, with the IPv4 address a stack or translator would
   * deliver to. Each form is written the way an attacker would, and checked against ipaddr.js's
   * own reading of the range, so that the table tests the policy and not a typo.
   */
  describe('IPv6 addresses that embed an IPv4 address', () => {
    const cases: [string, string, string, boolean][] = [
      // IPv4-compatible (::a.b.c.d, deprecated by RFC 4291): refused whatever it embeds.
      ['::7f00:1', 'unicast', '127.0.0.1', false],
      ['::a9fe:a9fe', 'unicast', '169.254.169.254', false],
      ['::a00:1', 'unicast', '10.0.0.1', false],
      ['::c0a8:101', 'unicast', '192.168.1.1', false],
      ['::808:808', 'unicast', '8.8.8.8', false],
      // NAT64 well-known prefix 64:ff9b::/96 (RFC 6052): judged as the IPv4 address.
      ['64:ff9b::7f00:1', 'rfc6052', '127.0.0.1', false],
      ['64:ff9b::a00:1', 'rfc6052', '10.0.0.1', false],
      ['64:ff9b::a9fe:a9fe', 'rfc6052', '169.254.169.254', false],
      ['64:ff9b::6440:1', 'rfc6052', '100.64.0.1', false],
      ['64:ff9b::808:808', 'rfc6052', '8.8.8.8', true],
      // NAT64 local-use 64:ff9b:1::/48 (RFC 8215): where the IPv4 sits depends on the operator's
      // prefix length, so it cannot be judged, and it leads into the operator's network: refused.
      ['64:ff9b:1::a00:1', 'rfc6052', '10.0.0.1', false],
      ['64:ff9b:1::808:808', 'rfc6052', '8.8.8.8', false],
      ['64:ff9b:1:a00:0:100::', 'rfc6052', '10.0.0.1', false],
      // 6to4 2002::/16 (RFC 3056): the IPv4 address is bits 16-47.
      ['2002:7f00:1::', '6to4', '127.0.0.1', false],
      ['2002:a00:1::1', '6to4', '10.0.0.1', false],
      ['2002:a9fe:a9fe::', '6to4', '169.254.169.254', false],
      ['2002:c0a8:101:1::1', '6to4', '192.168.1.1', false],
      ['2002:808:808::1', '6to4', '8.8.8.8', true],
      // Teredo 2001::/32 (RFC 4380): the server is bits 32-63, the client the last 32 bits
      // inverted; both are contacted, so both must be public.
      ['2001:0:808:808::80ff:fffe', 'teredo', '127.0.0.1', false],
      ['2001:0:808:808::f5ff:fffe', 'teredo', '10.0.0.1', false],
      ['2001:0:808:808::5601:5601', 'teredo', '169.254.169.254', false],
      // A public client behind a private Teredo server (10.0.0.1).
      ['2001:0:a00:1::f7f7:f7f7', 'teredo', '8.8.8.8', false],
      ['2001:0:4136:e378:8000:63bf:f7f7:f7f7', 'teredo', '8.8.8.8', true],
    ];

    it.each(cases)('%s (%s, carrying %s) is public: %s', (ip, range, ipv4, allowed) => {
      expect(ipaddr.parse(ip).range()).toBe(range);
      expect(carried(ip)).toContain(ipv4);
      expect(isPublicAddress(ip)).toBe(allowed);
    });

    // ipaddr.js parses `::a.b.c.d` as `::ffff:a.b.c.d`; node and WHATWG URL read it as ::/96.
    it.each([
      ['::127.0.0.1', false],
      ['::10.0.0.1', false],
      ['::169.254.169.254', false],
      ['::8.8.8.8', false],
      ['::ffff:8.8.8.8', true],
      ['::ffff:127.0.0.1', false],
      ['64:ff9b::10.0.0.1', false],
      ['64:ff9b::8.8.8.8', true],
      ['2002:808:808::127.0.0.1', true],
    ])('reads the dotted form %s as node does (public: %s)', (ip, allowed) => {
      expect(isPublicAddress(ip)).toBe(allowed);
    });
  });

  it.each(['127.1', '0x7f.0.0.1', '2130706433', '010.0.0.1', '8.8.8.8.', '[::1]'])(
    'refuses the non-standard spelling %s',
    (ip) => {
      expect(isPublicAddress(ip)).toBe(false);
    },
  );
});

/**
 * The IPv4 address an embedding carries, read byte by byte as each RFC lays it out: the low 32
 * bits (IPv4-compatible, NAT64 /96), bits 16-47 (6to4), the low 32 bits inverted (Teredo's
 * client). Under the local-use NAT64 prefix it is either the low 32 bits (a /96 translator) or
 * bits 48-63 and 72-87 around the u octet (a /48 one): the address alone does not say which.
 */
function carried(ip: string): string[] {
  const address = ipaddr.IPv6.parse(ip);
  const b = address.toByteArray();
  const v4 = (bytes: number[]): string => ipaddr.fromByteArray(bytes).toString();
  const range = address.range();
  if (range === '6to4') {
    return [v4(b.slice(2, 6))];
  }
  if (range === 'teredo') {
    return [v4(b.slice(12, 16).map((x) => x ^ 0xff))];
  }
  if (range === 'rfc6052' && !address.match(ipaddr.IPv6.parseCIDR('64:ff9b::/96'))) {
    return [v4(b.slice(12, 16)), v4([b[6], b[7], b[9], b[10]])];
  }
  return [v4(b.slice(12, 16))];
}
