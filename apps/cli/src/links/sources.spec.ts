import { kuttRowsFromSqlite } from '../../../../test/fixtures/imports/kutt-sqlite-rows';
import { aliasOf, readCount, readDate, readFlag } from './import-row';
import { readExport } from './sources';

describe('import rows', () => {
  it.each([
    ['2024-03-05 10:11:12', '2024-03-05T10:11:12.000Z'],
    ['2024-01-10T08:15:00+01:00', '2024-01-10T07:15:00.000Z'],
    ['2024-04-01T12:00:00+0000', '2024-04-01T12:00:00.000Z'],
    ['2024-02-01T10:00:00.123Z', '2024-02-01T10:00:00.123Z'],
    ['2024-02-01T10:00:00', '2024-02-01T10:00:00.000Z'],
    // PostgreSQL's text output of a timestamptz (Kutt on pg, read through psql or COPY).
    ['2024-02-01 10:00:00+00', '2024-02-01T10:00:00.000Z'],
    ['2024-02-01 12:00:00.5+02', '2024-02-01T10:00:00.500Z'],
  ])('reads the date %s', (text, iso) => {
    expect((readDate(text) as Date).toISOString()).toBe(iso);
  });

  it('reads an empty date as none and refuses what is not one', () => {
    expect(readDate('')).toBeNull();
    expect(readDate('yesterday')).toBe('invalid');
    expect(readDate('2024-02-30 10:00:00')).toBe('invalid');
  });

  it('reads visit counts', () => {
    expect(readCount('1,204')).toBe(1204);
    expect(readCount('')).toBeNull();
    expect(readCount('-3')).toBe('invalid');
    expect(readCount('1.5')).toBe('invalid');
  });

  it.each([
    ['bit.ly/3xYzAbC', '3xYzAbC'],
    ['https://go.example.org/spring-sale/', 'spring-sale'],
    ['http://sho.rt/ozh?x=1#y', 'ozh'],
    ['/keyword/', 'keyword'],
    ['https://s.example.com/a/b', 'a/b'],
    ['https://s.example.com/', null],
  ])('reads the alias of %s', (url, alias) => {
    expect(aliasOf(url)).toBe(alias);
  });
});

describe(readExport.name, () => {
  it('prefers the custom back-half of a Bitly row and reads a BOM-prefixed file', () => {
    const rows = readExport(
      'bitly',
      '\uFEFFLink,Custom link,Long URL\r\nbit.ly/abc,brand.example/chosen,https://a.example/\r\nbit.ly/def,,https://b.example/\r\n',
    );
    expect(rows.map((r) => ('alias' in r ? r.alias : r))).toEqual(['chosen', 'def']);
  });

  it('reads a Kutt list given as one array of pages joined, and refuses banned links', () => {
    const rows = readExport(
      'kutt',
      JSON.stringify([
        { address: 'one', target: 'https://a.example/', visit_count: 2, banned: false },
        { address: 'two', target: 'https://b.example/', banned: true },
      ]),
    );
    expect(rows).toEqual([
      expect.objectContaining({ row: 1, alias: 'one', clicks: 2 }),
      { row: 2, url: 'two', reason: 'The link is banned in Kutt; it is not imported.' },
    ]);
  });

  it('reports a row with a bad date or count, and a static site, with the reason', () => {
    const rows = readExport(
      'csv',
      'location_url,url,created_at,clicks,type\nhttps://a.example/,a1,someday,,\nhttps://b.example/,b1,,lots,\n,c1,,,static\n',
    );
    expect(rows).toEqual([
      { row: 1, url: 'a1', reason: 'The creation time "someday" is not a date.' },
      { row: 2, url: 'b1', reason: 'The visit count "lots" is not a whole number.' },
      { row: 3, url: 'c1', reason: 'The record has no destination URL.' },
    ]);
  });
});

describe('import sources as each tool hands them out', () => {
  it('refuses Kutt links banned as SQLite stores it (0/1), and password hashes', () => {
    const rows = kuttRowsFromSqlite();
    expect(rows.map((row) => (row as { banned: unknown }).banned)).toEqual([0, 1, 0]);
    expect(readExport('kutt', JSON.stringify(rows))).toEqual([
      expect.objectContaining({ row: 1, alias: 'fine', clicks: 3 }),
      { row: 2, url: 'phish', reason: 'The link is banned in Kutt; it is not imported.' },
      {
        row: 3,
        url: 'locked',
        reason:
          'The link is password-protected in Kutt; its password is not in the export, so it is not imported.',
      },
    ]);
  });

  it.each([
    // PostgreSQL's text output of a boolean is t/f (PostgreSQL docs, "Boolean Type"); MySQL's
    // tinyint(1) is 0/1; a driver or JSON export may give true/false or the digits as text.
    [1, true],
    ['1', true],
    ['t', true],
    ['true', true],
    [true, true],
    [0, false],
    ['0', false],
    ['f', false],
    ['false', false],
    [false, false],
    [null, null],
    ['', null],
    ['maybe', 'invalid'],
    [2, 'invalid'],
  ])('reads the flag %p as %p', (value, flag) => {
    expect(readFlag(value)).toBe(flag);
  });

  it('refuses a Kutt row whose banned is neither yes nor no, rather than import it', () => {
    const rows = readExport(
      'kutt',
      JSON.stringify([{ address: 'odd', target: 'https://a.example/', banned: 'maybe' }]),
    );
    expect(rows).toEqual([
      {
        row: 1,
        url: 'odd',
        reason: 'banned is "maybe", not a yes/no value; the link is not imported.',
      },
    ]);
  });

  it('reads YOURLS keywords after the path of a YOURLS installed in a subfolder', () => {
    // yourls_link(): YOURLS_SITE . '/' . keyword (includes/functions-links.php, YOURLS/YOURLS
    // 1.10.4-20-gb8c7882), with YOURLS_SITE = https://sho.rt/s.
    const stats = (...keywords: string[]) =>
      JSON.stringify({
        links: Object.fromEntries(
          keywords.map((keyword, i) => [
            `link_${i + 1}`,
            {
              shorturl: `https://sho.rt/s/${keyword}`,
              url: `https://example.com/${i}`,
              clicks: '0',
            },
          ]),
        ),
      });
    const aliases = (content: string) =>
      readExport('yourls', content).map((row) => ('alias' in row ? row.alias : row));
    expect(aliases(stats('1', 'z', 'abc'))).toEqual(['1', 'z', 'abc']);
    expect(aliases(stats('only'))).toEqual(['only']);
    expect(
      aliases(
        JSON.stringify({
          links: { link_1: { shorturl: 'https://sho.rt/at-root', url: 'https://a.example/' } },
        }),
      ),
    ).toEqual(['at-root']);
  });

  it('reads Bitly API v4 pages, one or several joined, preferring a custom back-half', () => {
    // GET /v4/groups/{group_guid}/bitlinks: {links: [Bitlink], pagination}; the Bitlink and
    // pagination as philnash/bitly's spec/bitly/api/bitlink_spec.rb (3fb9585) stubs them.
    const page = (links: unknown[], next: string) => ({
      links,
      pagination: { prev: '', next, total: 3, page: 1, size: 2 },
    });
    const bitlink = (id: string, long_url: string, custom: string[] = []) => ({
      created_at: '2020-01-02T23:51:47+0000',
      id,
      link: `http://${id}`,
      custom_bitlinks: custom,
      long_url,
      archived: false,
      tags: ['spring'],
      deeplinks: [],
      references: { group: 'https://api-ssl.bitly.com/v4/groups/def456' },
    });
    const content = JSON.stringify([
      page(
        [
          bitlink('bit.ly/2Qj2niP', 'https://example.com/'),
          bitlink('bit.ly/3xYzAbC', 'https://example.com/sale', ['https://brand.example/sale']),
        ],
        'https://api-ssl.bit.ly/v4/groups/def456/bitlinks?page=2',
      ),
      page([bitlink('bit.ly/9last', '')], ''),
    ]);
    expect(readExport('bitly', content)).toEqual([
      expect.objectContaining({
        row: 1,
        alias: '2Qj2niP',
        location_url: 'https://example.com/',
        tags: ['spring'],
      }),
      expect.objectContaining({ row: 2, alias: 'sale', location_url: 'https://example.com/sale' }),
      { row: 3, url: '9last', reason: 'The record has no destination URL.' },
    ]);
    expect((readExport('bitly', JSON.stringify(page([], ''))) as unknown[]).length).toBe(0);
    expect(() => readExport('bitly', '{"data":[]}')).toThrow(/"links" array/);
  });
});
