import { aliasOf, readCount, readDate } from './import-row';
import { readExport } from './sources';

describe('import rows', () => {
  it.each([
    ['2024-03-05 10:11:12', '2024-03-05T10:11:12.000Z'],
    ['2024-01-10T08:15:00+01:00', '2024-01-10T07:15:00.000Z'],
    ['2024-04-01T12:00:00+0000', '2024-04-01T12:00:00.000Z'],
    ['2024-02-01T10:00:00.123Z', '2024-02-01T10:00:00.123Z'],
    ['2024-02-01T10:00:00', '2024-02-01T10:00:00.000Z'],
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
