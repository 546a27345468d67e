import { createHash } from 'node:crypto';
import { readFileSync, rmSync } from 'node:fs';
import { join } from 'node:path';
import { Readable } from 'node:stream';
import { text } from 'node:stream/consumers';
import { LocalObjectStore, ObjectSiteStorage, ObjectStore, S3ObjectStore } from '@app/storage';
import { createTestApp, startS3Server, TestApp, TestS3Server, TestUser } from '@app/testing';
import { runCli } from '../apps/cli/src/cli';
import { demoSite } from './support/static-sites';

const sha = (body: Buffer): string => createHash('sha256').update(body).digest('hex');

/** `storage:migrate` between the local disk of a running app and an s3rver bucket. */
describe('storage:migrate', () => {
  let s3: TestS3Server;
  let bucket: S3ObjectStore;
  let t: TestApp;
  let owner: TestUser;

  beforeAll(async () => {
    s3 = await startS3Server();
    bucket = new S3ObjectStore(s3.config);
    t = await createTestApp({ env: { ...s3.env, STORAGE_DRIVER: 'local' } });
    owner = await t.createUser();
  });
  afterAll(async () => {
    await t?.close();
    await bucket?.close();
    await s3?.close();
  });

  async function cli(...argv: string[]) {
    const out: string[] = [];
    const err: string[] = [];
    const code = await runCli(argv, t.config, {
      out: (line) => out.push(line),
      err: (line) => err.push(line),
    });
    return { code, out, err, result: out.length ? JSON.parse(out[out.length - 1]) : undefined };
  }

  async function keys(store: ObjectStore, prefix = ''): Promise<string[]> {
    const out: string[] = [];
    for await (const object of store.list(prefix)) out.push(object.key);
    return out.sort();
  }

  it('copies sites and uploads to S3, verified, resumably, and back to the disk', async () => {
    const site = await t.http
      .post('/v1/links')
      .set('Authorization', owner.auth)
      .field({ type: 'static', name: 'Moved', url: 'moved-site' })
      .attach('file', demoSite(), 'site.zip');
    expect(site.status).toBe(201);
    const qr = await t.http
      .post('/v1/qr-codes')
      .set('Authorization', owner.auth)
      .field({ name: 'Moved', type: 'url', url: 'https://example.com/' });
    expect(qr.status).toBe(201);
    const qrUrl = (
      await t.http
        .get(`/v1/qr-codes/${(qr.body as { data: { id: number } }).data.id}`)
        .set('Authorization', owner.auth)
    ).body.data.qr_code as string;

    const disk = new LocalObjectStore(t.config.dataDir);
    const localKeys = (await keys(disk)).filter(
      (k) => k.startsWith('sites/') || k.startsWith('uploads/'),
    );
    expect(localKeys).toHaveLength(6); // 4 site files, the QR code's SVG and PNG
    const versionPrefix = localKeys[2].split('/').slice(0, 3).join('/');
    const expectedKeys = [...localKeys, `${versionPrefix}/.published`].sort();
    const totalBytes = localKeys
      .map((k) => readFileSync(join(t.config.dataDir, k)).length)
      .reduce((a, b) => a + b, 0);

    const dry = await cli('storage:migrate', '--to', 's3', '--dry-run');
    expect([dry.code, dry.out.length, dry.result]).toEqual([
      0,
      1,
      { to: 's3', dry_run: true, objects: 7, copied: 7, skipped: 0, bytes: totalBytes },
    ]);
    expect(await keys(bucket)).toEqual([]);

    const first = await cli('storage:migrate', '--to', 's3');
    expect([first.code, first.out.length, first.result]).toEqual([
      0,
      1,
      { to: 's3', dry_run: false, objects: 7, copied: 7, skipped: 0, bytes: totalBytes },
    ]);
    expect(await keys(bucket)).toEqual(expectedKeys);
    for (const key of localKeys) {
      const copy = await (await bucket.get(key))!.buffer();
      expect([key, sha(copy)]).toEqual([key, sha(readFileSync(join(t.config.dataDir, key)))]);
    }
    // The copied version is a published site on S3.
    const [, siteId, version] = versionPrefix.split('/');
    const served = await new ObjectSiteStorage(bucket).open({ siteId, version }, 'index.html');
    expect(await text(served?.stream() ?? Readable.from([]))).toContain('<h1 id="title">Demo</h1>');

    // An interrupted or damaged copy: one object missing, one with other bytes of the same size.
    const qrKey = `uploads/qr-codes/${qrUrl.split('/').pop()}`;
    const cssKey = localKeys.find((k) => k.endsWith('css/site.css'))!;
    await bucket.delete([qrKey]);
    const css = readFileSync(join(t.config.dataDir, cssKey));
    await bucket.put(cssKey, Buffer.alloc(css.length, 'x'));
    const resumed = await cli('storage:migrate', '--to', 's3');
    expect(resumed.result).toEqual({
      to: 's3',
      dry_run: false,
      objects: 7,
      copied: 2,
      skipped: 5,
      bytes: css.length + readFileSync(join(t.config.dataDir, qrKey)).length,
    });
    expect(sha(await (await bucket.get(cssKey))!.buffer())).toBe(sha(css));
    const again = await cli('storage:migrate', '--to', 's3');
    expect(again.result).toMatchObject({ objects: 7, copied: 0, skipped: 7, bytes: 0 });

    // Back to a disk that lost its files: the app serves them again.
    rmSync(join(t.config.dataDir, 'sites'), { recursive: true, force: true });
    rmSync(join(t.config.dataDir, 'uploads'), { recursive: true, force: true });
    expect((await t.http.get(new URL(qrUrl).pathname)).status).toBe(404);
    const back = await cli('storage:migrate', '--to', 'local');
    expect(back.result).toEqual({
      to: 'local',
      dry_run: false,
      objects: 6,
      copied: 6,
      skipped: 0,
      bytes: totalBytes,
    });
    expect(
      (await keys(disk)).filter((k) => k.startsWith('sites/') || k.startsWith('uploads/')),
    ).toEqual(localKeys);
    const page = await t.http.get('/moved-site/');
    expect([page.status, page.text.includes('<h1 id="title">Demo</h1>')]).toEqual([200, true]);
    const image = await t.http.get(new URL(qrUrl).pathname);
    expect([image.status, image.headers['content-type']]).toEqual([200, 'image/svg+xml']);
  });

  it('refuses an unknown target with a validation error and exit code 1', async () => {
    const bad = await cli('storage:migrate', '--to', 'ftp');
    expect([bad.code, bad.out, JSON.parse(bad.err[0])]).toEqual([
      1,
      [],
      {
        errors: [
          {
            status: 400,
            title: '--to must be s3 or local.',
            field: 'to',
            code: 'validation_failed',
          },
        ],
      },
    ]);
  });
});
