import { appendQuery, asciiLocation, setQueryParams, storedLocation } from './destination';

// Each result is read back with Node's WHATWG URL parser (Ada), which is not our code: the
// parameters must be in the query a server receives, and the fragment must be untouched.
function read(href: string): { params: Array<[string, string]>; search: string; hash: string } {
  const url = new URL(href);
  return { params: [...url.searchParams], search: url.search, hash: url.hash };
}

describe(appendQuery.name, () => {
  it.each([
    // destination, visitor query, expected href
    [
      'https://example.com/path?x=1#section-2',
      'ref=tw',
      'https://example.com/path?x=1&ref=tw#section-2',
    ],
    [
      'https://example.com/app#/route?tab=1',
      'ref=tw',
      'https://example.com/app?ref=tw#/route?tab=1',
    ],
    ['https://example.com/x?', 'a=1', 'https://example.com/x?a=1'],
    ['https://example.com/x?#top', 'a=1', 'https://example.com/x?a=1#top'],
    ['https://example.com/', 'a=1&&b=2&', 'https://example.com/?a=1&b=2'],
    ['http://[::1]:8080/p?s=a%2Fb', 'q=%C3%A4', 'http://[::1]:8080/p?s=a%2Fb&q=%C3%A4'],
    // the visitor's own query is encoded as a browser would; `#` in it is data
    ['https://example.com/', `q="<'>`, 'https://example.com/?q=%22%3C%27%3E'],
    ['https://example.com/', 'q=ä b#c', 'https://example.com/?q=%C3%A4%20b%23c'],
  ])('%s + %s is %s', (destination, query, expected) => {
    const result = appendQuery(destination, query);
    expect(result).toBe(expected);
    expect(read(result).hash).toBe(new URL(destination).hash);
    expect(new URL(result).href).toBe(result);
  });

  it('keeps a signed query byte for byte and puts the visitor parameters after it', () => {
    const signed = 'https://bucket.example/f.pdf?X-Amz-Signature=a%2Fb~c%20d&X-Amz-Expires=60#p=2';
    const result = appendQuery(signed, 'ref=tw');
    expect(
      result.startsWith(
        'https://bucket.example/f.pdf?X-Amz-Signature=a%2Fb~c%20d&X-Amz-Expires=60&',
      ),
    ).toBe(true);
    expect(read(result)).toEqual({
      params: [
        ['X-Amz-Signature', 'a/b~c d'],
        ['X-Amz-Expires', '60'],
        ['ref', 'tw'],
      ],
      search: '?X-Amz-Signature=a%2Fb~c%20d&X-Amz-Expires=60&ref=tw',
      hash: '#p=2',
    });
  });

  it('returns the destination itself when there is nothing to add', () => {
    expect(appendQuery('https://example.com/x?#top', null)).toBe('https://example.com/x?#top');
    expect(appendQuery('https://example.com/x?#top', '&')).toBe('https://example.com/x?#top');
  });
});

describe(setQueryParams.name, () => {
  it('replaces a parameter in place and adds the others before the fragment', () => {
    const result = setQueryParams('https://example.com/app?utm_source=old&a=%7E#/r?tab=1', [
      ['utm_source', 'new'],
      ['utm_campaign', 'spring sale'],
    ]);
    expect(result).toBe(
      'https://example.com/app?utm_source=new&a=%7E&utm_campaign=spring%20sale#/r?tab=1',
    );
    expect(read(result).params).toEqual([
      ['utm_source', 'new'],
      ['a', '~'],
      ['utm_campaign', 'spring sale'],
    ]);
    expect(read(result).hash).toBe('#/r?tab=1');
  });

  it('gives a destination ending in ? no empty pair', () => {
    expect(setQueryParams('https://example.com/?', [['utm_medium', 'qr']])).toBe(
      'https://example.com/?utm_medium=qr',
    );
  });
});

describe(storedLocation.name, () => {
  it('normalises a row stored before URLs were normalised, and refuses what is no URL', () => {
    expect(storedLocation('https://bücher.example/straße?q=ä b')).toBe(
      'https://xn--bcher-kva.example/stra%C3%9Fe?q=%C3%A4%20b',
    );
    expect(storedLocation('not a url')).toBeNull();
    expect(storedLocation(null)).toBeNull();
  });
});

describe(asciiLocation.name, () => {
  it('never returns anything but printable ASCII', () => {
    expect(asciiLocation('https://bücher.example/ä')).toBe('https://xn--bcher-kva.example/%C3%A4');
    expect(asciiLocation('/alias/straße ä?x=1')).toBe('/alias/stra%C3%9Fe%20%C3%A4?x=1');
    expect(asciiLocation('/a?b=1#c')).toBe('/a?b=1#c');
  });
});
