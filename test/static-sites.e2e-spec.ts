import { randomBytes } from 'node:crypto';
import { existsSync, readdirSync, rmSync, utimesSync, writeFileSync } from 'node:fs';
import { createServer, get as httpGet } from 'node:http';
import type { AddressInfo } from 'node:net';
import { join, resolve } from 'node:path';
import { deflateRawSync } from 'node:zlib';
import { VisitRecorder } from '@app/analytics';
import { LinksRepository, parseLinkSettings, StaticSiteSettings } from '@app/database';
import { SiteStorage } from '@app/storage';
import { createTestApp, insertDomain, TestApp, TestUser, writeZip } from '@app/testing';
import { compileLink } from '../apps/api/src/visitor/cache/visitor-link';
import {
  SITE_ACCESS_RENEW_SECONDS,
  SITE_ACCESS_SECONDS,
  signSiteAccess,
} from '../apps/api/src/visitor/static/site-access';
import { VISITOR_SECRET } from '../apps/api/src/visitor/visitor-secret';
import { SiteSweepJob, SWEEP_GRACE_MS } from '../apps/worker/src/jobs/site-sweep.job';
import { demoSite, PNG_2X2, storedSiteFiles } from './support/static-sites';

const DATETIME = /^\d{4}-\d{2}-\d{2} \d{2}:\d{2}:\d{2}$/;
const FOLDER = /^[0-9a-f]{24}$/;
const CHROME =
  'Mozilla/5.0 (Windows NT 10.0; Win64; x64) AppleWebKit/537.36 (KHTML, like Gecko) Chrome/131.0.0.0 Safari/537.36';
const MIB = 1024 * 1024;
const DEMO_CSS = 'h1 { color: rgb(12, 34, 56); }\n';

function staticSettings(name: string, password = false): Record<string, unknown> {
  return {
    http_status_code: 302,
    sensitive_content: false,
    schedule: false,
    clicks_limit: null,
    expiration_url: null,
    forward_query_parameters_is_enabled: false,
    utm: { source: null, medium: null, campaign: null },
    name,
    password,
    targeting_type: false,
    targeting_country_code: [],
    targeting_continent_code: [],
    targeting_device_type: [],
    targeting_os_name: [],
    targeting_browser_name: [],
    targeting_browser_language: [],
    targeting_rotation: [],
  };
}

const DEMO_FILES = ['index.html', 'css/site.css', 'img/logo.png', 'docs/index.html'];

describe('Static sites', () => {
  let t: TestApp;
  let owner: TestUser;
  let stranger: TestUser;

  beforeAll(async () => {
    t = await createTestApp({
      env: {
        STATIC_MAX_BYTES: String(2 * MIB),
        STATIC_MAX_FILES: '50',
        STATIC_MAX_UPLOAD_BYTES: String(4 * MIB),
      },
    });
    owner = await t.createUser();
    stranger = await t.createUser();
  });
  afterAll(() => t?.close());

  function upload(
    path: string,
    fields: Record<string, string>,
    file?: { name: string; data: Buffer | string },
    user: TestUser = owner,
  ) {
    let req = t.http.post(path).set('Authorization', user.auth);
    for (const [key, value] of Object.entries(fields)) {
      req = req.field(key, value);
    }
    if (file) {
      req = req.attach('file', Buffer.from(file.data), file.name);
    }
    return req;
  }

  function create(fields: Record<string, string>, file?: { name: string; data: Buffer | string }) {
    return upload('/v1/links', { type: 'static', ...fields }, file);
  }

  async function linkCount(): Promise<number> {
    const rows = await t.dataSource.query<Array<{ n: number | string }>>(
      'SELECT COUNT(*) AS n FROM links',
    );
    return Number(rows[0].n);
  }

  /** Page views of people; `bots` true: those of bots and HEAD requests, recorded apart. */
  async function pageViews(linkId: number, bots = false): Promise<number> {
    await t.app.get(VisitRecorder).flush();
    const rows = await t.dataSource.query<Array<{ n: number | string }>>(
      `SELECT COUNT(*) AS n FROM visits WHERE link_id = ${Number(linkId)} AND "bot" IS ${bots ? 'NOT ' : ''}NULL`,
    );
    return Number(rows[0].n);
  }

  /** The site a link points at, read from its row. */
  async function siteOf(alias: string): Promise<StaticSiteSettings> {
    const row = await t.app.get(LinksRepository).findByAlias(0, alias);
    const site = row ? parseLinkSettings(row.settings).static_site : undefined;
    if (!site) throw new Error(`${alias} is no static site`);
    return site;
  }

  function siteFiles(folder: string): string[] {
    return storedSiteFiles(t.config.dataDir).filter((p) => p.startsWith(`sites/${folder}/`));
  }

  /**
   * Makes the next read of link `id` by the API (LinksRepository.findOwned) wait, after it read
   * the row, until `release()`: the window in which a concurrent request can change the link.
   */
  function pauseAfterRead(id: number) {
    const repo = t.app.get(LinksRepository);
    const original = repo.findOwned.bind(repo);
    let release = (): void => undefined;
    const gate = new Promise<void>((done) => (release = done));
    let reached = (): void => undefined;
    const read = new Promise<void>((done) => (reached = done));
    let paused = false;
    const spy = jest.spyOn(repo, 'findOwned').mockImplementation(async (ownerId, linkId) => {
      const row = await original(ownerId, linkId);
      if (!paused && linkId === id) {
        paused = true;
        reached();
        await gate;
      }
      return row;
    });
    return { read, release: () => release(), restore: () => spy.mockRestore() };
  }

  /** Runs a request that must fail and proves it left no row and no file behind. */
  async function refused(
    send: () => PromiseLike<{ status: number; body: unknown }>,
  ): Promise<{ status: number; body: unknown }> {
    const rows = await linkCount();
    const files = storedSiteFiles(t.config.dataDir);
    const res = await send();
    expect(await linkCount()).toBe(rows);
    expect(storedSiteFiles(t.config.dataDir)).toEqual(files);
    return { status: res.status, body: res.body };
  }

  describe('API', () => {
    it('creates a site from a zip whose files sit in one top-level folder, and answers the whole link', async () => {
      const res = await create(
        { name: 'Demo site', url: 'demo-site' },
        { name: 'site.zip', data: demoSite() },
      );
      expect(res.status).toBe(201);
      const body = res.body as { data: { id: number; additional: { static_folder: string } } };
      expect(body).toEqual({
        data: {
          id: expect.any(Number),
          type: 'static',
          url: 'demo-site',
          location_url: null,
          full_url: 'http://links.test/demo-site',
          domain_id: 0,
          project_id: null,
          splash_page_id: null,
          settings: staticSettings('Demo site'),
          clicks: 0,
          bot_clicks: 0,
          is_enabled: true,
          start_date: null,
          end_date: null,
          last_datetime: null,
          datetime: expect.stringMatching(DATETIME),
          preview_title: null,
          preview_description: null,
          preview_image_url: null,
          destination_status: 'unknown',
          destination_status_code: null,
          destination_checked_datetime: null,
          additional: {
            mode: 'zip',
            static_folder: expect.stringMatching(FOLDER),
            files: DEMO_FILES,
            total_files: 4,
          },
        },
      });
      const folder = body.data.additional.static_folder;
      const stored = storedSiteFiles(t.config.dataDir).filter((p) =>
        p.startsWith(`sites/${folder}/`),
      );
      expect(stored.map((p) => p.split('/').slice(3).join('/')).sort()).toEqual(
        [...DEMO_FILES].sort(),
      );

      const got = await t.http.get(`/v1/links/${body.data.id}`).set('Authorization', owner.auth);
      expect(got.status).toBe(200);
      expect(got.body).toEqual(body);
      const list = await t.http
        .get('/v1/links/?search=demo-site&search_by=url')
        .set('Authorization', owner.auth);
      expect((list.body as { data: unknown[] }).data).toEqual([body.data]);
    });

    it('publishes a single .html upload as index.html, with a password and a random alias', async () => {
      const res = await create(
        { name: 'One page', password: 'open sesame', is_enabled: '0' },
        { name: 'Page.HTML', data: '<!doctype html><title>One</title><p>one page</p>' },
      );
      expect(res.status).toBe(201);
      const data = (res.body as { data: Record<string, unknown> }).data;
      expect(data).toMatchObject({
        type: 'static',
        url: expect.stringMatching(/^[a-z0-9]{7}$/),
        is_enabled: false,
        settings: staticSettings('One page', true),
        additional: {
          mode: 'html',
          static_folder: expect.stringMatching(FOLDER),
          files: ['index.html'],
          total_files: 1,
        },
      });
    });

    it.each([
      [
        'a missing name',
        {},
        { name: 'a.html', data: '<p>x' },
        [{ status: 400, title: 'name is required.', field: 'name', code: 'validation_failed' }],
      ],
      [
        'a name of 129 characters',
        { name: 'n'.repeat(129) },
        { name: 'a.html', data: '<p>x' },
        [
          {
            status: 400,
            title: 'name must be shorter than or equal to 128 characters.',
            field: 'name',
            code: 'validation_failed',
          },
        ],
      ],
      [
        'a password of 65 characters',
        { name: 'Site', password: 'p'.repeat(65) },
        { name: 'a.html', data: '<p>x' },
        [
          {
            status: 400,
            title: 'password must be shorter than or equal to 64 characters.',
            field: 'password',
            code: 'validation_failed',
          },
        ],
      ],
      [
        'no file',
        { name: 'Site' },
        undefined,
        [{ status: 400, title: 'file is required.', field: 'file', code: 'validation_failed' }],
      ],
      [
        'a file of another type',
        { name: 'Site' },
        { name: 'notes.txt', data: 'hello' },
        [
          {
            status: 400,
            title: 'file must be a .html page or a .zip archive.',
            field: 'file',
            code: 'validation_failed',
          },
        ],
      ],
      [
        'a zip without index.html',
        { name: 'Site' },
        { name: 'site.zip', data: writeZip([{ name: 'about.html', data: '<p>about' }]) },
        [
          {
            status: 400,
            title: 'file must have index.html at its root or inside one top-level folder.',
            field: 'file',
            code: 'archive_rejected',
          },
        ],
      ],
      [
        'a zip whose index.html is two folders deep',
        { name: 'Site' },
        { name: 'site.zip', data: writeZip([{ name: 'a/b/index.html', data: '<p>deep' }]) },
        [
          {
            status: 400,
            title: 'file must have index.html at its root or inside one top-level folder.',
            field: 'file',
            code: 'archive_rejected',
          },
        ],
      ],
      [
        'a .zip that is no archive',
        { name: 'Site' },
        { name: 'site.zip', data: 'this is not a zip file at all' },
        [
          {
            status: 400,
            title: expect.stringMatching(/^file is not a readable \.zip archive \(.+\)\.$/),
            field: 'file',
            code: 'archive_rejected',
          },
        ],
      ],
      [
        'an alias that is taken',
        { name: 'Site', url: 'demo-site' },
        { name: 'a.html', data: '<p>x' },
        [
          {
            status: 400,
            title: 'The alias "demo-site" is already taken on this domain.',
            field: 'url',
            code: 'alias_taken',
          },
        ],
      ],
    ])('refuses %s with 400, leaving no row and no file', async (_case, fields, file, errors) => {
      const res = await refused(() => create(fields, file));
      expect(res).toEqual({ status: 400, body: { errors } });
    });

    it('refuses a file on a link that is not static', async () => {
      const res = await refused(() =>
        upload(
          '/v1/links',
          { location_url: 'https://example.com/' },
          { name: 'a.html', data: '<p>x' },
        ),
      );
      expect(res).toEqual({
        status: 400,
        body: {
          errors: [
            {
              status: 400,
              title: 'file is only for links of type static.',
              field: 'file',
              code: 'validation_failed',
            },
          ],
        },
      });
    });

    it('refuses a NUL character in a field beside an upload, and removes the uploaded file', async () => {
      const uploads = join(t.config.dataDir, 'tmp', 'uploads');
      const res = await refused(() =>
        create({ name: 'a\u0000b' }, { name: 'site.zip', data: demoSite() }),
      );
      expect(res).toEqual({
        status: 400,
        body: {
          errors: [
            {
              status: 400,
              title: 'name must not contain a NUL character.',
              field: 'name',
              code: 'validation_failed',
            },
          ],
        },
      });
      // The file was written to disk by the multipart step before the NUL check refused it.
      expect(existsSync(uploads) ? readdirSync(uploads) : []).toEqual([]);
    });

    it('refuses an upload over STATIC_MAX_UPLOAD_BYTES with 413', async () => {
      const res = await refused(() =>
        create({ name: 'Big' }, { name: 'big.html', data: Buffer.alloc(4 * MIB + 1, 0x61) }),
      );
      expect(res).toEqual({
        status: 413,
        body: {
          errors: [
            {
              status: 413,
              title: 'file must be at most 4 MB.',
              field: 'file',
              code: 'payload_too_large',
            },
          ],
        },
      });
    });

    it('replaces a site at once, keeps the old version for the sweeper, and deletes the files with the link', async () => {
      const created = await create(
        { name: 'Replace me', url: 'replace-me' },
        { name: 's.zip', data: demoSite('v1', 'Version one') },
      );
      const { id, additional } = (
        created.body as { data: { id: number; additional: { static_folder: string } } }
      ).data;
      const folder = additional.static_folder;
      const before = siteFiles(folder);
      expect((await t.http.get('/replace-me/')).text).toContain('Version one');
      // The old version was written long ago: its grace period counts from its retirement.
      const oldVersion = (await siteOf('replace-me')).version;
      const longAgo = new Date(Date.now() - 2 * SWEEP_GRACE_MS);
      utimesSync(join(t.config.dataDir, 'sites', folder, oldVersion), longAgo, longAgo);

      const replaced = await upload(
        `/v1/links/${id}`,
        { name: 'Replaced' },
        {
          name: 'new.zip',
          data: writeZip([
            { name: 'index.html', data: '<!doctype html><h1>Version two</h1>' },
            { name: 'app.js', data: 'console.log(2);' },
          ]),
        },
      );
      expect([replaced.status, replaced.body]).toEqual([200, { data: { id } }]);
      const newVersion = (await siteOf('replace-me')).version;
      expect(newVersion).not.toBe(oldVersion);
      const inVersion = (version: string) =>
        siteFiles(folder)
          .filter((p) => p.split('/')[2] === version)
          .map((p) => p.split('/').slice(3).join('/'))
          .sort();
      expect(inVersion(newVersion)).toEqual(['app.js', 'index.html']);
      // Requests in flight, other instances and cached links may still read the old version.
      expect(inVersion(oldVersion)).toEqual([...DEMO_FILES].sort());

      const page = await t.http.get('/replace-me/');
      expect([page.status, page.text]).toEqual([200, '<!doctype html><h1>Version two</h1>']);
      expect((await t.http.get('/replace-me/css/site.css')).status).toBe(404);
      const got = await t.http.get(`/v1/links/${id}`).set('Authorization', owner.auth);
      expect((got.body as { data: unknown }).data).toMatchObject({
        settings: staticSettings('Replaced'),
        last_datetime: expect.stringMatching(DATETIME),
        additional: {
          mode: 'zip',
          static_folder: folder,
          files: ['index.html', 'app.js'],
          total_files: 2,
        },
      });

      // The sweeper removes the retired version once it has been retired for its grace period.
      const sweeper = t.app.get(SiteSweepJob);
      await sweeper.sweep(Date.now() + SWEEP_GRACE_MS - 60_000);
      expect(inVersion(oldVersion)).toEqual([...DEMO_FILES].sort());
      await sweeper.sweep(Date.now() + SWEEP_GRACE_MS + 60_000);
      expect(inVersion(oldVersion)).toEqual([]);
      expect(inVersion(newVersion)).toEqual(['app.js', 'index.html']);
      expect(before.some((p) => siteFiles(folder).includes(p))).toBe(false);

      // A bad replacement changes nothing: the current version stays, nothing new is written.
      const bad = await refused(() =>
        upload(
          `/v1/links/${id}`,
          {},
          { name: 'x.zip', data: writeZip([{ name: 'x.css', data: 'a{}' }]) },
        ),
      );
      expect(bad.status).toBe(400);
      expect((await t.http.get('/replace-me/')).text).toBe('<!doctype html><h1>Version two</h1>');

      // Deleting the link deletes its files at once.
      const deleted = await t.http.delete(`/v1/links/${id}`).set('Authorization', owner.auth);
      expect([deleted.status, deleted.body]).toEqual([200, { data: { id } }]);
      expect(siteFiles(folder)).toEqual([]);
      expect((await t.http.get('/replace-me/')).status).toBe(404);
    });

    it('keeps a replace that lands while a metadata update of the same link is in progress', async () => {
      const created = await create(
        { name: 'Race', url: 'race-site' },
        { name: 'a.html', data: '<p>one' },
      );
      const { id } = (created.body as { data: { id: number } }).data;
      const pause = pauseAfterRead(id);
      try {
        const metadata = upload(`/v1/links/${id}`, { name: 'Renamed', is_enabled: '1' }).then(
          (res) => res,
        );
        await pause.read;
        const replaced = await upload(`/v1/links/${id}`, {}, { name: 'b.html', data: '<p>two' });
        expect(replaced.status).toBe(200);
        pause.release();
        const res = await metadata;
        expect([res.status, res.body]).toEqual([200, { data: { id } }]);
      } finally {
        pause.restore();
      }
      const page = await t.http.get('/race-site/');
      expect([page.status, page.text]).toEqual([200, '<p>two']);
      const got = await t.http.get(`/v1/links/${id}`).set('Authorization', owner.auth);
      expect((got.body as { data: { settings: { name: string } } }).data.settings.name).toBe(
        'Renamed',
      );
    });

    it('answers 404 to a replace of a link deleted meanwhile, and removes the new version', async () => {
      const created = await create(
        { name: 'Doomed', url: 'doomed-site' },
        { name: 'a.html', data: '<p>one' },
      );
      const { id, additional } = (
        created.body as { data: { id: number; additional: { static_folder: string } } }
      ).data;
      const pause = pauseAfterRead(id);
      let res;
      try {
        const replace = upload(`/v1/links/${id}`, {}, { name: 'b.html', data: '<p>two' }).then(
          (r) => r,
        );
        await pause.read;
        const deleted = await t.http.delete(`/v1/links/${id}`).set('Authorization', owner.auth);
        expect(deleted.status).toBe(200);
        pause.release();
        res = await replace;
      } finally {
        pause.restore();
      }
      expect([res.status, res.body]).toEqual([
        404,
        {
          errors: [
            {
              status: 404,
              title: 'The link you are looking for does not exist.',
              code: 'link_not_found',
            },
          ],
        },
      ]);
      expect(siteFiles(additional.static_folder)).toEqual([]);
    });

    it('answers 404, not 500, to a replace whose folder a delete removes before it is published', async () => {
      const created = await create(
        { name: 'Vanishing', url: 'vanishing-site' },
        { name: 'a.html', data: '<p>one' },
      );
      const { id, additional } = (
        created.body as { data: { id: number; additional: { static_folder: string } } }
      ).data;
      const storage = t.app.get(SiteStorage);
      const createDraft = storage.createDraft.bind(storage);
      const spy = jest.spyOn(storage, 'createDraft').mockImplementationOnce(async (siteId) => {
        const draft = await createDraft(siteId);
        return {
          ...draft,
          publish: async () => {
            const deleted = await t.http.delete(`/v1/links/${id}`).set('Authorization', owner.auth);
            expect(deleted.status).toBe(200);
            await draft.publish();
          },
        };
      });
      let res;
      try {
        res = await upload(`/v1/links/${id}`, {}, { name: 'b.html', data: '<p>two' });
      } finally {
        spy.mockRestore();
      }
      expect([
        res.status,
        (res.body as { errors: Array<{ code: string }> }).errors[0].code,
      ]).toEqual([404, 'link_not_found']);
      expect(siteFiles(additional.static_folder)).toEqual([]);
    });

    it('answers 400 to multipart bodies without a boundary or cut before the closing boundary', async () => {
      const noBoundary = await t.http
        .post('/v1/links')
        .set('Authorization', owner.auth)
        .set('Content-Type', 'multipart/form-data')
        .send('type=static');
      const cut = await t.http
        .post('/v1/links')
        .set('Authorization', owner.auth)
        .set('Content-Type', 'multipart/form-data; boundary=XyZ')
        .send(
          '--XyZ\r\nContent-Disposition: form-data; name="type"\r\n\r\nstatic\r\n--XyZ\r\nConte',
        );
      expect([noBoundary.status, noBoundary.body]).toEqual([
        400,
        {
          errors: [
            {
              status: 400,
              title: 'The multipart/form-data body has no boundary in its Content-Type header.',
              code: 'malformed_body',
            },
          ],
        },
      ]);
      expect([cut.status, cut.body]).toEqual([
        400,
        {
          errors: [
            {
              status: 400,
              title: 'The multipart/form-data body ends before its closing boundary.',
              code: 'malformed_body',
            },
          ],
        },
      ]);
    });

    it('stores the NFD names of macOS archives as NFC and serves them to NFC and NFD requests', async () => {
      const nfd = 'cafe\u0301/Cre\u0300me.css';
      const res = await create(
        { name: 'Unicode', url: 'unicode-site' },
        {
          name: 'u.zip',
          data: writeZip([
            { name: 'index.html', data: '<p>unicode' },
            { name: nfd, data: 'p{}' },
          ]),
        },
      );
      expect(res.status).toBe(201);
      const nfc = nfd.normalize('NFC');
      expect(nfc).not.toBe(nfd);
      expect(
        (res.body as { data: { additional: { files: string[] } } }).data.additional.files,
      ).toEqual(['index.html', nfc]);
      for (const name of [nfc, nfd]) {
        const path = `/unicode-site/${name.split('/').map(encodeURIComponent).join('/')}`;
        const css = await t.http.get(path);
        expect([path, css.status, css.text]).toEqual([path, 200, 'p{}']);
      }
    });

    it('sweeps the files of sites whose links went with their domain, and keeps the others', async () => {
      const domainId = await insertDomain(t, owner.id, 'sites.example.com');
      const onDomain = await create(
        { name: 'On a domain', domain_id: String(domainId) },
        { name: 'a.html', data: '<p>domain' },
      );
      expect(onDomain.status).toBe(201);
      const gone = (onDomain.body as { data: { additional: { static_folder: string } } }).data
        .additional.static_folder;
      const kept = await create({ name: 'Kept' }, { name: 'a.html', data: '<p>kept' });
      const keptFolder = (kept.body as { data: { additional: { static_folder: string } } }).data
        .additional.static_folder;
      const deleted = await t.http
        .delete(`/v1/domains/${domainId}`)
        .set('Authorization', owner.auth);
      expect(deleted.status).toBe(200);
      const siteFiles = (folder: string) =>
        storedSiteFiles(t.config.dataDir).filter((p) => p.startsWith(`sites/${folder}/`));
      expect(siteFiles(gone)).toHaveLength(1);

      const sweeper = t.app.get(SiteSweepJob);
      await sweeper.sweep(Date.now() + SWEEP_GRACE_MS - 60_000); // too young to be swept
      expect(siteFiles(gone)).toHaveLength(1);
      expect(await sweeper.sweep(Date.now() + SWEEP_GRACE_MS + 60_000)).toBeGreaterThanOrEqual(1);
      expect(siteFiles(gone)).toEqual([]);
      expect(siteFiles(keptFolder)).toHaveLength(1);
      expect(storedSiteFiles(t.config.dataDir).filter((p) => p.includes('.draft-'))).toEqual([]);
    });

    it('removes the new files when the database write fails, on create and on replace', async () => {
      const repo = t.app.get(LinksRepository);
      const insert = jest
        .spyOn(repo, 'insertWithEvents')
        .mockRejectedValueOnce(new Error('database down'));
      const failed = await refused(() =>
        create({ name: 'Unlucky' }, { name: 'a.html', data: '<p>unlucky' }),
      );
      insert.mockRestore();
      expect(failed.status).toBe(500);

      const created = await create(
        { name: 'Lucky', url: 'lucky-site' },
        { name: 'a.html', data: '<p>first' },
      );
      const { id } = (created.body as { data: { id: number } }).data;
      const update = jest
        .spyOn(repo, 'updateOwnedIf')
        .mockRejectedValueOnce(new Error('database down'));
      const replaced = await refused(() =>
        upload(`/v1/links/${id}`, {}, { name: 'b.html', data: '<p>second' }),
      );
      update.mockRestore();
      expect(replaced.status).toBe(500);
      expect((await t.http.get('/lucky-site/')).text).toBe('<p>first');
    });

    it("answers 404 for another user's static link and writes nothing", async () => {
      const created = await create({ name: 'Mine' }, { name: 'a.html', data: '<p>mine' });
      const { id } = (created.body as { data: { id: number } }).data;
      const res = await refused(() =>
        upload(`/v1/links/${id}`, {}, { name: 'b.html', data: '<p>theirs' }, stranger),
      );
      expect(res).toEqual({
        status: 404,
        body: {
          errors: [
            {
              status: 404,
              title: 'The link you are looking for does not exist.',
              code: 'link_not_found',
            },
          ],
        },
      });
    });
  });

  describe('hostile archives', () => {
    const site = (extra: Parameters<typeof writeZip>[0]) =>
      writeZip([{ name: 'index.html', data: '<p>ok' }, { name: 'a.css', data: 'a{}' }, ...extra]);

    function problem(status: number, title: string, code: string) {
      return { status, body: { errors: [{ status, title, field: 'file', code }] } };
    }

    it.each([
      [
        'zip slip with ../',
        '../evil.html',
        'file has an entry whose path leaves the site folder (invalid relative path: ../evil.html).',
      ],
      [
        'a nested ../',
        'css/../../evil.html',
        'file has an entry whose path leaves the site folder (invalid relative path: css/../../evil.html).',
      ],
      [
        'an absolute path',
        '/etc/evil.html',
        'file has an entry whose path leaves the site folder (absolute path: /etc/evil.html).',
      ],
      [
        'a drive letter',
        'C:/evil.html',
        'file has an entry whose path leaves the site folder (absolute path: C:/evil.html).',
      ],
      [
        'a backslash',
        '..\\evil.html',
        'file has an entry whose path leaves the site folder (invalid characters in fileName: ..\\evil.html).',
      ],
    ])('refuses %s with 400 and leaves nothing behind', async (_case, name, title) => {
      const res = await refused(() =>
        create({ name: 'Hostile' }, { name: 'h.zip', data: site([{ name, data: '<p>evil' }]) }),
      );
      expect(res).toEqual(problem(400, title, 'archive_rejected'));
    });

    it('refuses a symbolic link entry with 400 and leaves nothing behind', async () => {
      const res = await refused(() =>
        create(
          { name: 'Hostile' },
          {
            name: 'h.zip',
            data: site([
              { name: 'passwd.txt', data: '/etc/passwd', unixMode: 0o120777, method: 'store' },
            ]),
          },
        ),
      );
      expect(res).toEqual(
        problem(
          400,
          'file has a symbolic link ("passwd.txt"); only regular files are accepted.',
          'archive_rejected',
        ),
      );
    });

    it('refuses an archive that declares more than STATIC_MAX_BYTES with 413', async () => {
      const bomb = deflateRawSync(Buffer.alloc(3 * MIB));
      expect(bomb.length).toBeLessThan(10_000);
      const res = await refused(() =>
        create(
          { name: 'Bomb' },
          { name: 'b.zip', data: site([{ name: 'zeros.txt', data: Buffer.alloc(3 * MIB) }]) },
        ),
      );
      expect(res).toEqual(
        problem(
          413,
          `file unpacks to more than ${2 * MIB} bytes; that is the most a site may have.`,
          'payload_too_large',
        ),
      );
    });

    it('refuses an entry that inflates past the compression ratio limit with 413', async () => {
      // Beside a large incompressible file, so that the archive as a whole stays within the ratio.
      const noise = randomBytes(400 * 1024);
      const res = await refused(() =>
        create(
          { name: 'Bomb' },
          {
            name: 'b.zip',
            data: site([
              { name: 'noise.bin.txt', data: noise, method: 'store' },
              { name: 'zeros.txt', data: Buffer.alloc(Math.floor(1.5 * MIB)) },
            ]),
          },
        ),
      );
      expect(res).toEqual(
        problem(
          413,
          'file has an entry that inflates more than 200 times its compressed size.',
          'payload_too_large',
        ),
      );
    });

    it('refuses an entry whose header lies about its size, after files were already written', async () => {
      const res = await refused(() =>
        create(
          { name: 'Liar' },
          {
            name: 'l.zip',
            data: site([{ name: 'zeros.txt', data: Buffer.alloc(3 * MIB), declaredSize: 1000 }]),
          },
        ),
      );
      expect(res).toEqual(
        problem(400, 'file has an entry whose size does not match its header.', 'archive_rejected'),
      );
    });

    it('refuses 20,000 files (over STATIC_MAX_FILES) with 413', async () => {
      const entries = Array.from({ length: 20_000 }, (_, i) => ({
        name: `${i}.css`,
        data: 'a',
        method: 'store' as const,
      }));
      const res = await refused(() =>
        create(
          { name: 'Many' },
          { name: 'm.zip', data: writeZip([{ name: 'index.html', data: '<p>' }, ...entries]) },
        ),
      );
      expect(res).toEqual(
        problem(
          413,
          'file has 20001 entries; a site may have at most 50 files.',
          'payload_too_large',
        ),
      );
    });

    it('refuses 51 files (one over STATIC_MAX_FILES) with 413', async () => {
      const entries = Array.from({ length: 50 }, (_, i) => ({ name: `${i}.css`, data: 'a' }));
      const res = await refused(() =>
        create({ name: 'Many' }, { name: 'm.zip', data: site(entries.slice(1)) }),
      );
      expect(res).toEqual(
        problem(
          413,
          'file has more than 50 files; that is the most a site may have.',
          'payload_too_large',
        ),
      );
    });

    it('refuses a name no file system can store', async () => {
      const name = `${'é'.repeat(200)}.css`;
      const res = await refused(() =>
        create({ name: 'Long' }, { name: 'l.zip', data: site([{ name, data: 'a{}' }]) }),
      );
      expect(res).toEqual(
        problem(
          400,
          `file has an entry whose name is too long to store (${JSON.stringify(name).slice(0, 117)}...).`,
          'archive_rejected',
        ),
      );
    });

    it('refuses the same file twice', async () => {
      const res = await refused(() =>
        create({ name: 'Twice' }, { name: 't.zip', data: site([{ name: 'A.css', data: 'b{}' }]) }),
      );
      expect(res).toEqual(problem(400, 'file has the entry "A.css" twice.', 'archive_rejected'));
    });

    it('refuses the same name in NFC and in NFD (as macOS writes it) as a duplicate', async () => {
      const res = await refused(() =>
        create(
          { name: 'Twice' },
          {
            name: 't.zip',
            data: site([
              { name: 'caf\u00e9.css', data: 'b{}' },
              { name: 'cafe\u0301.css', data: 'c{}' },
            ]),
          },
        ),
      );
      expect(res).toEqual(
        problem(400, 'file has the entry "caf\u00e9.css" twice.', 'archive_rejected'),
      );
    });

    it('refuses an archive whose entries together inflate past the compression ratio limit with 413', async () => {
      // Each entry stays under the 1 MiB from which entries are checked one by one.
      const entries = Array.from({ length: 15 }, (_, i) => ({
        name: `zeros${i}.txt`,
        data: Buffer.alloc(100 * 1024),
      }));
      const archive = site(entries);
      expect(archive.length * 200).toBeLessThan(15 * 100 * 1024);
      const res = await refused(() => create({ name: 'Bomb' }, { name: 'b.zip', data: archive }));
      expect(res).toEqual(
        problem(
          413,
          'file inflates to more than 200 times the size of the archive.',
          'payload_too_large',
        ),
      );
    });
  });

  describe('visitors', () => {
    let siteId: number;

    beforeAll(async () => {
      const res = await create(
        { name: 'Served', url: 'served' },
        { name: 's.zip', data: demoSite() },
      );
      siteId = (res.body as { data: { id: number } }).data.id;
    });

    it('redirects /{alias} to /{alias}/ and a folder to its slash', async () => {
      const root = await t.http.get('/served?x=1').redirects(0);
      expect([root.status, root.headers.location]).toEqual([302, '/served/?x=1']);
      const folder = await t.http.get('/served/docs').redirects(0);
      expect([folder.status, folder.headers.location]).toEqual([302, '/served/docs/']);
    });

    it('serves files with their content type, index.html for folders, and the sandbox headers', async () => {
      const page = await t.http.get('/served/');
      expect(page.status).toBe(200);
      expect(page.headers).toMatchObject({
        'content-type': 'text/html; charset=utf-8',
        'content-security-policy':
          'sandbox allow-scripts allow-forms allow-popups allow-popups-to-escape-sandbox allow-modals allow-downloads',
        'x-content-type-options': 'nosniff',
        'cache-control': 'no-cache',
        etag: expect.stringMatching(/^"[0-9a-z]+-[0-9a-f]{8}-[0-9a-f]+-[0-9a-f]+"$/),
        'last-modified': expect.stringMatching(/GMT$/),
      });
      expect(page.text).toContain('<h1 id="title">Demo</h1>');
      const css = await t.http.get('/served/css/site.css');
      expect([css.status, css.headers['content-type'], css.text]).toEqual([
        200,
        'text/css; charset=utf-8',
        'h1 { color: rgb(12, 34, 56); }\n',
      ]);
      const png = await t.http.get('/served/img/logo.png');
      expect([png.status, png.headers['content-type'], png.headers['content-length']]).toEqual([
        200,
        'image/png',
        '79',
      ]);
      const docs = await t.http.get('/served/docs/');
      expect([docs.status, docs.text]).toEqual([200, '<!doctype html><p>docs</p>']);
      const head = await t.http.head('/served/css/site.css');
      expect([head.status, head.headers['content-length'], head.text]).toEqual([
        200,
        '31',
        undefined,
      ]);
    });

    it('answers 304 to If-None-Match and If-Modified-Since', async () => {
      const first = await t.http.get('/served/css/site.css');
      const etag = String(first.headers.etag);
      const byTag = await t.http.get('/served/css/site.css').set('If-None-Match', etag);
      expect([byTag.status, byTag.text, byTag.headers.etag]).toEqual([304, '', etag]);
      const otherTag = await t.http.get('/served/css/site.css').set('If-None-Match', '"nope"');
      expect(otherTag.status).toBe(200);
      const byDate = await t.http
        .get('/served/css/site.css')
        .set('If-Modified-Since', String(first.headers['last-modified']));
      expect(byDate.status).toBe(304);
      const older = await t.http
        .get('/served/css/site.css')
        .set('If-Modified-Since', 'Thu, 01 Jan 1970 00:00:00 GMT');
      expect(older.status).toBe(200);
    });

    it('answers byte ranges for media players', async () => {
      const etag = String((await t.http.get('/served/css/site.css')).headers.etag);
      const part = await t.http.get('/served/css/site.css').set('Range', 'bytes=0-3');
      expect([part.status, part.text, part.headers['content-range']]).toEqual([
        206,
        'h1 {',
        'bytes 0-3/31',
      ]);
      const tail = await t.http.get('/served/css/site.css').set('Range', 'bytes=-2');
      expect([tail.status, tail.text]).toEqual([206, '}\n']);
      const matching = await t.http
        .get('/served/css/site.css')
        .set('Range', 'bytes=4-')
        .set('If-Range', etag);
      expect([matching.status, matching.text]).toEqual([206, ' color: rgb(12, 34, 56); }\n']);
      const stale = await t.http
        .get('/served/css/site.css')
        .set('Range', 'bytes=0-3')
        .set('If-Range', '"old"');
      expect([stale.status, stale.text.length]).toEqual([200, 31]);
      const outside = await t.http.get('/served/css/site.css').set('Range', 'bytes=100-');
      expect([outside.status, outside.headers['content-range']]).toEqual([416, 'bytes */31']);
    });

    it('answers 404 pages for missing files, skipped files and malformed paths', async () => {
      for (const path of [
        '/served/missing.html',
        '/served/server.php',
        '/served/.DS_Store',
        '/served/css%2fsite.css',
        '/served/css%5csite.css',
        '/served/%2e%2e',
        '/served/css/../../served/index.html',
        '/served/%00',
        '/served/%E0%A4%A',
        '/served//etc/passwd',
      ]) {
        const res = await t.http.get(path);
        expect([path, res.status, res.headers['content-type']]).toEqual([
          path,
          404,
          'text/html; charset=utf-8',
        ]);
        expect(res.text).toContain('Link not found');
      }
    });

    it('answers 404 pages to traversals aimed at files that exist', async () => {
      const neighbour = await create(
        { name: 'Neighbour', url: 'neighbour' },
        { name: 'n.html', data: '<p>neighbour secret' },
      );
      expect(neighbour.status).toBe(201);
      const other = await siteOf('neighbour');
      const served = await siteOf('served');
      const sites = join(t.config.dataDir, 'sites');
      const versionDir = join(sites, served.folder, served.version);
      const planted = [
        join(t.config.dataDir, 'secret.html'),
        join(sites, 'secret.html'),
        join(sites, served.folder, 'secret.html'),
      ];
      for (const file of planted) writeFileSync(file, 'planted secret');
      // supertest resolves `..` and backslashes itself; node:http sends the path as it is.
      const server = createServer((req, res) => t.app.getHttpServer().emit('request', req, res));
      await new Promise<void>((done) => server.listen(0, '127.0.0.1', done));
      const rawGet = (path: string) =>
        new Promise<{ status: number; type: string; text: string }>((done, fail) => {
          const { port } = server.address() as AddressInfo;
          httpGet({ host: '127.0.0.1', port, path }, (res) => {
            let text = '';
            res.setEncoding('utf8');
            res.on('data', (chunk: string) => (text += chunk));
            res.on('end', () =>
              done({ status: res.statusCode ?? 0, type: res.headers['content-type'] ?? '', text }),
            );
          }).on('error', fail);
        });
      try {
        // Relative to the served version's folder; every target is a file that exists.
        const targets = [
          `../../${other.folder}/${other.version}/index.html`,
          '../secret.html',
          '../../secret.html',
          '../../../secret.html',
          ...(t.config.database.type === 'sqlite' ? ['../../../linkdock.sqlite'] : []),
          ...(existsSync(join(t.config.dataDir, 'secrets.key')) ? ['../../../secrets.key'] : []),
        ];
        const spellings = (target: string): string[] => [
          target,
          `css/../${target}`,
          target.replaceAll('..', '%2e%2e'),
          target.replaceAll('..', '%2E%2E'),
          target.replaceAll('..', '.%2e'),
          target.replaceAll('..', '%2e.'),
          target.replaceAll('../', '..%2f'),
          target.replaceAll('../', '..%5c'),
          target.replaceAll('../', '..\\'),
          target.replaceAll('../', '%2e%2e%2f'),
          target.replaceAll('..', '%252e%252e'),
          target.replaceAll('..', '%u002e%u002e'),
          target.replaceAll('..', encodeURIComponent('\uff0e\uff0e')),
        ];
        for (const target of targets) {
          expect([target, existsSync(resolve(versionDir, target))]).toEqual([target, true]);
          for (const spelling of spellings(target)) {
            const path = `/served/${spelling}`;
            const res = await rawGet(path);
            expect([path, res.status, res.type]).toEqual([path, 404, 'text/html; charset=utf-8']);
            expect(res.text).not.toMatch(/secret|SQLite/);
          }
        }
      } finally {
        for (const file of planted) rmSync(file, { force: true });
        await new Promise((done) => server.close(done));
      }
    });

    it('puts the version of the site in the ETag, so a replace of the same size and time is no 304', async () => {
      const created = await create(
        { name: 'Tagged', url: 'etag-site' },
        { name: 'a.html', data: '<p>one' },
      );
      const { id } = (created.body as { data: { id: number } }).data;
      const sameTime = new Date('2026-03-01T12:00:00Z');
      const touchIndex = async () => {
        const { folder, version } = await siteOf('etag-site');
        utimesSync(
          join(t.config.dataDir, 'sites', folder, version, 'index.html'),
          sameTime,
          sameTime,
        );
        return version;
      };
      const first = await touchIndex();
      const etag = String((await t.http.get('/etag-site/')).headers.etag);
      expect(etag).toBe(`"${first}-6-${sameTime.getTime().toString(16)}"`);
      const replaced = await upload(`/v1/links/${id}`, {}, { name: 'b.html', data: '<p>two' });
      expect(replaced.status).toBe(200);
      await touchIndex();
      const page = await t.http.get('/etag-site/').set('If-None-Match', etag);
      expect([page.status, page.text]).toEqual([200, '<p>two']);
    });

    it('reloads a cached link once when the version it points at is gone', async () => {
      const created = await create(
        { name: 'Moved', url: 'moved-site' },
        { name: 'a.html', data: '<p>old' },
      );
      const { id } = (created.body as { data: { id: number } }).data;
      expect((await t.http.get('/moved-site/')).text).toBe('<p>old'); // now cached
      // Another instance replaced the site and swept the old version; no invalidation came.
      const old = await siteOf('moved-site');
      const storage = t.app.get(SiteStorage);
      const draft = await storage.createDraft(old.folder);
      await draft.write('index.html', Buffer.from('<p>new'));
      await draft.publish();
      const row = await t.app.get(LinksRepository).findByAlias(0, 'moved-site');
      const settings = parseLinkSettings(row?.settings ?? '{}');
      settings.static_site = { ...old, version: draft.version };
      await t.dataSource.query(
        `UPDATE links SET settings = ${t.config.database.type === 'sqlite' ? '?' : '$1'} WHERE id = ${Number(id)}`,
        [JSON.stringify(settings)],
      );
      await storage.removeVersion({ siteId: old.folder, version: old.version });
      const page = await t.http.get('/moved-site/');
      expect([page.status, page.text]).toEqual([200, '<p>new']);
    });

    it('leaves multi-segment paths that are no static site to Nest', async () => {
      const link = await t.http
        .post('/v1/links')
        .set('Authorization', owner.auth)
        .send({ location_url: 'https://example.com/', url: 'plain-link' });
      expect(link.status).toBe(201);
      for (const path of ['/plain-link/x', '/no-such-alias/x', '/uploads/x/y']) {
        const res = await t.http.get(path);
        expect([res.status, res.body]).toEqual([
          404,
          {
            errors: [
              { status: 404, title: `No route matches GET ${path}.`, code: 'route_not_found' },
            ],
          },
        ]);
      }
      expect((await t.http.get('/plain-link').redirects(0)).status).toBe(302);
    });

    it('counts one visit per page view, not per asset', async () => {
      const before = await pageViews(siteId);
      const botsBefore = await pageViews(siteId, true);
      const as = (path: string, dest: string) =>
        t.http.get(path).set('User-Agent', CHROME).set('Sec-Fetch-Dest', dest);
      expect((await as('/served/', 'document')).status).toBe(200);
      expect((await as('/served/css/site.css', 'style')).status).toBe(200);
      expect((await as('/served/img/logo.png', 'image')).status).toBe(200);
      expect((await as('/served/index.html', 'empty')).status).toBe(200);
      expect((await t.http.head('/served/').set('User-Agent', CHROME)).status).toBe(200);
      expect(await pageViews(siteId)).toBe(before + 1);
      // The HEAD request of the page is a bot's view (a stylesheet's would be none at all).
      expect(await pageViews(siteId, true)).toBe(botsBefore + 1);
      expect((await as('/served/docs/', 'document')).status).toBe(200);
      expect(await pageViews(siteId)).toBe(before + 2);
    });

    it('puts every file of a protected site behind the password, with one cookie for the site', async () => {
      const created = await create(
        { name: 'Locked', url: 'locked-site', password: 'letmein' },
        { name: 's.zip', data: demoSite() },
      );
      expect(created.status).toBe(201);
      const asset = await t.http.get('/locked-site/css/site.css');
      expect([asset.status, asset.headers['content-type']]).toEqual([
        200,
        'text/html; charset=utf-8',
      ]);
      expect(asset.text).toContain('This link is protected');
      expect(asset.text).not.toContain('rgb(12, 34, 56)');

      const wrong = await t.http
        .post('/locked-site/')
        .type('form')
        .send({ type: 'password', password: 'nope' });
      expect(wrong.status).toBe(403);
      const unlocked = await t.http
        .post('/locked-site/')
        .type('form')
        .send({ type: 'password', password: 'letmein' })
        .redirects(0);
      expect([unlocked.status, unlocked.headers.location]).toEqual([303, '/locked-site/']);
      const cookie = (unlocked.headers['set-cookie'] as unknown as string[])[0];
      expect(cookie).toMatch(/; Path=\/locked-site; HttpOnly; SameSite=Lax$/);
      const value = cookie.split(';')[0];
      const css = await t.http.get('/locked-site/css/site.css').set('Cookie', value);
      expect([css.status, css.text, css.headers['cache-control']]).toEqual([
        200,
        'h1 { color: rgb(12, 34, 56); }\n',
        'private, no-cache',
      ]);
    });

    it("shows the link's splash page before the site, once per browser session, without counting it", async () => {
      const splash = await t.http
        .post('/v1/splash-pages')
        .set('Authorization', owner.auth)
        .send({ name: 'Welcome', title: 'Before the site', link_unlock_seconds: 3 });
      expect(splash.status).toBe(201);
      const created = await create(
        {
          name: 'Splashed',
          url: 'splashed-site',
          splash_page_id: String((splash.body as { data: { id: number } }).data.id),
        },
        { name: 's.zip', data: demoSite() },
      );
      expect(created.status).toBe(201);
      const id = (created.body as { data: { id: number } }).data.id;
      const before = await pageViews(id);

      const first = await t.http
        .get('/splashed-site/docs/?from=mail')
        .set('User-Agent', CHROME)
        .set('Sec-Fetch-Dest', 'document');
      expect(first.status).toBe(200);
      expect(first.text).toContain('<h1>Before the site</h1>');
      expect(first.text).toContain('href="/splashed-site/docs/?from=mail"');
      const cookie = (first.headers['set-cookie'] as unknown as string[])[0];
      expect(cookie).toBe(`ld_sp_${id}=1; Path=/splashed-site; HttpOnly; SameSite=Lax`);
      expect(await pageViews(id)).toBe(before);

      const page = await t.http
        .get('/splashed-site/docs/?from=mail')
        .set('User-Agent', CHROME)
        .set('Sec-Fetch-Dest', 'document')
        .set('Cookie', cookie.split(';')[0]);
      expect(page.status).toBe(200);
      expect(page.text).not.toContain('Before the site');
      expect(await pageViews(id)).toBe(before + 1);

      // The page's own requests carry no SameSite=Lax cookie (its origin is opaque): the splash
      // page applies to page views only.
      for (const [path, dest] of [
        ['/splashed-site/css/site.css', 'style'],
        ['/splashed-site/img/logo.png', 'image'],
        ['/splashed-site/docs/', 'empty'],
      ]) {
        const asset = await t.http.get(path).set('User-Agent', CHROME).set('Sec-Fetch-Dest', dest);
        expect(asset.text ?? '').not.toContain('Before the site');
        expect([path, asset.status]).toEqual([path, 200]);
        expect(asset.headers['set-cookie']).toBeUndefined();
      }
      const iframe = await t.http
        .get('/splashed-site/docs/')
        .set('User-Agent', CHROME)
        .set('Sec-Fetch-Dest', 'iframe');
      expect(iframe.text).toContain('Before the site');
    });

    it('puts page views of a sensitive site behind the confirmation, and not its assets', async () => {
      const created = await create(
        { name: 'Sensitive', url: 'sensitive-site', sensitive_content: '1' },
        { name: 's.zip', data: demoSite() },
      );
      expect(created.status).toBe(201);
      const id = (created.body as { data: { id: number } }).data.id;
      const page = await t.http.get('/sensitive-site/').set('Sec-Fetch-Dest', 'document');
      expect([page.status, page.text]).toEqual([
        200,
        expect.stringContaining('Sensitive content ahead'),
      ]);
      const curl = await t.http.get('/sensitive-site/');
      expect(curl.text).toContain('Sensitive content ahead');
      const css = await t.http.get('/sensitive-site/css/site.css').set('Sec-Fetch-Dest', 'style');
      expect([css.status, css.text]).toEqual([200, DEMO_CSS]);
      const png = await t.http.get('/sensitive-site/img/logo.png').set('Sec-Fetch-Dest', 'image');
      expect([png.status, png.headers['content-type']]).toEqual([200, 'image/png']);

      const confirmed = await t.http
        .post('/sensitive-site/')
        .type('form')
        .send({ type: 'sensitive_content' })
        .redirects(0);
      expect([confirmed.status, confirmed.headers.location]).toEqual([303, '/sensitive-site/']);
      const cookie = (confirmed.headers['set-cookie'] as unknown as string[])[0].split(';')[0];
      expect(cookie).toBe(`ld_sc_${id}=1`);
      const unlocked = await t.http
        .get('/sensitive-site/')
        .set('Sec-Fetch-Dest', 'document')
        .set('Cookie', cookie);
      expect([unlocked.status, unlocked.text]).toEqual([
        200,
        expect.stringContaining('<h1 id="title">Demo</h1>'),
      ]);
    });

    it('applies the clicks limit to page views only, and an end date to every file', async () => {
      const limited = await create(
        {
          name: 'Limited',
          url: 'limited-site',
          clicks_limit: '1',
          expiration_url: 'https://example.com/over',
        },
        { name: 's.zip', data: demoSite() },
      );
      expect(limited.status).toBe(201);
      const as = (path: string, dest: string) =>
        t.http.get(path).set('User-Agent', CHROME).set('Sec-Fetch-Dest', dest).redirects(0);
      expect((await as('/limited-site/', 'document')).status).toBe(200);
      // The last allowed page view renders with its assets.
      const css = await as('/limited-site/css/site.css', 'style');
      expect([css.status, css.text]).toEqual([200, DEMO_CSS]);
      expect((await as('/limited-site/img/logo.png', 'image')).status).toBe(200);
      const over = await as('/limited-site/docs/', 'document');
      expect([over.status, over.headers.location]).toEqual([302, 'https://example.com/over']);
      expect((await as('/limited-site/css/site.css', 'style')).status).toBe(200);

      const ended = await create(
        {
          name: 'Ended',
          url: 'ended-site',
          schedule: '1',
          start_date: '2020-01-01 00:00:00',
          end_date: '2020-01-02 00:00:00',
          expiration_url: 'https://example.com/ended',
        },
        { name: 's.zip', data: demoSite() },
      );
      expect(ended.status).toBe(201);
      const gone = await as('/ended-site/', 'document');
      expect([gone.status, gone.headers.location]).toEqual([302, 'https://example.com/ended']);
      const asset = await as('/ended-site/css/site.css', 'style');
      expect([asset.status, asset.text]).toEqual([404, expect.stringContaining('Link not found')]);
    });
  });

  describe('password-protected sites', () => {
    const CAPABILITY = /^\/vault\/(~([0-9a-z]+)\.[A-Za-z0-9_-]{22})(\/.*)$/;
    let cookie: string;

    const nowSeconds = () => Math.floor(Date.now() / 1000);
    /** A token for `alias` signed as the edge signs them, expiring at `exp`. */
    async function tokenFor(alias: string, exp: number): Promise<string> {
      const row = await t.app.get(LinksRepository).findByAlias(0, alias);
      if (!row) throw new Error(`no link ${alias}`);
      return signSiteAccess(t.app.get<Buffer>(VISITOR_SECRET), compileLink(row), exp);
    }
    const documentAt = (path: string, withCookie: string | null = cookie) => {
      const req = t.http.get(path).set('Sec-Fetch-Dest', 'document').redirects(0);
      return withCookie === null ? req : req.set('Cookie', withCookie);
    };
    const assetAt = (path: string, dest = 'style', withCookie: string | null = null) => {
      const req = t.http.get(path).set('Sec-Fetch-Dest', dest).redirects(0);
      return withCookie === null ? req : req.set('Cookie', withCookie);
    };
    async function unlock(alias: string, password: string, path = `/${alias}/`): Promise<string> {
      const res = await t.http
        .post(path)
        .type('form')
        .send({ type: 'password', password })
        .redirects(0);
      expect([res.status, res.headers.location]).toEqual([303, path]);
      return (res.headers['set-cookie'] as unknown as string[])[0].split(';')[0];
    }
    const isPasswordPage = (res: {
      status: number;
      text: string;
      headers: Record<string, string>;
    }) =>
      res.status === 200 &&
      res.headers['content-type'] === 'text/html; charset=utf-8' &&
      res.text.includes('This link is protected');

    beforeAll(async () => {
      const created = await create(
        { name: 'Vault', url: 'vault', password: 'letmein' },
        { name: 's.zip', data: demoSite() },
      );
      expect(created.status).toBe(201);
      const second = await create(
        { name: 'Other vault', url: 'other-vault', password: 'letmein' },
        { name: 's.zip', data: demoSite() },
      );
      expect(second.status).toBe(201);
      cookie = await unlock('vault', 'letmein');
    });

    it('sends a page view with the password cookie to a capability URL of 12 hours', async () => {
      const res = await documentAt('/vault/docs/?from=mail');
      expect([res.status, res.headers['cache-control']]).toEqual([302, 'no-store']);
      const location = String(res.headers.location);
      const match = CAPABILITY.exec(location);
      expect([location, match?.[3]]).toEqual([location, '/docs/?from=mail']);
      const exp = parseInt(match?.[2] ?? '', 36);
      expect(exp).toBeGreaterThanOrEqual(nowSeconds() + SITE_ACCESS_SECONDS - 5);
      expect(exp).toBeLessThanOrEqual(nowSeconds() + SITE_ACCESS_SECONDS);
      expect(SITE_ACCESS_SECONDS).toBe(12 * 60 * 60);

      const page = await documentAt(location);
      expect([page.status, page.text, page.headers['cache-control']]).toEqual([
        200,
        '<!doctype html><p>docs</p>',
        'private, no-cache',
      ]);
      // The page's relative URLs resolve under the token, which opens them without the cookie.
      const token = match?.[1] ?? '';
      const css = await assetAt(`/vault/${token}/css/site.css`, 'style');
      expect([css.status, css.text]).toEqual([200, DEMO_CSS]);
      const png = await assetAt(`/vault/${token}/img/logo.png`, 'image');
      expect([png.status, png.body]).toEqual([200, PNG_2X2]);
      const frame = await assetAt(`/vault/${token}/docs/`, 'iframe');
      expect([frame.status, frame.text]).toEqual([200, '<!doctype html><p>docs</p>']);
      const script = await assetAt(`/vault/${token}/css/site.css`, 'empty');
      expect(script.status).toBe(200);
      const curl = await t.http.get(`/vault/${token}/css/site.css`);
      expect([curl.status, curl.text]).toEqual([200, DEMO_CSS]);
      // A folder keeps the token when it gets its slash.
      const folder = await assetAt(`/vault/${token}/docs`, 'iframe');
      expect([folder.status, folder.headers.location]).toEqual([302, `/vault/${token}/docs/`]);
      const bare = await documentAt(`/vault/${token}`);
      expect([bare.status, bare.headers.location]).toEqual([302, `/vault/${token}/`]);
    });

    it('shows the password page to a page view without the cookie, even with a valid token', async () => {
      const token = await tokenFor('vault', nowSeconds() + 6 * 3600);
      const res = await documentAt(`/vault/${token}/docs/?a=1`, null);
      expect(isPasswordPage(res)).toBe(true);
      expect(res.text).toContain(`action="/vault/${token}/docs/?a=1"`);
      // After the form, the 303 returns to that path, and the cookie leads to a fresh token.
      const fresh = await unlock('vault', 'letmein', `/vault/${token}/docs/`);
      const page = await documentAt(`/vault/${token}/docs/`, fresh);
      expect([page.status, page.text]).toEqual([200, '<!doctype html><p>docs</p>']);
    });

    it('renews a token that is missing, tampered, expired, foreign or expires within the hour', async () => {
      const good = await tokenFor('vault', nowSeconds() + 6 * 3600);
      const tampered = `${good.slice(0, -1)}${good.endsWith('A') ? 'B' : 'A'}`;
      const expired = await tokenFor('vault', nowSeconds() - 10);
      const foreign = await tokenFor('other-vault', nowSeconds() + 6 * 3600);
      const ending = await tokenFor('vault', nowSeconds() + SITE_ACCESS_RENEW_SECONDS - 60);
      for (const path of [
        '/vault/css/site.css',
        `/vault/${tampered}/css/site.css`,
        `/vault/${expired}/css/site.css`,
        `/vault/${foreign}/css/site.css`,
        `/vault/${ending}/css/site.css`,
      ]) {
        const res = await documentAt(`${path}?v=2`);
        const match = CAPABILITY.exec(String(res.headers.location));
        expect([path, res.status, match?.[3]]).toEqual([path, 302, '/css/site.css?v=2']);
        expect(match?.[1]).not.toBe(path.split('/')[2]);
      }
      const kept = await documentAt(`/vault/${good}/css/site.css`);
      expect([kept.status, kept.text]).toEqual([200, DEMO_CSS]);
      const soon = await tokenFor('vault', nowSeconds() + SITE_ACCESS_RENEW_SECONDS + 120);
      expect((await documentAt(`/vault/${soon}/css/site.css`)).status).toBe(200);
    });

    it('refuses other requests with a tampered, expired, foreign or no token, unless they have the cookie', async () => {
      const good = await tokenFor('vault', nowSeconds() + 6 * 3600);
      const tampered = `${good.slice(0, -1)}${good.endsWith('A') ? 'B' : 'A'}`;
      const expired = await tokenFor('vault', nowSeconds() - 10);
      const foreign = await tokenFor('other-vault', nowSeconds() + 6 * 3600);
      const malformed = `${good.slice(0, -1)}`;
      for (const prefix of [tampered, expired, foreign, malformed, null]) {
        const path = prefix === null ? '/vault/css/site.css' : `/vault/${prefix}/css/site.css`;
        for (const dest of ['style', 'image', 'iframe', 'empty', null]) {
          const req = t.http.get(path).redirects(0);
          const res = dest === null ? await req : await req.set('Sec-Fetch-Dest', dest);
          expect([path, dest, isPasswordPage(res)]).toEqual([path, dest, true]);
        }
        // The cookie opens them all; a segment that is no token is a path of the site.
        const withCookie = await assetAt(path, 'style', cookie);
        expect([path, withCookie.status, withCookie.text]).toEqual(
          prefix === malformed
            ? [path, 404, expect.stringContaining('Link not found')]
            : [path, 200, DEMO_CSS],
        );
      }
    });

    it('stops tokens and cookies from opening the site once the password changes', async () => {
      const created = await create(
        { name: 'Rotated', url: 'rotated-vault', password: 'first' },
        { name: 's.zip', data: demoSite() },
      );
      const rotatedId = (created.body as { data: { id: number } }).data.id;
      const oldCookie = await unlock('rotated-vault', 'first');
      const token = await tokenFor('rotated-vault', nowSeconds() + 6 * 3600);
      expect((await assetAt(`/rotated-vault/${token}/css/site.css`)).text).toBe(DEMO_CSS);
      const changed = await upload(`/v1/links/${rotatedId}`, { password: 'second' });
      expect(changed.status).toBe(200);
      expect(isPasswordPage(await assetAt(`/rotated-vault/${token}/css/site.css`))).toBe(true);
      expect(isPasswordPage(await documentAt(`/rotated-vault/${token}/`, oldCookie))).toBe(true);
      const newCookie = await unlock('rotated-vault', 'second');
      const renewed = await documentAt(`/rotated-vault/${token}/`, newCookie);
      expect(renewed.status).toBe(302);
      expect(String(renewed.headers.location).startsWith(`/rotated-vault/${token}/`)).toBe(false);

      // Without a password, a token in a URL is taken off it, so that old URLs keep working.
      const opened = await upload(`/v1/links/${rotatedId}`, { password: '' });
      expect(opened.status).toBe(200);
      const stripped = await assetAt(`/rotated-vault/${token}/css/site.css?x=1`);
      expect([stripped.status, stripped.headers.location]).toEqual([
        302,
        '/rotated-vault/css/site.css?x=1',
      ]);
      const root = await documentAt(`/rotated-vault/${token}`, null);
      expect([root.status, root.headers.location]).toEqual([302, '/rotated-vault/']);
      expect((await assetAt('/rotated-vault/css/site.css')).text).toBe(DEMO_CSS);
    });

    it('uses the token only for its own link', async () => {
      const foreign = await tokenFor('other-vault', nowSeconds() + 6 * 3600);
      expect(isPasswordPage(await assetAt(`/vault/${foreign}/css/site.css`))).toBe(true);
      const own = await tokenFor('other-vault', nowSeconds() + 6 * 3600);
      expect((await assetAt(`/other-vault/${own}/css/site.css`)).text).toBe(DEMO_CSS);
    });
  });
});
