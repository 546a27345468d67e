import { mkdirSync, mkdtempSync, readdirSync, rmSync, utimesSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import multer from 'multer';
import type { AppConfig } from '@app/config';
import { AppError } from '../errors/app-error';
import { MultipartParser, multipartError } from './multipart';

describe(MultipartParser.name, () => {
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

    const interceptor = new MultipartParser({ dataDir } as AppConfig);
    expect(await interceptor.removeStaleUploads()).toBe(1);
    expect(readdirSync(dir).sort()).toEqual([fresh, 'other.txt']);
  });

  it('does nothing when no upload was ever written', async () => {
    const interceptor = new MultipartParser({ dataDir } as AppConfig);
    expect(await interceptor.removeStaleUploads()).toBe(0);
  });
});

describe(multipartError.name, () => {
  const entry = (error: Error) => (error instanceof AppError ? error.toEntries() : error);

  it.each([
    [
      'Multipart: Boundary not found',
      'The multipart/form-data body has no boundary in its Content-Type header.',
    ],
    ['Unexpected end of form', 'The multipart/form-data body ends before its closing boundary.'],
    ['Unexpected end of file', 'The multipart/form-data body ends before its closing boundary.'],
    ['Malformed part header', 'The multipart/form-data body has a malformed part header.'],
    ['Request aborted', 'The client closed the connection before the body was complete.'],
    ['Request closed', 'The client closed the connection before the body was complete.'],
    ['something busboy says one day', 'The multipart/form-data body could not be read.'],
  ])('answers %j with 400 malformed_body', (message, title) => {
    expect(entry(multipartError(new Error(message)))).toEqual([
      { status: 400, title, code: 'malformed_body' },
    ]);
  });

  it('takes a connection reset for a client that went away', () => {
    const reset = Object.assign(new Error('aborted'), { code: 'ECONNRESET' });
    expect(entry(multipartError(reset))).toEqual([
      {
        status: 400,
        title: 'The client closed the connection before the body was complete.',
        code: 'malformed_body',
      },
    ]);
  });

  it('leaves limits to their MulterError and server faults to the 500 they are', () => {
    const limit = new multer.MulterError('LIMIT_PART_COUNT');
    const disk = Object.assign(new Error('ENOSPC: no space left on device'), { code: 'ENOSPC' });
    const bug = new TypeError("Cannot read properties of undefined (reading 'x')");
    expect(multipartError(limit)).toBe(limit);
    expect(multipartError(disk)).toBe(disk);
    expect(multipartError(bug)).toBe(bug);
  });
});
