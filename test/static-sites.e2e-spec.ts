import { createTestApp, insertDomain, TestApp, TestUser, writeZip } from '@app/testing';
import { LinksRepository } from '@app/database';
import { deflateRawSync } from 'node:zlib';
import { VisitRecorder } from '../apps/api/src/links/edge/visit-recorder.service';
import { SiteSweeper, SWEEP_GRACE_MS } from '../apps/api/src/links/static/site-sweeper.service';
import { demoSite, storedSiteFiles } from './support/static-sites';

const DATETIME = /^\d{4}-\d{2}-\d{2} \d{2}:\d{2}:\d{2}$/;
const FOLDER = /^[0-9a-f]{24}$/;
const CHROME =
  'Mozilla/5.0 (Windows NT 10.0; Win64; x64) AppleWebKit/537.36 (KHTML, like Gecko) Chrome/131.0.0.0 Safari/537.36';
const MIB = 1024 * 1024;

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
  afterAll(() => t.close());

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

  async function pageViews(linkId: number): Promise<number> {
    await t.app.get(VisitRecorder).flush();
    const rows = await t.dataSource.query<Array<{ n: number | string }>>(
      `SELECT COUNT(*) AS n FROM visits WHERE link_id = ${Number(linkId)}`,
    );
    return Number(rows[0].n);
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
          is_enabled: true,
          start_date: null,
          end_date: null,
          last_datetime: null,
          datetime: expect.stringMatching(DATETIME),
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

    it('replaces a site at once: the new version is served and the old files are gone', async () => {
      const created = await create(
        { name: 'Replace me', url: 'replace-me' },
        { name: 's.zip', data: demoSite('v1', 'Version one') },
      );
      const { id, additional } = (
        created.body as { data: { id: number; additional: { static_folder: string } } }
      ).data;
      const folder = additional.static_folder;
      const before = storedSiteFiles(t.config.dataDir).filter((p) =>
        p.startsWith(`sites/${folder}/`),
      );
      expect((await t.http.get('/replace-me/')).text).toContain('Version one');

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
      const after = storedSiteFiles(t.config.dataDir).filter((p) =>
        p.startsWith(`sites/${folder}/`),
      );
      expect(after.map((p) => p.split('/').slice(3).join('/')).sort()).toEqual([
        'app.js',
        'index.html',
      ]);
      expect(after.some((p) => before.includes(p))).toBe(false);

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

      const deleted = await t.http.delete(`/v1/links/${id}`).set('Authorization', owner.auth);
      expect([deleted.status, deleted.body]).toEqual([200, { data: { id } }]);
      expect(
        storedSiteFiles(t.config.dataDir).filter((p) => p.startsWith(`sites/${folder}/`)),
      ).toEqual([]);
      expect((await t.http.get('/replace-me/')).status).toBe(404);
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

      const sweeper = t.app.get(SiteSweeper);
      await sweeper.sweep(Date.now() + SWEEP_GRACE_MS - 60_000); // too young to be swept
      expect(siteFiles(gone)).toHaveLength(1);
      expect(await sweeper.sweep(Date.now() + SWEEP_GRACE_MS + 60_000)).toBeGreaterThanOrEqual(1);
      expect(siteFiles(gone)).toEqual([]);
      expect(siteFiles(keptFolder)).toHaveLength(1);
      expect(storedSiteFiles(t.config.dataDir).filter((p) => p.includes('.draft-'))).toEqual([]);
    });

    it('removes the new files when the database write fails, on create and on replace', async () => {
      const repo = t.app.get(LinksRepository);
      const insert = jest.spyOn(repo, 'insert').mockRejectedValueOnce(new Error('database down'));
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
        .spyOn(repo, 'updateOwned')
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
      const res = await refused(() =>
        create(
          { name: 'Bomb' },
          {
            name: 'b.zip',
            data: site([{ name: 'zeros.txt', data: Buffer.alloc(Math.floor(1.5 * MIB)) }]),
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
        etag: expect.stringMatching(/^"[0-9a-f]+-[0-9a-f]+"$/),
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

    it('answers 404 pages for missing files, skipped files and traversal attempts', async () => {
      for (const path of [
        '/served/missing.html',
        '/served/server.php',
        '/served/.DS_Store',
        '/served/%2e%2e/%2e%2e/linkdock.sqlite',
        '/served/..%2f..%2flinkdock.sqlite',
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
      const as = (path: string, dest: string) =>
        t.http.get(path).set('User-Agent', CHROME).set('Sec-Fetch-Dest', dest);
      expect((await as('/served/', 'document')).status).toBe(200);
      expect((await as('/served/css/site.css', 'style')).status).toBe(200);
      expect((await as('/served/img/logo.png', 'image')).status).toBe(200);
      expect((await as('/served/index.html', 'empty')).status).toBe(200);
      expect((await t.http.head('/served/').set('User-Agent', CHROME)).status).toBe(200);
      expect(await pageViews(siteId)).toBe(before + 1);
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
    });
  });
});
