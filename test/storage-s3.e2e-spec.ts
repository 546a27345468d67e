import { existsSync } from 'node:fs';
import { join } from 'node:path';
import sharp from 'sharp';
import { LinksRepository, parseLinkSettings } from '@app/database';
import { CachingObjectStore, ObjectStore, S3ObjectStore } from '@app/storage';
import {
  createTestApp,
  startS3Server,
  TestApp,
  TestS3Server,
  TestUser,
  writeZip,
} from '@app/testing';
import { SiteSweepJob, SWEEP_GRACE_MS } from '../apps/worker/src/jobs/site-sweep.job';
import { demoSite } from './support/static-sites';

const DEMO_FILES = ['css/site.css', 'docs/index.html', 'img/logo.png', 'index.html'];

/** The same app as every other suite, with STORAGE_DRIVER=s3 on an s3rver started here. */
describe('Storage on S3 (s3rver)', () => {
  let s3: TestS3Server;
  let bucket: S3ObjectStore;
  let t: TestApp;
  let owner: TestUser;

  beforeAll(async () => {
    s3 = await startS3Server();
    bucket = new S3ObjectStore(s3.config);
    t = await createTestApp({ env: s3.env });
    owner = await t.createUser();
  });
  afterAll(async () => {
    await t?.close();
    await bucket?.close();
    await s3?.close();
  });

  async function keys(prefix: string): Promise<string[]> {
    const out: string[] = [];
    for await (const object of bucket.list(prefix)) out.push(object.key);
    return out.sort();
  }

  async function versionOf(alias: string): Promise<string> {
    const row = await t.app.get(LinksRepository).findByAlias(0, alias);
    const site = row ? parseLinkSettings(row.settings).static_site : undefined;
    if (!site) throw new Error(`${alias} is no static site`);
    return site.version;
  }

  it('uses the S3 store behind the in-memory cache', () => {
    expect(t.app.get(ObjectStore)).toBeInstanceOf(CachingObjectStore);
  });

  it('stores a site in the bucket and serves it with types, ETag/304 and ranges', async () => {
    const res = await t.http
      .post('/v1/links')
      .set('Authorization', owner.auth)
      .field({ type: 'static', name: 'S3 site', url: 's3-site' })
      .attach('file', demoSite(), 'site.zip');
    expect(res.status).toBe(201);
    const folder = (res.body as { data: { additional: { static_folder: string } } }).data.additional
      .static_folder;
    const version = await versionOf('s3-site');
    expect(await keys(`sites/${folder}/`)).toEqual(
      ['.published', ...DEMO_FILES].map((f) => `sites/${folder}/${version}/${f}`).sort(),
    );
    expect(existsSync(join(t.config.dataDir, 'sites'))).toBe(false);

    const page = await t.http.get('/s3-site/');
    expect([page.status, page.headers['content-type']]).toEqual([200, 'text/html; charset=utf-8']);
    expect(page.text).toContain('<h1 id="title">Demo</h1>');
    const css = await t.http.get('/s3-site/css/site.css');
    expect([css.status, css.headers['content-type'], css.text]).toEqual([
      200,
      'text/css; charset=utf-8',
      'h1 { color: rgb(12, 34, 56); }\n',
    ]);
    const png = await t.http.get('/s3-site/img/logo.png');
    expect([png.status, png.headers['content-type'], png.headers['content-length']]).toEqual([
      200,
      'image/png',
      '79',
    ]);
    const etag = String(css.headers.etag);
    const again = await t.http.get('/s3-site/css/site.css').set('If-None-Match', etag);
    expect([again.status, again.text]).toEqual([304, '']);
    const part = await t.http.get('/s3-site/css/site.css').set('Range', 'bytes=0-3');
    expect([part.status, part.text, part.headers['content-range']]).toEqual([
      206,
      'h1 {',
      'bytes 0-3/31',
    ]);
    const tail = await t.http.get('/s3-site/css/site.css').set('Range', 'bytes=-2');
    expect([tail.status, tail.text]).toEqual([206, '}\n']);
    expect((await t.http.get('/s3-site/missing.css')).status).toBe(404);
    expect((await t.http.get('/s3-site/.published')).status).toBe(404);
  });

  it('replaces a site under a new prefix, sweeps the old one later, and deletes all with the link', async () => {
    const created = await t.http
      .post('/v1/links')
      .set('Authorization', owner.auth)
      .field({ type: 'static', name: 'Replace', url: 's3-replace' })
      .attach('file', demoSite('v1', 'Version one'), 'v1.zip');
    expect(created.status).toBe(201);
    const { id, additional } = (
      created.body as { data: { id: number; additional: { static_folder: string } } }
    ).data;
    const folder = additional.static_folder;
    const oldVersion = await versionOf('s3-replace');
    expect((await t.http.get('/s3-replace/')).text).toContain('Version one');

    const replaced = await t.http
      .post(`/v1/links/${id}`)
      .set('Authorization', owner.auth)
      .attach(
        'file',
        writeZip([{ name: 'index.html', data: '<!doctype html><h1>Version two</h1>' }]),
        'v2.zip',
      );
    expect([replaced.status, replaced.body]).toEqual([200, { data: { id } }]);
    const newVersion = await versionOf('s3-replace');
    expect(newVersion).not.toBe(oldVersion);
    const page = await t.http.get('/s3-replace/');
    expect([page.status, page.text]).toEqual([200, '<!doctype html><h1>Version two</h1>']);
    expect((await t.http.get('/s3-replace/css/site.css')).status).toBe(404);
    // The old version stays (retired) for requests in flight and other instances.
    expect(await keys(`sites/${folder}/${oldVersion}/`)).toEqual(
      ['.published', '.retired', ...DEMO_FILES]
        .map((f) => `sites/${folder}/${oldVersion}/${f}`)
        .sort(),
    );

    const sweeper = t.app.get(SiteSweepJob);
    await sweeper.sweep(Date.now() + SWEEP_GRACE_MS - 60_000);
    expect((await keys(`sites/${folder}/${oldVersion}/`)).length).toBe(6);
    await sweeper.sweep(Date.now() + SWEEP_GRACE_MS + 60_000);
    expect(await keys(`sites/${folder}/${oldVersion}/`)).toEqual([]);
    expect(await keys(`sites/${folder}/`)).toEqual([
      `sites/${folder}/${newVersion}/.published`,
      `sites/${folder}/${newVersion}/index.html`,
    ]);

    const deleted = await t.http.delete(`/v1/links/${id}`).set('Authorization', owner.auth);
    expect([deleted.status, deleted.body]).toEqual([200, { data: { id } }]);
    expect(await keys(`sites/${folder}/`)).toEqual([]);
    expect((await t.http.get('/s3-replace/')).status).toBe(404);
  });

  it('stores rendered QR codes in the bucket and serves them at /uploads', async () => {
    const res = await t.http
      .post('/v1/qr-codes')
      .set('Authorization', owner.auth)
      .field({ name: 'Menu', type: 'url', url: 'https://example.com/menu' });
    expect(res.status).toBe(201);
    const id = (res.body as { data: { id: number } }).data.id;
    const got = await t.http.get(`/v1/qr-codes/${id}`).set('Authorization', owner.auth);
    const url = (got.body as { data: { qr_code: string } }).data.qr_code;
    expect(url).toMatch(/^http:\/\/links\.test\/uploads\/qr-codes\/[0-9a-f]{40}\.svg$/);
    const name = url.split('/').pop() as string;
    expect(await keys('uploads/qr-codes/')).toEqual([
      `uploads/qr-codes/${name.replace(/\.svg$/, '.png')}`,
      `uploads/qr-codes/${name}`,
    ]);
    expect(existsSync(join(t.config.dataDir, 'uploads'))).toBe(false);

    const svg = await t.http.get(new URL(url).pathname).buffer(true);
    expect([
      svg.status,
      svg.headers['content-type'],
      svg.headers['x-content-type-options'],
    ]).toEqual([200, 'image/svg+xml', 'nosniff']);
    expect(svg.headers['cache-control']).toBe('public, max-age=31536000, immutable');
    expect(String(svg.body)).toMatch(/^<svg xmlns="http:\/\/www\.w3\.org\/2000\/svg" width="500"/);
    const again = await t.http
      .get(new URL(url).pathname)
      .set('If-None-Match', String(svg.headers.etag));
    expect(again.status).toBe(304);
    const png = await t.http.get(new URL(url).pathname.replace(/\.svg$/, '.png'));
    expect([png.status, png.headers['content-type']]).toEqual([200, 'image/png']);
    expect(await sharp(png.body as Buffer).metadata()).toMatchObject({ format: 'png', width: 500 });

    const deleted = await t.http.delete(`/v1/qr-codes/${id}`).set('Authorization', owner.auth);
    expect(deleted.status).toBe(200);
    expect(await keys('uploads/qr-codes/')).toEqual([]);
    expect((await t.http.get(new URL(url).pathname)).status).toBe(404);
  });

  it('stores splash page images in the bucket and serves them at /uploads', async () => {
    const logo = await sharp({
      create: { width: 40, height: 20, channels: 3, background: '#336699' },
    })
      .png()
      .toBuffer();
    const res = await t.http
      .post('/v1/splash-pages')
      .set('Authorization', owner.auth)
      .field({ name: 'S3 splash' })
      .attach('logo', logo, 'logo.png');
    expect(res.status).toBe(201);
    const id = (res.body as { data: { id: number } }).data.id;
    const got = await t.http.get(`/v1/splash-pages/${id}`).set('Authorization', owner.auth);
    const url = (got.body as { data: { settings: { logo: string } } }).data.settings.logo;
    expect(url).toMatch(/^http:\/\/links\.test\/uploads\/splash-pages\/[0-9a-f]{40}\.png$/);
    expect(await keys('uploads/splash-pages/')).toEqual([
      `uploads/splash-pages/${url.split('/').pop()}`,
    ]);
    const served = await t.http.get(new URL(url).pathname);
    expect([served.status, served.headers['content-type']]).toEqual([200, 'image/png']);
    expect(await sharp(served.body as Buffer).metadata()).toMatchObject({
      format: 'png',
      width: 40,
      height: 20,
    });
    const deleted = await t.http.delete(`/v1/splash-pages/${id}`).set('Authorization', owner.auth);
    expect(deleted.status).toBe(200);
    expect(await keys('uploads/splash-pages/')).toEqual([]);
  });
});

describe('Storage public URL', () => {
  let t: TestApp;
  let owner: TestUser;

  beforeAll(async () => {
    t = await createTestApp({ env: { STORAGE_PUBLIC_URL: 'https://cdn.example.com/files/' } });
    owner = await t.createUser();
  });
  afterAll(() => t?.close());

  it('links stored files from STORAGE_PUBLIC_URL instead of the app', async () => {
    const res = await t.http
      .post('/v1/qr-codes')
      .set('Authorization', owner.auth)
      .field({ name: 'CDN', type: 'url', url: 'https://example.com/' });
    const got = await t.http
      .get(`/v1/qr-codes/${(res.body as { data: { id: number } }).data.id}`)
      .set('Authorization', owner.auth);
    const url = (got.body as { data: { qr_code: string } }).data.qr_code;
    expect(url).toMatch(
      /^https:\/\/cdn\.example\.com\/files\/uploads\/qr-codes\/[0-9a-f]{40}\.svg$/,
    );
    // The same object is still served by the app (the CDN's origin may be the app).
    const served = await t.http.get(new URL(url).pathname.replace('/files', ''));
    expect([served.status, served.headers['content-type']]).toEqual([200, 'image/svg+xml']);
  });
});
