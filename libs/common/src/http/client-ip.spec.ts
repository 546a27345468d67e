import type { IncomingMessage } from 'node:http';
import { BlockList, isIP } from 'node:net';
import fc from 'fast-check';
import { buildTrustedProxies, clientIp, normaliseIp, parseIPv4 } from './client-ip';

function request(
  remoteAddress: string | undefined,
  forwardedFor?: string | string[],
): IncomingMessage {
  const headers = forwardedFor === undefined ? {} : { 'x-forwarded-for': forwardedFor };
  return { socket: { remoteAddress }, headers } as unknown as IncomingMessage;
}

describe(normaliseIp.name, () => {
  it('strips the IPv4-mapped prefix from a dual-stack address', () => {
    expect(normaliseIp('::ffff:1.2.3.4')).toEqual('1.2.3.4');
  });

  it('keeps plain IPv4 and IPv6 addresses as they are', () => {
    expect([normaliseIp('1.2.3.4'), normaliseIp('2001:db8::1'), normaliseIp('::1')]).toEqual([
      '1.2.3.4',
      '2001:db8::1',
      '::1',
    ]);
  });

  it('keeps a ::ffff: prefix that is not followed by an IPv4 address', () => {
    expect([normaliseIp('::ffff:abcd'), normaliseIp('::ffff:')]).toEqual([
      '::ffff:abcd',
      '::ffff:',
    ]);
  });
});

describe(buildTrustedProxies.name, () => {
  it('returns null for an empty list', () => {
    expect(buildTrustedProxies([])).toBeNull();
  });

  it('matches single addresses and CIDR ranges of both families', () => {
    const list = buildTrustedProxies(['10.0.0.1', '192.168.0.0/16', 'fd00::/8', '2001:db8::5']);
    expect(list).not.toBeNull();
    const check = (ip: string): boolean => list!.has(ip);
    expect({
      single: check('10.0.0.1'),
      singleNeighbour: check('10.0.0.2'),
      v4Range: check('192.168.200.7'),
      v4Outside: check('192.169.0.1'),
      v6Range: check('fd12:3456::1'),
      v6Outside: check('fe80::1'),
      v6Single: check('2001:db8::5'),
      v6SingleNeighbour: check('2001:db8::6'),
    }).toEqual({
      single: true,
      singleNeighbour: false,
      v4Range: true,
      v4Outside: false,
      v6Range: true,
      v6Outside: false,
      v6Single: true,
      v6SingleNeighbour: false,
    });
  });
});

describe(parseIPv4.name, () => {
  it('reads exactly what net.isIP calls IPv4, as its number', () => {
    const text = fc.oneof(
      fc.ipV4(),
      fc.ipV4Extended(),
      fc.ipV6(),
      fc.string({ maxLength: 16 }),
      fc.stringMatching(/^[0-9.]{1,16}$/),
    );
    fc.assert(
      fc.property(text, (ip) => {
        const expected =
          isIP(ip) === 4 ? ip.split('.').reduce((n, part) => n * 256 + Number(part), 0) : -1;
        expect(parseIPv4(ip)).toBe(expected);
      }),
      { numRuns: 20_000 },
    );
  });
});

describe('TrustedProxies', () => {
  it("answers as Node's BlockList for any addresses and networks of both families", () => {
    const v4Entry = fc
      .tuple(fc.ipV4(), fc.option(fc.integer({ min: 0, max: 32 })))
      .map(([address, bits]) => (bits === null ? address : `${address}/${bits}`));
    const v6Entry = fc
      .tuple(fc.ipV6(), fc.option(fc.integer({ min: 0, max: 128 })))
      .map(([address, bits]) => (bits === null ? address : `${address}/${bits}`));
    fc.assert(
      fc.property(
        fc.array(fc.oneof(v4Entry, v4Entry, v6Entry), { minLength: 1, maxLength: 5 }),
        fc.array(fc.oneof(fc.ipV4(), fc.ipV6()), { maxLength: 20 }),
        (entries, addresses) => {
          const reference = new BlockList();
          for (const entry of entries) {
            const [address, bits] = entry.split('/');
            const family = isIP(address) === 6 ? 'ipv6' : 'ipv4';
            if (bits === undefined) reference.addAddress(address, family);
            else reference.addSubnet(address, Number(bits), family);
          }
          const trusted = buildTrustedProxies(entries)!;
          // Addresses inside the entries' networks too, not only random ones.
          const near = entries.map((e) => e.split('/')[0]);
          for (const ip of [...addresses, ...near]) {
            const family = isIP(ip) === 6 ? 'ipv6' : 'ipv4';
            expect([ip, trusted.has(ip)]).toEqual([ip, reference.check(ip, family)]);
          }
        },
      ),
      { numRuns: 2_000 },
    );
  });

  it('gives the same answers once they are remembered, and after the memory is full', () => {
    const list = buildTrustedProxies(['10.0.0.0/8', 'fd00::/8'])!;
    const addresses = Array.from({ length: 5000 }, (_, i) => `10.${i >> 8}.${i & 255}.1`);
    const outside = Array.from({ length: 5000 }, (_, i) => `11.${i >> 8}.${i & 255}.1`);
    const answers = (): boolean[] => [...addresses, ...outside].map((ip) => list.has(ip));
    const first = answers();
    expect(first.filter(Boolean)).toHaveLength(5000);
    expect(first.slice(0, 5000).every(Boolean)).toBe(true);
    expect(answers()).toEqual(first);
    expect([list.has('fd00::1'), list.has('fd00::1'), list.has('fe80::1')]).toEqual([
      true,
      true,
      false,
    ]);
  });

  it('trusts nothing that is not an address, however long', () => {
    const list = buildTrustedProxies(['10.0.0.0/8'])!;
    expect([list.has(''), list.has('10.0.0.1 '), list.has('10.0.0.1'.repeat(1000))]).toEqual([
      false,
      false,
      false,
    ]);
  });
});

describe(clientIp.name, () => {
  const trusted = buildTrustedProxies(['10.0.0.0/8', '127.0.0.1', 'fd00::/8']);

  it('returns the socket address and ignores X-Forwarded-For without a trusted list', () => {
    expect(clientIp(request('203.0.113.9', '198.51.100.1'), null)).toEqual('203.0.113.9');
  });

  it('normalises an IPv4-mapped socket address', () => {
    expect(clientIp(request('::ffff:203.0.113.9'), null)).toEqual('203.0.113.9');
  });

  it('returns an empty string when the socket has no address', () => {
    expect(clientIp(request(undefined, '198.51.100.1'), trusted)).toEqual('');
  });

  it('ignores the header when the peer is not a trusted proxy', () => {
    expect(clientIp(request('203.0.113.9', '198.51.100.1'), trusted)).toEqual('203.0.113.9');
  });

  it('returns the peer when a trusted proxy sends no header', () => {
    expect(clientIp(request('10.1.2.3'), trusted)).toEqual('10.1.2.3');
  });

  it('returns the right-most untrusted hop when the peer is trusted', () => {
    expect(clientIp(request('10.1.2.3', '1.1.1.1, 198.51.100.1'), trusted)).toEqual('198.51.100.1');
  });

  it('treats an IPv4-mapped trusted peer as trusted', () => {
    expect(clientIp(request('::ffff:127.0.0.1', '198.51.100.1'), trusted)).toEqual('198.51.100.1');
  });

  it('skips several trusted IPv4 hops', () => {
    expect(
      clientIp(request('10.0.0.1', '198.51.100.1, 10.9.9.9, 127.0.0.1, 10.0.0.2'), trusted),
    ).toEqual('198.51.100.1');
  });

  it('skips several trusted IPv6 hops', () => {
    expect(clientIp(request('fd00::1', '2001:db8::42, fd12::7, fdff:ffff::1'), trusted)).toEqual(
      '2001:db8::42',
    );
  });

  it('normalises IPv4-mapped hops', () => {
    expect(clientIp(request('10.0.0.1', '::ffff:198.51.100.1, ::ffff:10.0.0.9'), trusted)).toEqual(
      '198.51.100.1',
    );
  });

  it('falls back to the peer when a hop is malformed', () => {
    expect(clientIp(request('10.0.0.1', '198.51.100.1, not-an-ip'), trusted)).toEqual('10.0.0.1');
  });

  it('falls back to the peer when a malformed hop sits behind trusted ones', () => {
    expect(clientIp(request('10.0.0.1', 'garbage, 10.0.0.5'), trusted)).toEqual('10.0.0.1');
  });

  it('does not look past the right-most untrusted hop', () => {
    expect(clientIp(request('10.0.0.1', 'not-an-ip, 198.51.100.1'), trusted)).toEqual(
      '198.51.100.1',
    );
  });

  it('ignores empty entries in the header', () => {
    expect(clientIp(request('10.0.0.1', ' , 198.51.100.1 ,,'), trusted)).toEqual('198.51.100.1');
  });

  it('returns the left-most hop when every hop is trusted', () => {
    expect(clientIp(request('10.0.0.1', '10.0.0.7, 10.0.0.8'), trusted)).toEqual('10.0.0.7');
  });

  it('reads a header given as an array', () => {
    expect(
      clientIp(request('10.0.0.1', ['203.0.113.5, 198.51.100.1', '10.0.0.2']), trusted),
    ).toEqual('198.51.100.1');
  });
});
