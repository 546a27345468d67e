import { Reflector } from '@nestjs/core';
import type { AppConfig } from '@app/config';
import { mkdirSync, mkdtempSync, readdirSync, rmSync, utimesSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { MultipartInterceptor } from './multipart.interceptor';

describe(MultipartInterceptor.name, () => {
  let dataDir: string;

  beforeEach(() => {
    dataDir = mkdtempSync(join(tmpdir(), 'linkdock-uploads-'));
  });
  afterEach(() => rmSync(dataDir, { recursive: true, force: true }));

  it('removes upload files a stopped process left behind, and only those', async () => {
    const dir = join(dataDir, 'tmp', 'uploads');
    mkdirSync(dir, { recursive: true });
    const stale = `${'a'.repeat(32)}.upload`;
    const fresh = `${'b'.repeat(32)}.upload`;
    writeFileSync(join(dir, stale), 'x');
    writeFileSync(join(dir, fresh), 'x');
    writeFileSync(join(dir, 'other.txt'), 'x');
    const twoHoursAgo = new Date(Date.now() - 2 * 60 * 60 * 1000);
    utimesSync(join(dir, stale), twoHoursAgo, twoHoursAgo);
    utimesSync(join(dir, 'other.txt'), twoHoursAgo, twoHoursAgo);

    const interceptor = new MultipartInterceptor(new Reflector(), { dataDir } as AppConfig);
    expect(await interceptor.removeStaleUploads()).toBe(1);
    expect(readdirSync(dir).sort()).toEqual([fresh, 'other.txt']);
  });

  it('does nothing when no upload was ever written', async () => {
    const interceptor = new MultipartInterceptor(new Reflector(), { dataDir } as AppConfig);
    expect(await interceptor.removeStaleUploads()).toBe(0);
  });
});
