import { thrownEntries } from '@app/testing/app-error-entries';
import { atIndex, readBulkBody } from './bulk-body';

describe(readBulkBody.name, () => {
  it('reads a JSON array as it is', () => {
    const items = [{ location_url: 'https://a.example/' }, 'not an object'];
    expect(readBulkBody(items)).toEqual({ items, form: false });
  });

  it('reads the form: one link per non-blank line, the other fields shared, url dropped', () => {
    expect(
      readBulkBody({
        is_bulk: 'true',
        location_urls: ' https://a.example/ \r\n\r\nhttps://b.example/\rhttps://c.example/\n',
        url: 'ignored',
        project_id: '3',
      }),
    ).toEqual({
      form: true,
      items: [
        { project_id: '3', location_url: 'https://a.example/' },
        { project_id: '3', location_url: 'https://b.example/' },
        { project_id: '3', location_url: 'https://c.example/' },
      ],
    });
    expect(readBulkBody({ is_bulk: 1, location_urls: ['https://a.example/'] }).items).toEqual([
      { location_url: 'https://a.example/' },
    ]);
  });

  it.each([
    ['a string', 'https://a.example/', undefined],
    ['an object without is_bulk', { location_url: 'https://a.example/' }, 'is_bulk'],
  ])('refuses %s, naming the two shapes', (_name, body, field) => {
    expect(thrownEntries(() => readBulkBody(body))).toEqual([
      {
        status: 400,
        title:
          'Send a JSON array of links (each with the fields of POST /v1/links), or is_bulk=1 with location_urls, one destination per line.',
        ...(field ? { field } : {}),
        code: 'validation_failed',
      },
    ]);
  });
});

describe(atIndex.name, () => {
  it('prefixes the field with the index and the title with the link', () => {
    expect(atIndex(3, { title: 'url is bad.', field: 'url', code: 'alias_taken' })).toEqual({
      title: 'Link [3]: url is bad.',
      field: '[3].url',
      code: 'alias_taken',
    });
    expect(atIndex(0, { title: 'Not an object.' })).toEqual({
      title: 'Link [0]: Not an object.',
      field: '[0]',
    });
  });
});
