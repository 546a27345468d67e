import { crc32, deflateRawSync } from 'node:zlib';

/** One entry of a crafted archive. Everything a hostile archive lies about can be set. */
export interface ZipEntrySpec {
  name: string;
  data?: Buffer | string;
  /** Deflate (default) or store. */
  method?: 'deflate' | 'store';
  /** Unix mode in the high 16 bits of the external attributes, e.g. 0o120777 for a symlink. */
  unixMode?: number;
  /** Overrides the uncompressed size written in both headers (a lying archive). */
  declaredSize?: number;
}

const VERSION_MADE_BY_UNIX = (3 << 8) | 20;

/**
 * Writes a zip archive in memory, for tests. Normal zip tools refuse to write the hostile
 * archives the static-site tests need (`../` names, symlinks, lying sizes), so this writes the
 * format directly: local headers, data, central directory, end record (no zip64).
 */
export function writeZip(entries: readonly ZipEntrySpec[]): Buffer {
  const locals: Buffer[] = [];
  const centrals: Buffer[] = [];
  let offset = 0;
  for (const spec of entries) {
    const name = Buffer.from(spec.name, 'utf8');
    const data =
      typeof spec.data === 'string' ? Buffer.from(spec.data) : (spec.data ?? Buffer.alloc(0));
    const method = spec.method ?? (data.length === 0 ? 'store' : 'deflate');
    const body = method === 'deflate' ? deflateRawSync(data) : data;
    const crc = crc32(data);
    const size = spec.declaredSize ?? data.length;
    const isFolder = spec.name.endsWith('/');
    const mode = spec.unixMode ?? (isFolder ? 0o40755 : 0o100644);
    const flags = 0x0800; // names are UTF-8

    const local = Buffer.alloc(30);
    local.writeUInt32LE(0x04034b50, 0);
    local.writeUInt16LE(20, 4);
    local.writeUInt16LE(flags, 6);
    local.writeUInt16LE(method === 'deflate' ? 8 : 0, 8);
    local.writeUInt32LE(0, 10); // time and date
    local.writeUInt32LE(crc, 14);
    local.writeUInt32LE(body.length, 18);
    local.writeUInt32LE(size, 22);
    local.writeUInt16LE(name.length, 26);
    local.writeUInt16LE(0, 28);
    locals.push(local, name, body);

    const central = Buffer.alloc(46);
    central.writeUInt32LE(0x02014b50, 0);
    central.writeUInt16LE(VERSION_MADE_BY_UNIX, 4);
    central.writeUInt16LE(20, 6);
    central.writeUInt16LE(flags, 8);
    central.writeUInt16LE(method === 'deflate' ? 8 : 0, 10);
    central.writeUInt32LE(0, 12);
    central.writeUInt32LE(crc, 16);
    central.writeUInt32LE(body.length, 20);
    central.writeUInt32LE(size, 24);
    central.writeUInt16LE(name.length, 28);
    central.writeUInt16LE(0, 30); // extra
    central.writeUInt16LE(0, 32); // comment
    central.writeUInt16LE(0, 34); // disk
    central.writeUInt16LE(0, 36); // internal attributes
    central.writeUInt32LE(((mode & 0xffff) << 16) >>> 0, 38);
    central.writeUInt32LE(offset, 42);
    centrals.push(central, name);
    offset += local.length + name.length + body.length;
  }
  const directory = Buffer.concat(centrals);
  const end = Buffer.alloc(22);
  end.writeUInt32LE(0x06054b50, 0);
  end.writeUInt16LE(entries.length, 8);
  end.writeUInt16LE(entries.length, 10);
  end.writeUInt32LE(directory.length, 12);
  end.writeUInt32LE(offset, 16);
  return Buffer.concat([...locals, directory, end]);
}
