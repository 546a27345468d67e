import { thrownEntries } from '@app/testing/app-error-entries';
import { ErrorEntry } from '../errors';
import { ListQuery, ListSpec } from './list-spec';
import { parseListQuery } from './parse-list-query';

const SPEC: ListSpec = {
  searchBy: ['name', 'host'],
  orderBy: { project_id: 'id', name: 'name' },
  datetimeFields: ['datetime', 'last_datetime'],
  filters: {
    is_enabled: { kind: 'boolean' },
    type: { kind: 'enum', values: ['a', 'b'] },
    domain_id: { kind: 'integer' },
  },
};

const DEFAULTS: ListQuery = {
  page: 1,
  resultsPerPage: 25,
  search: null,
  order: { column: 'id', direction: 'DESC' },
  datetime: null,
  filters: [],
};

function entriesOf(query: Record<string, unknown>, spec: ListSpec = SPEC): ErrorEntry[] {
  return thrownEntries(() => parseListQuery(query, spec));
}

function problem(field: string, title: string): ErrorEntry {
  return { status: 400, title, field, code: 'invalid_list_parameter' };
}

describe(parseListQuery.name, () => {
  it('applies the defaults to an empty query', () => {
    expect(parseListQuery({}, SPEC)).toEqual(DEFAULTS);
  });

  it('treats empty values as absent', () => {
    expect(
      parseListQuery({ page: '', results_per_page: '', search: '', order_by: '', type: '' }, SPEC),
    ).toEqual(DEFAULTS);
  });

  it('ignores unknown parameters', () => {
    expect(parseListQuery({ colour: 'red', access_token: 'x' }, SPEC)).toEqual(DEFAULTS);
  });

  it('reads every parameter of a valid query', () => {
    expect(
      parseListQuery(
        {
          page: '3',
          results_per_page: '100',
          search: 'shop',
          search_by: 'host',
          order_by: 'name',
          order_type: 'DESC',
          datetime_field: 'last_datetime',
          datetime_start: '2026-01-01 00:00:00',
          datetime_end: '2026-01-31 23:59:59',
          is_enabled: '0',
          type: 'b',
          domain_id: '42',
        },
        SPEC,
      ),
    ).toEqual({
      page: 3,
      resultsPerPage: 100,
      search: { columns: ['host'], term: 'shop' },
      order: { column: 'name', direction: 'DESC' },
      datetime: {
        column: 'last_datetime',
        start: new Date('2026-01-01T00:00:00Z'),
        end: new Date('2026-01-31T23:59:59Z'),
      },
      filters: [
        { column: 'is_enabled', value: false },
        { column: 'type', value: 'b' },
        { column: 'domain_id', value: 42 },
      ],
    });
  });

  it('orders ASC when order_by comes without order_type', () => {
    expect(parseListQuery({ order_by: 'name' }, SPEC).order).toEqual({
      column: 'name',
      direction: 'ASC',
    });
  });

  it('accepts order_type in lower case', () => {
    expect(parseListQuery({ order_by: 'project_id', order_type: 'desc' }, SPEC).order).toEqual({
      column: 'id',
      direction: 'DESC',
    });
  });

  it('applies order_type alone to the default column', () => {
    expect(parseListQuery({ order_type: 'asc' }, SPEC).order).toEqual({
      column: 'id',
      direction: 'ASC',
    });
  });

  it('uses the default order of the spec', () => {
    const spec: ListSpec = { ...SPEC, defaultOrder: { column: 'name', direction: 'ASC' } };
    expect(parseListQuery({}, spec).order).toEqual({ column: 'name', direction: 'ASC' });
  });

  it('searches every searchBy column when search_by is absent', () => {
    expect(parseListQuery({ search: 'shop' }, SPEC).search).toEqual({
      columns: ['name', 'host'],
      term: 'shop',
    });
  });

  it('uses the first datetime field when datetime_field is absent', () => {
    expect(parseListQuery({ datetime_start: '2026-03-01 10:00:00' }, SPEC).datetime).toEqual({
      column: 'datetime',
      start: new Date('2026-03-01T10:00:00Z'),
      end: null,
    });
    expect(parseListQuery({ datetime_end: '2026-03-01 10:00:00' }, SPEC).datetime).toEqual({
      column: 'datetime',
      start: null,
      end: new Date('2026-03-01T10:00:00Z'),
    });
  });

  it('accepts equal datetime bounds', () => {
    const at = '2026-03-01 10:00:00';
    expect(parseListQuery({ datetime_start: at, datetime_end: at }, SPEC).datetime).toEqual({
      column: 'datetime',
      start: new Date('2026-03-01T10:00:00Z'),
      end: new Date('2026-03-01T10:00:00Z'),
    });
  });

  it('reads the bounds of boolean and integer filters', () => {
    expect(parseListQuery({ is_enabled: 'true', domain_id: '2147483647' }, SPEC).filters).toEqual([
      { column: 'is_enabled', value: true },
      { column: 'domain_id', value: 2147483647 },
    ]);
  });

  it('reads 0 of a zeroIsNone filter as null (no project), and 0 of another as 0', () => {
    const spec: ListSpec = {
      orderBy: { id: 'id' },
      filters: {
        project_id: { kind: 'integer', zeroIsNone: true },
        domain_id: { kind: 'integer' },
      },
    };
    expect(parseListQuery({ project_id: '0', domain_id: '0' }, spec).filters).toEqual([
      { column: 'project_id', value: null },
      { column: 'domain_id', value: 0 },
    ]);
    expect(parseListQuery({ project_id: '3' }, spec).filters).toEqual([
      { column: 'project_id', value: 3 },
    ]);
  });

  it('filters on the column a filter names', () => {
    const spec: ListSpec = {
      orderBy: { id: 'id' },
      filters: { status: { kind: 'string', column: 'state' } },
    };
    expect(parseListQuery({ status: 'open' }, spec).filters).toEqual([
      { column: 'state', value: 'open' },
    ]);
  });

  it.each([
    [
      { results_per_page: '7' },
      problem(
        'results_per_page',
        'results_per_page must be one of 10, 25, 50, 100, 250, 500, 1000.',
      ),
    ],
    [{ page: '0' }, problem('page', 'page must be a whole number of 1 or more.')],
    [{ page: 'abc' }, problem('page', 'page must be a whole number of 1 or more.')],
    [{ page: '-2' }, problem('page', 'page must be a whole number of 1 or more.')],
    [
      { page: '99999999999999999999' },
      problem('page', 'page must be a whole number of 1 or more.'),
    ],
    [{ order_by: 'color' }, problem('order_by', 'order_by must be one of project_id, name.')],
    [{ order_by: 'constructor' }, problem('order_by', 'order_by must be one of project_id, name.')],
    [{ order_type: 'up' }, problem('order_type', 'order_type must be one of ASC, DESC.')],
    [{ search_by: 'email' }, problem('search_by', 'search_by must be one of name, host.')],
    [{ search: 'x'.repeat(257) }, problem('search', 'search must be at most 256 characters.')],
    [
      { datetime_field: 'created' },
      problem('datetime_field', 'datetime_field must be one of datetime, last_datetime.'),
    ],
    [
      { datetime_start: '2026-03-01' },
      problem('datetime_start', 'datetime_start must be a date and time as Y-m-d H:i:s (UTC).'),
    ],
    [
      { datetime_start: '2026-02-30 10:00:00' },
      problem('datetime_start', 'datetime_start must be a date and time as Y-m-d H:i:s (UTC).'),
    ],
    [
      { datetime_end: '2026-03-01T10:00:00Z' },
      problem('datetime_end', 'datetime_end must be a date and time as Y-m-d H:i:s (UTC).'),
    ],
    [
      { datetime_end: '2026-03-01 24:00:00' },
      problem('datetime_end', 'datetime_end must be a date and time as Y-m-d H:i:s (UTC).'),
    ],
    [
      { datetime_start: '2026-03-02 00:00:00', datetime_end: '2026-03-01 23:59:59' },
      problem('datetime_start', 'datetime_start must not be after datetime_end.'),
    ],
    [{ is_enabled: 'yes' }, problem('is_enabled', 'is_enabled must be one of 0, 1.')],
    [{ type: 'c' }, problem('type', 'type must be one of a, b.')],
    [{ domain_id: 'x' }, problem('domain_id', 'domain_id must be a whole number.')],
    [{ domain_id: '-1' }, problem('domain_id', 'domain_id must be a whole number.')],
    [{ domain_id: '2147483648' }, problem('domain_id', 'domain_id must be a whole number.')],
    [{ page: ['1', '2'] }, problem('page', 'page must be given once, as a single value.')],
    [{ type: ['a', 'b'] }, problem('type', 'type must be given once, as a single value.')],
  ])('rejects %j', (query, expected) => {
    expect(entriesOf(query)).toEqual([expected]);
  });

  it('reports several problems at once', () => {
    expect(
      entriesOf({
        page: '0',
        results_per_page: '7',
        search_by: 'email',
        order_by: 'color',
        order_type: 'up',
        datetime_end: 'yesterday',
        is_enabled: 'maybe',
        type: ['a', 'b'],
      }),
    ).toEqual([
      problem('page', 'page must be a whole number of 1 or more.'),
      problem(
        'results_per_page',
        'results_per_page must be one of 10, 25, 50, 100, 250, 500, 1000.',
      ),
      problem('search_by', 'search_by must be one of name, host.'),
      problem('order_type', 'order_type must be one of ASC, DESC.'),
      problem('order_by', 'order_by must be one of project_id, name.'),
      problem('datetime_end', 'datetime_end must be a date and time as Y-m-d H:i:s (UTC).'),
      problem('is_enabled', 'is_enabled must be one of 0, 1.'),
      problem('type', 'type must be given once, as a single value.'),
    ]);
  });

  it('rejects search on a spec without searchBy', () => {
    const spec: ListSpec = { orderBy: { id: 'id' } };
    expect(entriesOf({ search: 'shop' }, spec)).toEqual([
      problem('search', 'This list cannot be searched; remove search.'),
    ]);
    expect(entriesOf({ search_by: 'name' }, spec)).toEqual([
      problem('search_by', 'This list cannot be searched; remove search_by.'),
    ]);
  });

  it('rejects datetime bounds on a spec without datetime fields', () => {
    const spec: ListSpec = { orderBy: { id: 'id' } };
    expect(entriesOf({ datetime_start: '2026-03-01 10:00:00' }, spec)).toEqual([
      problem(
        'datetime_start',
        'This list has no datetime filter; remove datetime_start and datetime_end.',
      ),
    ]);
    expect(entriesOf({ datetime_field: 'datetime' }, spec)).toEqual([
      problem('datetime_field', 'This list has no datetime filter; remove datetime_field.'),
    ]);
  });
});

describe('parseListQuery reports every problem at once', () => {
  const spec: ListSpec = {
    searchBy: ['name'],
    orderBy: { id: 'id' },
    datetimeFields: ['datetime'],
  };

  it('checks the datetime bounds even when datetime_field is wrong', () => {
    expect(entriesOf({ datetime_field: 'nope', datetime_start: 'garbage' }, spec)).toEqual([
      problem('datetime_field', 'datetime_field must be one of datetime.'),
      problem('datetime_start', 'datetime_start must be a date and time as Y-m-d H:i:s (UTC).'),
    ]);
  });

  it('checks the search term even when search_by is wrong', () => {
    expect(entriesOf({ search_by: 'nope', search: 'x'.repeat(300) }, spec)).toEqual([
      problem('search_by', 'search_by must be one of name.'),
      problem('search', 'search must be at most 256 characters.'),
    ]);
  });
});
