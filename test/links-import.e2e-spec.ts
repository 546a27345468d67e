import { mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { parse } from 'csv-parse/sync';
import {
  createTestApp,
  currentTestDb,
  insertDomain,
  TEST_POSTGRES_URL,
  TestApp,
  TestUser,
} from '@app/testing';
import { runCli } from '../apps/cli/src/cli';
import { kuttRowsFromPostgres } from './fixtures/imports/kutt-postgres-rows';
import { kuttRowsFromSqlite } from './fixtures/imports/kutt-sqlite-rows';

const FIXTURES = join(__dirname, 'fixtures', 'imports');

interface Row {
  url: string;
  location_url: string | null;
  type: string;
  clicks: number;
  datetime: string;
  domain_id: number;
  project_id: number | null;
}

describe('Import and export of links (command line and API)', () => {
  let t: TestApp;
  let dir: string;
  beforeAll(async () => {
    t = await createTestApp({ env: { API_RATE_LIMIT: '1000000' } });
    dir = mkdtempSync(join(tmpdir(), 'linkdock-import-'));
  });
  afterAll(async () => {
    rmSync(dir, { recursive: true, force: true });
    await t?.close();
  });

  async function cli(...argv: string[]) {
    const out: string[] = [];
    const err: string[] = [];
    const chunks: string[] = [];
    const code = await runCli(argv, t.config, {
      out: (line) => out.push(line),
      err: (line) => err.push(line),
      write: (chunk) => {
        chunks.push(chunk);
        return Promise.resolve();
      },
    });
    return {
      code,
      result: out.length ? JSON.parse(out[out.length - 1]) : undefined,
      error: err.length ? JSON.parse(err[err.length - 1]) : undefined,
      written: chunks.join(''),
    };
  }

  const importFile = (user: TestUser, from: string, file: string, ...more: string[]) =>
    cli('import', '--email', user.email, '--from', from, join(FIXTURES, file), ...more);

  async function links(user: TestUser): Promise<Row[]> {
    const res = await t.http
      .get('/v1/links?results_per_page=1000&order_by=link_id&order_type=ASC')
      .set('Authorization', user.auth);
    return (res.body.data as Row[]).map(
      ({ url, location_url, type, clicks, datetime, domain_id, project_id }) => ({
        url,
        location_url,
        type,
        clicks,
        datetime,
        domain_id,
        project_id,
      }),
    );
  }

  const link = (
    url: string,
    location_url: string,
    clicks: number,
    datetime: string,
    type = 'link',
  ): Row => ({ url, location_url, type, clicks, datetime, domain_id: 0, project_id: null });

  it.each([
    [
      'bitly',
      'bitly-export.csv',
      { rows: 4, created: 3, not_imported: ['tags', 'title'] },
      [{ row: 4, url: '6emptyY', reason: 'The record has no destination URL.' }],
      [
        link(
          'spring-sale',
          'https://shop.example.com/spring?utm_source=bitly',
          1204,
          '2024-03-05 10:11:12',
        ),
        link('4docsQQ', 'https://docs.example.com/start', 37, '2024-03-06 08:00:00'),
        link('5quoteZ', 'https://example.com/quote', 0, '2024-03-07 09:30:00'),
      ],
    ],
    [
      'bitly',
      'bitly-api-fields.csv',
      { rows: 2, created: 2, not_imported: ['tags', 'title'] },
      [],
      [
        link('api-named', 'https://example.com/from-api', 0, '2024-04-01 12:00:00'),
        link('8apiBBB', 'https://example.com/plain', 0, '2024-04-02 12:00:00'),
      ],
    ],
    [
      'yourls',
      'yourls-stats.json',
      { rows: 3, created: 3, not_imported: ['title'] },
      [],
      [
        link('ozh', 'https://ozh.org/', 42, '2023-11-20 14:02:31'),
        link('yourls-docs', 'https://yourls.org/docs', 7, '2023-11-19 09:00:00'),
        // An imported alias may be shorter than a new one (CONTRACT, "imported aliases").
        link('a', 'https://example.com/one-letter', 0, '2023-11-18 08:00:00'),
      ],
    ],
    [
      'yourls',
      'yourls-stats-subfolder.json',
      { rows: 3, created: 3, not_imported: ['title'] },
      [],
      [
        link('1', 'https://example.com/first', 12, '2023-10-01 08:00:00'),
        link('z', 'https://example.com/thirty-sixth', 3, '2023-10-02 08:00:00'),
        link('10', 'https://example.com/thirty-seventh', 0, '2023-10-03 08:00:00'),
      ],
    ],
    [
      'bitly',
      'bitly-bitlinks.json',
      { rows: 2, created: 2, not_imported: ['tags', 'title'] },
      [],
      [
        link('autumn', 'https://shop.example.com/autumn', 0, '2024-09-01 10:00:00'),
        link('4mNoPq', 'https://docs.example.com/api', 0, '2024-09-02 12:30:00'),
      ],
    ],
    [
      'kutt',
      'kutt-links.json',
      { rows: 3, created: 2, not_imported: ['title'] },
      [
        {
          row: 3,
          url: 'secret',
          reason:
            'The link is password-protected in Kutt; its password is not in the export, so it is not imported.',
        },
      ],
      [
        link('kutt-home', 'https://kutt.example.com/', 128, '2024-02-01 10:00:00'),
        link('Xy12Ab', 'https://example.com/kutt/random', 3, '2024-02-02 11:30:00'),
      ],
    ],
    [
      'shlink',
      'shlink-short-urls.csv',
      { rows: 3, created: 2, not_imported: ['tags', 'title'] },
      [{ row: 3, url: 'shlink/nested', reason: 'url must be 1 to 64 letters, digits, - or _.' }],
      [
        link('shlink-1', 'https://example.com/shlink/one', 310, '2024-01-10 07:15:00'),
        link('shlink-2', 'https://example.com/shlink/two', 0, '2024-01-11 09:00:00'),
      ],
    ],
  ])(
    'imports %s (%s), then again without creating anything',
    async (from, file, counts, failed, expected) => {
      const user = await t.createUser();
      const first = await importFile(user, from, file);
      expect(first.code).toBe(0);
      expect(first.result).toEqual({
        source: from,
        file: join(FIXTURES, file),
        skipped: 0,
        failed,
        dry_run: false,
        ...counts,
      });
      expect(await links(user)).toEqual(expected);
      const again = await importFile(user, from, file);
      expect(again.result).toMatchObject({ created: 0, skipped: counts.created, failed });
      expect(await links(user)).toEqual(expected);
      // Each run is in the account's log.
      const log = await t.http
        .get('/v1/logs?type=links.imported&order_by=id&order_type=ASC')
        .set('Authorization', user.auth);
      expect(log.body.data.map((e: { data: unknown }) => e.data)).toEqual([
        {
          source: from,
          file,
          rows: counts.rows,
          created: counts.created,
          skipped: 0,
          failed: failed.length,
        },
        {
          source: from,
          file,
          rows: counts.rows,
          created: 0,
          skipped: counts.created,
          failed: failed.length,
        },
      ]);
    },
  );

  it('imports the YOURLS plugin CSV, keeping a destination with a comma', async () => {
    const user = await t.createUser();
    const res = await importFile(user, 'yourls', 'yourls-export.csv');
    expect(res.result).toMatchObject({ rows: 2, created: 2, failed: [] });
    expect(
      (await links(user)).map(({ url, location_url, clicks }) => ({ url, location_url, clicks })),
    ).toEqual([
      { url: 'plugin-one', location_url: 'https://example.com/plugin/1', clicks: 15 },
      { url: 'plugin-two', location_url: 'https://example.com/plugin/2?a=1,b=2', clicks: 0 },
    ]);
  });

  it('imports YOURLS counter keywords (2, y, 11) from the plugin CSV, which then redirect; a reserved one is refused', async () => {
    const user = await t.createUser();
    const res = await importFile(user, 'yourls', 'yourls-export-counters.csv');
    expect(res.result).toMatchObject({
      rows: 4,
      created: 3,
      failed: [
        {
          row: 4,
          url: 'v1',
          reason: 'The alias "v1" is reserved by the service; choose another.',
        },
      ],
    });
    expect((await links(user)).map(({ url, clicks }) => ({ url, clicks }))).toEqual([
      { url: '2', clicks: 4 },
      { url: 'y', clicks: 0 },
      { url: '11', clicks: 1 },
    ]);
    const visit = await t.http.get('/y').set('Host', 'links.test');
    expect(visit.status).toBe(302);
    expect(visit.headers.location).toBe('https://example.com/plugin/y');
    // Aliases chosen through the API keep the minimum.
    const chosen = await t.http
      .post('/v1/links')
      .set('Authorization', user.auth)
      .send({ location_url: 'https://example.com/new', url: 'q' });
    expect(chosen.status).toBe(400);
    expect(chosen.body.errors[0]).toMatchObject({ field: 'url' });
  });

  it("never brings a banned Kutt link back: rows of Kutt's query on SQLite (banned 0/1, password a hash)", async () => {
    const user = await t.createUser();
    const file = join(dir, 'kutt-sqlite-rows.json');
    writeFileSync(file, JSON.stringify(kuttRowsFromSqlite()));
    const res = await cli('import', '--email', user.email, '--from', 'kutt', file);
    expect(res.result).toMatchObject({
      rows: 3,
      created: 1,
      failed: [
        { row: 2, url: 'phish', reason: 'The link is banned in Kutt; it is not imported.' },
        {
          row: 3,
          url: 'locked',
          reason:
            'The link is password-protected in Kutt; its password is not in the export, so it is not imported.',
        },
      ],
    });
    expect((await links(user)).map(({ url }) => url)).toEqual(['fine']);
    expect((await t.http.get('/phish').set('Host', 'links.test')).status).toBe(404);
  });

  (currentTestDb() === 'postgres' ? it : it.skip)(
    'never brings a banned Kutt link back from PostgreSQL: true/false from the driver, t/f as text',
    async () => {
      const { typed, text } = await kuttRowsFromPostgres(TEST_POSTGRES_URL);
      expect(typed.map((row) => (row as { banned: unknown }).banned)).toEqual([false, true]);
      expect(text.map((row) => (row as { banned: unknown }).banned)).toEqual(['f', 't']);
      // Both forms read alike: the second file finds its one link imported already.
      const user = await t.createUser();
      for (const [name, rows, created] of [
        ['typed', typed, 1],
        ['text', text, 0],
      ] as const) {
        const file = join(dir, `kutt-postgres-${name}.json`);
        writeFileSync(file, JSON.stringify(rows));
        const res = await cli('import', '--email', user.email, '--from', 'kutt', file);
        expect(res.result).toMatchObject({
          rows: 2,
          created,
          skipped: 1 - created,
          failed: [
            { row: 2, url: 'pg-phish', reason: 'The link is banned in Kutt; it is not imported.' },
          ],
        });
      }
      expect((await links(user)).map(({ url, datetime }) => [url, datetime])).toEqual([
        ['pg-fine', '2024-02-01 10:00:00'],
      ]);
    },
  );

  it('reports an alias taken by someone else, never overwriting it, and counts repeated rows once', async () => {
    const other = await t.createUser();
    await t.http
      .post('/v1/links')
      .set('Authorization', other.auth)
      .send({ location_url: 'https://example.com/theirs', url: 'clash-1' });
    const user = await t.createUser();
    const file = join(dir, 'clash.csv');
    writeFileSync(
      file,
      'location_url,url\nhttps://example.com/mine,clash-1\nhttps://example.com/ok,clash-2\nhttps://example.com/ok,clash-2\nhttps://example.com/other,clash-2\n',
    );
    const res = await cli('import', '--email', user.email, '--from', 'csv', file);
    expect(res.result).toEqual({
      source: 'csv',
      file,
      rows: 4,
      created: 1,
      skipped: 1,
      failed: [
        { row: 4, url: 'clash-2', reason: 'The alias is also on row 2, with another destination.' },
        { row: 1, url: 'clash-1', reason: 'The alias "clash-1" is already taken on this domain.' },
      ],
      not_imported: [],
      dry_run: false,
    });
    const theirs = await t.http.get('/clash-1').set('Host', 'links.test');
    expect(theirs.headers.location).toBe('https://example.com/theirs');
  });

  it('creates nothing with --dry-run, and imports into a domain and project', async () => {
    const user = await t.createUser();
    const domainId = await insertDomain(t, user.id, 'import.example.com');
    const project = await t.http
      .post('/v1/projects')
      .set('Authorization', user.auth)
      .send({ name: 'Moved' });
    const dry = await importFile(
      user,
      'shlink',
      'shlink-short-urls.csv',
      '--dry-run',
      '--domain-id',
      String(domainId),
    );
    expect(dry.result).toMatchObject({ created: 2, dry_run: true });
    expect(await links(user)).toEqual([]);
    const res = await importFile(
      user,
      'shlink',
      'shlink-short-urls.csv',
      '--domain-id',
      String(domainId),
      '--project-id',
      String(project.body.data.id),
    );
    expect(res.result).toMatchObject({ created: 2 });
    expect((await links(user)).map((l) => [l.url, l.domain_id, l.project_id])).toEqual([
      ['shlink-1', domainId, project.body.data.id],
      ['shlink-2', domainId, project.body.data.id],
    ]);
  });

  it('refuses a bad source, file, domain or project with an error line and exit code 1 or 2', async () => {
    const user = await t.createUser();
    const source = await cli('import', '--email', user.email, '--from', 'tinyurl', 'x.csv');
    expect(source.code).toBe(1);
    expect(source.error.errors[0]).toMatchObject({ field: 'from', code: 'validation_failed' });
    const missing = await cli(
      'import',
      '--email',
      user.email,
      '--from',
      'csv',
      join(dir, 'none.csv'),
    );
    expect(missing.error).toEqual({
      errors: [
        {
          status: 400,
          title: `Cannot read ${join(dir, 'none.csv')}: ENOENT.`,
          field: 'file',
          code: 'validation_failed',
        },
      ],
    });
    const wrong = await importFile(user, 'kutt', 'bitly-export.csv');
    expect(wrong.error.errors[0]).toMatchObject({
      title: 'The file is not a readable Kutt link list (JSON).',
      field: 'file',
    });
    const noColumn = await importFile(user, 'shlink', 'bitly-export.csv');
    expect(noColumn.error.errors[0].title).toBe(
      'The file has no longUrl column: is it the right export?',
    );
    const foreign = await importFile(
      user,
      'csv',
      'linkdock-links.csv',
      '--domain-id',
      '999999',
      '--project-id',
      '999999',
    );
    expect(foreign.error.errors.map((e: { field: string }) => e.field)).toEqual([
      'domain-id',
      'project-id',
    ]);
    const noFile = await cli('import', '--email', user.email, '--from', 'csv');
    expect(noFile.code).toBe(2);
  });

  it('exports through the API as CSV and JSON, with the filters of the list, and every link past a page', async () => {
    const user = await t.createUser();
    for (let batch = 0; batch < 3; batch += 1) {
      const res = await t.http
        .post('/v1/links/bulk')
        .set('Authorization', user.auth)
        .send(
          Array.from({ length: 800 }, (_, i) => ({
            location_url: `https://example.com/${batch}/${i}`,
            url: `exp-${batch}-${i}`,
            is_enabled: i % 2,
          })),
        );
      expect(res.status).toBe(201);
    }
    const csv = await t.http.get('/v1/links/export?format=csv').set('Authorization', user.auth);
    expect(csv.status).toBe(200);
    expect(csv.headers['content-type']).toBe('text/csv; charset=utf-8');
    expect(csv.headers['content-disposition']).toMatch(
      /^attachment; filename="links-\d{8}-\d{6}\.csv"$/,
    );
    const lines = csv.text.split('\r\n');
    expect(lines[0]).toBe('location_url,url,title,tags,created_at,clicks,type,full_url');
    expect(lines).toHaveLength(2402);
    expect(lines[1]).toMatch(
      /^https:\/\/example\.com\/0\/0,exp-0-0,,,\d{4}-\d{2}-\d{2} \d{2}:\d{2}:\d{2},0,link,http:\/\/links\.test\/exp-0-0$/,
    );
    expect(lines[2401]).toBe('');

    const json = await t.http
      .get('/v1/links/export?format=json&is_enabled=1&order_type=DESC&search=exp-2-')
      .set('Authorization', user.auth)
      .buffer(true)
      .parse((res, done) => {
        let text = '';
        res.on('data', (chunk: Buffer) => (text += chunk.toString()));
        res.on('end', () => done(null, text));
      });
    expect(json.status).toBe(200);
    expect(json.headers['content-type']).toBe('application/json; charset=utf-8');
    const data = (
      JSON.parse(json.body as string) as {
        data: Array<{ id: number; url: string; is_enabled: boolean }>;
      }
    ).data;
    expect(data).toHaveLength(400);
    expect(data.every((l) => l.is_enabled && l.url.startsWith('exp-2-'))).toBe(true);
    expect(data.map((l) => l.id)).toEqual([...data.map((l) => l.id)].sort((a, b) => b - a));

    const empty = await t.http
      .get('/v1/links/export')
      .set('Authorization', (await t.createUser()).auth);
    expect(empty.text).toBe('location_url,url,title,tags,created_at,clicks,type,full_url\r\n');
  });

  it.each([
    [
      'format=xml',
      { title: 'format must be one of csv, json.', field: 'format', code: 'validation_failed' },
    ],
    [
      'order_by=clicks',
      {
        title: 'order_by must be one of link_id.',
        field: 'order_by',
        code: 'invalid_list_parameter',
      },
    ],
    ['type=qr', { field: 'type', code: 'invalid_list_parameter' }],
  ])('refuses an export with %s (400)', async (query, problem) => {
    const user = await t.createUser();
    const res = await t.http.get(`/v1/links/export?${query}`).set('Authorization', user.auth);
    expect(res.status).toBe(400);
    expect(res.body.errors).toEqual([expect.objectContaining({ status: 400, ...problem })]);
  });

  it('exports only the caller links, and needs a key', async () => {
    const a = await t.createUser();
    const b = await t.createUser();
    await t.http
      .post('/v1/links')
      .set('Authorization', a.auth)
      .send({ location_url: 'https://example.com/a', url: 'only-a' });
    const res = await t.http.get('/v1/links/export').set('Authorization', b.auth);
    expect(res.text).not.toContain('only-a');
    expect((await t.http.get('/v1/links/export')).status).toBe(401);
  });

  it('exports an alias a spreadsheet would run (leading -) as text, read back with csv-parse', async () => {
    const user = await t.createUser();
    const made = await t.http
      .post('/v1/links')
      .set('Authorization', user.auth)
      .send({ location_url: 'https://example.com/dash', url: '-2-3' });
    expect(made.status).toBe(201);
    const csv = await t.http.get('/v1/links/export?format=csv').set('Authorization', user.auth);
    expect(csv.status).toBe(200);
    const rows: string[][] = parse(csv.text);
    expect(rows).toEqual([
      ['location_url', 'url', 'title', 'tags', 'created_at', 'clicks', 'type', 'full_url'],
      [
        'https://example.com/dash',
        "'-2-3",
        '',
        '',
        expect.stringMatching(/^\d{4}-\d{2}-\d{2} \d{2}:\d{2}:\d{2}$/),
        '0',
        'link',
        'http://links.test/-2-3',
      ],
    ]);
  });

  it('round-trips: an export imports back with --from csv and exports again unchanged', async () => {
    const user = await t.createUser();
    const made = await t.http
      .post('/v1/links/bulk')
      .set('Authorization', user.auth)
      .send([
        { location_url: 'https://example.com/rt?x=1,2&y="q"', url: 'rt-quoted' },
        { type: 'walink', phone_number: '15551234567', message: 'Hi, there', url: 'rt-chat' },
        { location_url: 'https://example.com/rt/random' },
        { location_url: 'https://bücher.example/ä', url: 'rt-idn' },
        // Exported as '-rt-dash (neutralised for spreadsheets), imported back as -rt-dash.
        { location_url: 'https://example.com/dash', url: '-rt-dash' },
      ]);
    expect(made.status).toBe(201);
    await t.dataSource.query(`UPDATE links SET clicks = 7 WHERE url = 'rt-quoted'`);
    const file = join(dir, 'round.csv');
    const exported = await cli(
      'export',
      'links',
      '--email',
      user.email,
      '--format',
      'csv',
      '--output',
      file,
    );
    expect(exported.result).toEqual({ format: 'csv', file, exported: 5 });
    const before = readFileSync(file, 'utf8');
    expect(before).toContain('"https://example.com/rt?x=1,2&y=%22q%22",rt-quoted,,,');
    expect(before).toContain("https://example.com/dash,'-rt-dash,,,");

    // Into an empty account: delete the links, then import the export.
    for (const id of (made.body.data as Array<{ id: number }>).map((l) => l.id)) {
      await t.http.delete(`/v1/links/${id}`).set('Authorization', user.auth);
    }
    const imported = await cli('import', '--email', user.email, '--from', 'csv', file);
    expect(imported.result).toMatchObject({ rows: 5, created: 5, skipped: 0, failed: [] });
    const again = await cli('export', 'links', '--email', user.email, '--format', 'csv');
    expect(again.result).toBeUndefined();
    expect(again.written).toBe(before);
    const json = await cli('export', 'links', '--email', user.email, '--format', 'json');
    expect(JSON.parse(json.written).data.map((l: { url: string }) => l.url)).toEqual([
      'rt-quoted',
      'rt-chat',
      expect.stringMatching(/^[a-z0-9]{7}$/),
      'rt-idn',
      '-rt-dash',
    ]);
  });
});
