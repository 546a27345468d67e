import { AppError, Problem } from '../errors';
import { parseDateTime } from '../time';
import { parseFormBoolean } from '../validation/form-boolean';
import {
  DEFAULT_RESULTS_PER_PAGE,
  FilterSpec,
  FilterValue,
  ListQuery,
  ListSpec,
  OrderDirection,
  RESULTS_PER_PAGE,
} from './list-spec';

type Query = Record<string, unknown>;

/** Turns a request's query string into a ListQuery, or throws one 400 listing every problem. */
export function parseListQuery(query: Query, spec: ListSpec): ListQuery {
  const problems: Problem[] = [];
  const read = (name: string): string | undefined => single(query, name, problems);

  const page = parsePage(read('page'), problems);
  const resultsPerPage = parseResultsPerPage(read('results_per_page'), problems);
  const search = parseSearch(read('search'), read('search_by'), spec, problems);
  const order = parseOrder(read('order_by'), read('order_type'), spec, problems);
  const datetime = parseDatetimeRange(
    read('datetime_field'),
    read('datetime_start'),
    read('datetime_end'),
    spec,
    problems,
  );
  const filters = Object.entries(spec.filters ?? {}).flatMap(([name, filter]) => {
    const raw = read(name);
    if (raw === undefined) {
      return [];
    }
    const value = parseFilter(name, raw, filter, problems);
    return value === undefined ? [] : [{ column: filter.column ?? name, value }];
  });

  if (problems.length > 0) {
    throw new AppError('invalid_list_parameter', problems);
  }
  return { page, resultsPerPage, search, order, datetime, filters };
}

function single(query: Query, name: string, problems: Problem[]): string | undefined {
  const value = query[name];
  if (value === undefined || value === '') {
    return undefined;
  }
  if (typeof value !== 'string') {
    problems.push({ title: `${name} must be given once, as a single value.`, field: name });
    return undefined;
  }
  return value;
}

function allowed(values: readonly (string | number)[]): string {
  return values.join(', ');
}

function parsePage(raw: string | undefined, problems: Problem[]): number {
  if (raw === undefined) {
    return 1;
  }
  const page = Number(raw);
  if (!/^\d+$/.test(raw) || page < 1 || !Number.isSafeInteger(page)) {
    problems.push({ title: 'page must be a whole number of 1 or more.', field: 'page' });
    return 1;
  }
  return page;
}

function parseResultsPerPage(raw: string | undefined, problems: Problem[]): number {
  if (raw === undefined) {
    return DEFAULT_RESULTS_PER_PAGE;
  }
  const value = RESULTS_PER_PAGE.find((n) => String(n) === raw);
  if (value === undefined) {
    problems.push({
      title: `results_per_page must be one of ${allowed(RESULTS_PER_PAGE)}.`,
      field: 'results_per_page',
    });
    return DEFAULT_RESULTS_PER_PAGE;
  }
  return value;
}

function parseSearch(
  term: string | undefined,
  searchBy: string | undefined,
  spec: ListSpec,
  problems: Problem[],
): ListQuery['search'] {
  const fields = spec.searchBy ?? [];
  const before = problems.length;
  if (searchBy !== undefined && !fields.includes(searchBy)) {
    problems.push({
      title:
        fields.length > 0
          ? `search_by must be one of ${allowed(fields)}.`
          : 'This list cannot be searched; remove search_by.',
      field: 'search_by',
    });
  }
  if (term !== undefined && fields.length === 0) {
    problems.push({ title: 'This list cannot be searched; remove search.', field: 'search' });
  } else if (term !== undefined && term.length > 256) {
    problems.push({ title: 'search must be at most 256 characters.', field: 'search' });
  }
  if (term === undefined || problems.length > before) {
    return null;
  }
  return { columns: searchBy !== undefined ? [searchBy] : fields, term };
}

function parseOrder(
  orderBy: string | undefined,
  orderType: string | undefined,
  spec: ListSpec,
  problems: Problem[],
): ListQuery['order'] {
  const fallback = spec.defaultOrder ?? { column: 'id', direction: 'DESC' as const };
  let direction: OrderDirection | undefined;
  if (orderType !== undefined) {
    const upper = orderType.toUpperCase();
    if (upper === 'ASC' || upper === 'DESC') {
      direction = upper;
    } else {
      problems.push({ title: 'order_type must be one of ASC, DESC.', field: 'order_type' });
    }
  }
  if (orderBy === undefined) {
    return { column: fallback.column, direction: direction ?? fallback.direction };
  }
  const column = Object.hasOwn(spec.orderBy, orderBy) ? spec.orderBy[orderBy] : undefined;
  if (column === undefined) {
    problems.push({
      title: `order_by must be one of ${allowed(Object.keys(spec.orderBy))}.`,
      field: 'order_by',
    });
    return fallback;
  }
  return { column, direction: direction ?? 'ASC' };
}

function parseDatetimeRange(
  field: string | undefined,
  startRaw: string | undefined,
  endRaw: string | undefined,
  spec: ListSpec,
  problems: Problem[],
): ListQuery['datetime'] {
  const fields = spec.datetimeFields ?? [];
  const before = problems.length;
  if (field !== undefined && !fields.includes(field)) {
    problems.push({
      title:
        fields.length > 0
          ? `datetime_field must be one of ${allowed(fields)}.`
          : 'This list has no datetime filter; remove datetime_field.',
      field: 'datetime_field',
    });
  }
  const start = parseBound('datetime_start', startRaw, problems);
  const end = parseBound('datetime_end', endRaw, problems);
  if (fields.length === 0 && (startRaw !== undefined || endRaw !== undefined)) {
    problems.push({
      title: 'This list has no datetime filter; remove datetime_start and datetime_end.',
      field: startRaw !== undefined ? 'datetime_start' : 'datetime_end',
    });
  }
  if (start && end && start > end) {
    problems.push({
      title: 'datetime_start must not be after datetime_end.',
      field: 'datetime_start',
    });
  }
  if (problems.length > before || (!start && !end)) {
    return null;
  }
  return { column: field ?? fields[0], start: start ?? null, end: end ?? null };
}

/** undefined = invalid (problem recorded), null = absent. */
function parseBound(
  name: string,
  raw: string | undefined,
  problems: Problem[],
): Date | null | undefined {
  if (raw === undefined) {
    return null;
  }
  const date = parseDateTime(raw);
  if (date === null) {
    problems.push({ title: `${name} must be a date and time as Y-m-d H:i:s (UTC).`, field: name });
    return undefined;
  }
  return date;
}

function parseFilter(
  name: string,
  raw: string,
  filter: FilterSpec,
  problems: Problem[],
): FilterValue | undefined {
  switch (filter.kind) {
    case 'boolean': {
      const value = parseFormBoolean(raw);
      if (value === undefined) {
        problems.push({ title: `${name} must be one of 0, 1.`, field: name });
      }
      return value;
    }
    case 'integer': {
      if (!/^\d{1,10}$/.test(raw) || Number(raw) > 2147483647) {
        problems.push({ title: `${name} must be a whole number.`, field: name });
        return undefined;
      }
      return filter.zeroIsNone === true && Number(raw) === 0 ? null : Number(raw);
    }
    case 'enum': {
      if (!filter.values.includes(raw)) {
        problems.push({ title: `${name} must be one of ${allowed(filter.values)}.`, field: name });
        return undefined;
      }
      return raw;
    }
    case 'string':
      return raw;
  }
}
