import { Paginated, toListEnvelope } from './paginated';

const APP_URL = 'https://links.example.com';

describe(toListEnvelope.name, () => {
  it('builds meta and absolute links for a middle page', () => {
    const page = new Paginated([{ id: 11 }, { id: 12 }], 25, 2, 10);

    expect(toListEnvelope(page, APP_URL, '/v1/projects?page=2&results_per_page=10')).toEqual({
      data: [{ id: 11 }, { id: 12 }],
      meta: { page: 2, results_per_page: 10, total: 25, total_results: 25, total_pages: 3 },
      links: {
        first: 'https://links.example.com/v1/projects?results_per_page=10&page=1',
        last: 'https://links.example.com/v1/projects?results_per_page=10&page=3',
        next: 'https://links.example.com/v1/projects?results_per_page=10&page=3',
        prev: 'https://links.example.com/v1/projects?results_per_page=10&page=1',
        self: 'https://links.example.com/v1/projects?results_per_page=10&page=2',
      },
    });
  });

  it('counts a partly filled last page', () => {
    const envelope = toListEnvelope(new Paginated([], 101, 1, 25), APP_URL, '/v1/projects');
    expect(envelope.meta).toEqual({
      page: 1,
      results_per_page: 25,
      total: 101,
      total_results: 101,
      total_pages: 5,
    });
  });

  it('keeps every other query parameter, repeated and encoded ones included', () => {
    const envelope = toListEnvelope(
      new Paginated(['a'], 30, 2, 10),
      APP_URL,
      '/v1/links?search=caf%C3%A9%20%26%20bar&tag=a&tag=b&page=2&plus=1%2B1&order_by=name',
    );
    const params = new URL(envelope.links.self).searchParams;

    expect(envelope.links.self).toBe(
      'https://links.example.com/v1/links?search=caf%C3%A9+%26+bar&tag=a&tag=b&plus=1%2B1&order_by=name&page=2',
    );
    expect([...params]).toEqual([
      ['search', 'café & bar'],
      ['tag', 'a'],
      ['tag', 'b'],
      ['plus', '1+1'],
      ['order_by', 'name'],
      ['page', '2'],
    ]);
  });

  it('replaces a page parameter given several times', () => {
    const envelope = toListEnvelope(new Paginated([], 30, 1, 10), APP_URL, '/v1/x?page=1&page=9');
    expect(envelope.links.next).toBe('https://links.example.com/v1/x?page=2');
  });

  it('sets prev to null on the first page and next to null on the last', () => {
    const first = toListEnvelope(new Paginated([1], 20, 1, 10), APP_URL, '/v1/projects');
    const last = toListEnvelope(new Paginated([1], 20, 2, 10), APP_URL, '/v1/projects?page=2');

    expect(first.links).toEqual({
      first: 'https://links.example.com/v1/projects?page=1',
      last: 'https://links.example.com/v1/projects?page=2',
      next: 'https://links.example.com/v1/projects?page=2',
      prev: null,
      self: 'https://links.example.com/v1/projects?page=1',
    });
    expect(last.links).toEqual({
      first: 'https://links.example.com/v1/projects?page=1',
      last: 'https://links.example.com/v1/projects?page=2',
      next: null,
      prev: 'https://links.example.com/v1/projects?page=1',
      self: 'https://links.example.com/v1/projects?page=2',
    });
  });

  it('describes zero results as no pages with the last link on page 1', () => {
    expect(toListEnvelope(new Paginated([], 0, 1, 25), APP_URL, '/v1/projects')).toEqual({
      data: [],
      meta: { page: 1, results_per_page: 25, total: 0, total_results: 0, total_pages: 0 },
      links: {
        first: 'https://links.example.com/v1/projects?page=1',
        last: 'https://links.example.com/v1/projects?page=1',
        next: null,
        prev: null,
        self: 'https://links.example.com/v1/projects?page=1',
      },
    });
  });

  it('points prev of a page past the end at the last real page', () => {
    expect(toListEnvelope(new Paginated([], 25, 7, 10), APP_URL, '/v1/projects?page=7')).toEqual({
      data: [],
      meta: { page: 7, results_per_page: 10, total: 25, total_results: 25, total_pages: 3 },
      links: {
        first: 'https://links.example.com/v1/projects?page=1',
        last: 'https://links.example.com/v1/projects?page=3',
        next: null,
        prev: 'https://links.example.com/v1/projects?page=3',
        self: 'https://links.example.com/v1/projects?page=7',
      },
    });
  });

  it('points prev of a page past the end of an empty list at page 1', () => {
    const envelope = toListEnvelope(new Paginated([], 0, 4, 10), APP_URL, '/v1/projects');
    expect(envelope.links.prev).toBe('https://links.example.com/v1/projects?page=1');
    expect(envelope.links.next).toBeNull();
  });

  it('keeps /api in the path of origin-style requests', () => {
    const envelope = toListEnvelope(new Paginated([], 5, 1, 25), APP_URL, '/api/projects/?page=1');
    expect(envelope.links.self).toBe('https://links.example.com/api/projects/?page=1');
  });

  it('roots the links at an APP_URL with a path, never at the request host', () => {
    const envelope = toListEnvelope(
      new Paginated([], 5, 1, 25),
      'https://example.com/short',
      '//evil.example/v1/projects?search=a',
    );
    expect(envelope.links.self).toBe('https://example.com/short/v1/projects?search=a&page=1');
  });
});

describe(Paginated.name, () => {
  it('maps the items and keeps the counts', () => {
    const mapped = new Paginated([1, 2, 3], 13, 2, 10).map((n) => ({ n: n * 10 }));

    expect(mapped).toBeInstanceOf(Paginated);
    expect(mapped).toEqual(new Paginated([{ n: 10 }, { n: 20 }, { n: 30 }], 13, 2, 10));
  });
});
