import { ProjectEntity } from '@app/database';
import { createTestApp, TestApp, TestUser } from '@app/testing';

/** The list conventions, exercised through /v1/projects (every list shares the same parser). */
describe('List envelope and list parameters', () => {
  let t: TestApp;
  let user: TestUser;
  const ids: number[] = [];

  beforeAll(async () => {
    t = await createTestApp();
    user = await t.createUser();
    const repo = t.dataSource.getRepository(ProjectEntity);
    // 30 projects on 30 consecutive days, so datetime filters and ordering are predictable.
    for (let i = 1; i <= 30; i += 1) {
      const saved = await repo.save(
        repo.create({
          user_id: user.id,
          name: i % 3 === 0 ? `Alpha_${i}` : `Beta %${i}`,
          color: '#000000',
          datetime: new Date(Date.UTC(2026, 0, i, 12, 0, 0)),
          last_datetime: null,
        }),
      );
      ids.push(saved.id);
    }
  });
  afterAll(() => t?.close());

  const list = (query: string) =>
    t.http.get(`/v1/projects${query}`).set('Authorization', user.auth);

  it('answers the first page with meta and absolute links, newest first by default', async () => {
    const res = await list('');
    expect(res.status).toBe(200);
    expect(res.body.meta).toEqual({
      page: 1,
      results_per_page: 25,
      total: 30,
      total_results: 30,
      total_pages: 2,
    });
    expect(res.body.links).toEqual({
      first: 'http://links.test/v1/projects?page=1',
      last: 'http://links.test/v1/projects?page=2',
      next: 'http://links.test/v1/projects?page=2',
      prev: null,
      self: 'http://links.test/v1/projects?page=1',
    });
    expect(res.body.data).toHaveLength(25);
    expect(res.body.data[0].id).toBe(ids[29]);
  });

  it('keeps every filter of the request in the links and moves only the page', async () => {
    const res = await list('?results_per_page=10&order_by=name&order_type=DESC&page=2&search=beta');
    expect(res.status).toBe(200);
    const q = 'results_per_page=10&order_by=name&order_type=DESC&search=beta';
    expect(res.body.links).toEqual({
      first: `http://links.test/v1/projects?${q}&page=1`,
      last: `http://links.test/v1/projects?${q}&page=2`,
      next: null,
      prev: `http://links.test/v1/projects?${q}&page=1`,
      self: `http://links.test/v1/projects?${q}&page=2`,
    });
    expect(res.body.meta).toEqual({
      page: 2,
      results_per_page: 10,
      total: 20,
      total_results: 20,
      total_pages: 2,
    });
  });

  it('answers a page past the end with empty data and correct meta', async () => {
    const res = await list('?page=9');
    expect(res.status).toBe(200);
    expect(res.body.data).toEqual([]);
    expect(res.body.meta).toEqual({
      page: 9,
      results_per_page: 25,
      total: 30,
      total_results: 30,
      total_pages: 2,
    });
    expect(res.body.links.next).toBeNull();
    expect(res.body.links.prev).toBe('http://links.test/v1/projects?page=2');
  });

  it('orders ascending by a declared field, with id as the tie-breaker', async () => {
    const res = await list('?order_by=project_id&results_per_page=10');
    expect(res.body.data.map((p: { id: number }) => p.id)).toEqual(ids.slice(0, 10));
    const byName = await list('?order_by=name&order_type=asc&results_per_page=100');
    const names = byName.body.data.map((p: { name: string }) => p.name);
    expect(names).toEqual([...names].sort());
  });

  it('searches case-insensitively and treats % and _ literally', async () => {
    const alpha = await list('?search=ALPHA&search_by=name&results_per_page=100');
    expect(alpha.body.meta.total).toBe(10);
    const percent = await list(`?search=${encodeURIComponent('%1')}&results_per_page=100`);
    expect(percent.body.data.map((p: { name: string }) => p.name).sort()).toEqual(
      [
        'Beta %1',
        'Beta %10',
        'Beta %11',
        'Beta %13',
        'Beta %14',
        'Beta %16',
        'Beta %17',
        'Beta %19',
      ].sort(),
    );
    const underscore = await list('?search=a_1&results_per_page=100');
    expect(underscore.body.data.map((p: { name: string }) => p.name).sort()).toEqual(
      ['Alpha_12', 'Alpha_15', 'Alpha_18'].sort(),
    );
  });

  it('filters on a datetime field, both bounds inclusive', async () => {
    const res = await list(
      '?datetime_field=datetime&datetime_start=2026-01-10%2012:00:00&datetime_end=2026-01-12%2012:00:00&order_by=project_id',
    );
    expect(res.status).toBe(200);
    expect(res.body.data.map((p: { id: number }) => p.id)).toEqual([ids[9], ids[10], ids[11]]);
    const open = await list('?datetime_start=2026-01-29%2000:00:00');
    expect(open.body.meta.total).toBe(2);
    // The last second there is: no bound past it that a database could not read.
    const last = await list(
      '?datetime_start=2026-01-29%2000:00:00&datetime_end=9999-12-31%2023:59:59',
    );
    expect(last.status).toBe(200);
    expect(last.body.meta.total).toBe(2);
  });

  it('is served under /api too, with links that stay on /api', async () => {
    const res = await t.http
      .get('/api/projects?results_per_page=10')
      .set('Authorization', user.auth);
    expect(res.status).toBe(200);
    expect(res.body.meta.total_pages).toBe(3);
    expect(res.body.links.next).toBe('http://links.test/api/projects?results_per_page=10&page=2');
    const one = await t.http.get(`/api/projects/${ids[0]}`).set('Authorization', user.auth);
    expect(one.status).toBe(200);
    expect(one.body.data.id).toBe(ids[0]);
  });

  it.each([
    [
      '?results_per_page=20',
      'results_per_page',
      'results_per_page must be one of 10, 25, 50, 100, 250, 500, 1000.',
    ],
    ['?page=0', 'page', 'page must be a whole number of 1 or more.'],
    ['?page=two', 'page', 'page must be a whole number of 1 or more.'],
    [
      '?order_by=color',
      'order_by',
      'order_by must be one of project_id, datetime, last_datetime, name.',
    ],
    ['?order_type=sideways', 'order_type', 'order_type must be one of ASC, DESC.'],
    ['?search=x&search_by=color', 'search_by', 'search_by must be one of name.'],
    [
      '?datetime_field=color&datetime_start=2026-01-01%2000:00:00',
      'datetime_field',
      'datetime_field must be one of datetime, last_datetime.',
    ],
    [
      '?datetime_start=2026-01-01',
      'datetime_start',
      'datetime_start must be a date and time as Y-m-d H:i:s (UTC).',
    ],
    [
      '?datetime_end=2026-02-30%2000:00:00',
      'datetime_end',
      'datetime_end must be a date and time as Y-m-d H:i:s (UTC).',
    ],
    [
      '?datetime_start=2026-02-01%2000:00:00&datetime_end=2026-01-01%2000:00:00',
      'datetime_start',
      'datetime_start must not be after datetime_end.',
    ],
    ['?page=1&page=2', 'page', 'page must be given once, as a single value.'],
  ])(
    'answers %s with a 400 that names the parameter and its allowed values',
    async (query, field, title) => {
      const res = await list(query);
      expect(res.status).toBe(400);
      expect(res.body).toEqual({
        errors: [{ status: 400, title, field, code: 'invalid_list_parameter' }],
      });
    },
  );

  it('reports every bad parameter of one request', async () => {
    const res = await list('?page=0&results_per_page=3&order_type=x');
    expect(res.status).toBe(400);
    expect(res.body.errors.map((e: { field: string }) => e.field)).toEqual([
      'page',
      'results_per_page',
      'order_type',
    ]);
  });

  it('ignores unknown query parameters but keeps them in the links', async () => {
    const res = await list('?utm=1&results_per_page=10');
    expect(res.status).toBe(200);
    expect(res.body.links.self).toBe(
      'http://links.test/v1/projects?utm=1&results_per_page=10&page=1',
    );
  });
});
