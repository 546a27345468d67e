import { Type } from '@nestjs/common';
import { ValidateBy, ValidationArguments } from 'class-validator';
import { parseDateTime } from '../time';
import { parseFormBoolean } from '../validation/form-boolean';
import { FilterSpec, ListSpec, RESULTS_PER_PAGE } from './list-spec';

/** The problem of parameter `name` holding `value` (in `query`) as one sentence, or null. */
type Check = (value: string, name: string, query: Record<string, unknown>) => string | null;

/**
 * The query DTO class of one list: the parameters every list has (paging, order) and the parts
 * that differ between lists (search, datetime range, filters), each parameter with class-validator
 * constraints whose messages name the allowed values. Built once per `ListSpec` and kept. The
 * parameters are declared in the order a 400 lists their problems.
 */
export function listQueryDto(spec: ListSpec): Type<object> {
  let dto = built.get(spec);
  if (dto === undefined) {
    dto = build(spec);
    built.set(spec, dto);
  }
  return dto;
}

const built = new WeakMap<ListSpec, Type<object>>();

/** The parameter names a list reads, in declaration order. */
export function listParameterNames(spec: ListSpec): string[] {
  return ['page', 'results_per_page', 'search_by', 'search', 'order_type', 'order_by']
    .concat(['datetime_field', 'datetime_start', 'datetime_end'])
    .concat(Object.keys(spec.filters ?? {}));
}

function build(spec: ListSpec): Type<object> {
  const dto = class ListQueryDto {};
  const declare = (name: string, ...checks: Check[]): void => {
    // Every parameter comes once: `a=1&a=2` or `a[]=1` is refused before anything else.
    for (const check of [single, ...checks]) {
      constraint(check)(dto.prototype, name);
    }
  };
  const searchBy = spec.searchBy ?? [];
  const datetimeFields = spec.datetimeFields ?? [];

  declare('page', pageProblem);
  declare('results_per_page', resultsPerPageProblem);
  declare('search_by', (v) => {
    if (searchBy.length === 0) return 'This list cannot be searched; remove search_by.';
    return searchBy.includes(v) ? null : `search_by must be one of ${searchBy.join(', ')}.`;
  });
  declare('search', (v) => {
    if (searchBy.length === 0) return 'This list cannot be searched; remove search.';
    return v.length > 256 ? 'search must be at most 256 characters.' : null;
  });
  declare('order_type', (v) =>
    ['ASC', 'DESC'].includes(v.toUpperCase()) ? null : 'order_type must be one of ASC, DESC.',
  );
  declare('order_by', (v) =>
    Object.hasOwn(spec.orderBy, v)
      ? null
      : `order_by must be one of ${Object.keys(spec.orderBy).join(', ')}.`,
  );
  declare('datetime_field', (v) => {
    if (datetimeFields.length === 0) {
      return 'This list has no datetime filter; remove datetime_field.';
    }
    return datetimeFields.includes(v)
      ? null
      : `datetime_field must be one of ${datetimeFields.join(', ')}.`;
  });
  const noDatetime = 'This list has no datetime filter; remove datetime_start and datetime_end.';
  declare(
    'datetime_start',
    dateTime,
    () => (datetimeFields.length === 0 ? noDatetime : null),
    (v, _name, query) => {
      const start = parseDateTime(v);
      const end = typeof query.datetime_end === 'string' ? parseDateTime(query.datetime_end) : null;
      return start && end && start > end ? 'datetime_start must not be after datetime_end.' : null;
    },
  );
  declare('datetime_end', dateTime, (_v, _name, query) =>
    datetimeFields.length === 0 && query.datetime_start === undefined ? noDatetime : null,
  );
  for (const [name, filter] of Object.entries(spec.filters ?? {})) {
    declare(name, filterCheck(filter));
  }
  return dto;
}

const single: Check = () => null;

/** The problem of a `page` value, or null: the paging of lists, also read by other queries. */
export function pageProblem(value: string): string | null {
  return /^\d+$/.test(value) && Number(value) >= 1 && Number.isSafeInteger(Number(value))
    ? null
    : 'page must be a whole number of 1 or more.';
}

/** The problem of a `results_per_page` value, or null. */
export function resultsPerPageProblem(value: string): string | null {
  return RESULTS_PER_PAGE.some((n) => String(n) === value)
    ? null
    : `results_per_page must be one of ${RESULTS_PER_PAGE.join(', ')}.`;
}

function dateTime(value: string, name: string): string | null {
  return parseDateTime(value) === null
    ? `${name} must be a date and time as Y-m-d H:i:s (UTC).`
    : null;
}

function filterCheck(filter: FilterSpec): Check {
  switch (filter.kind) {
    case 'boolean':
      return (v, name) =>
        parseFormBoolean(v) === undefined ? `${name} must be one of 0, 1.` : null;
    case 'integer':
      return (v, name) =>
        /^\d{1,10}$/.test(v) && Number(v) <= 2147483647 ? null : `${name} must be a whole number.`;
    case 'enum':
      return (v, name) =>
        filter.values.includes(v) ? null : `${name} must be one of ${filter.values.join(', ')}.`;
    case 'string':
      return () => null;
  }
}

let constraints = 0;

/**
 * One class-validator constraint. An absent parameter passes every check; a repeated one fails
 * only the first (`single`), with the sentence that says so.
 */
function constraint(check: Check): PropertyDecorator {
  constraints += 1;
  const problem = (args: ValidationArguments): string | null => {
    const value: unknown = args.value;
    if (value === undefined) return null;
    if (check === single) {
      return typeof value === 'string'
        ? null
        : `${args.property} must be given once, as a single value.`;
    }
    return typeof value === 'string'
      ? check(value, args.property, args.object as Record<string, unknown>)
      : null;
  };
  return ValidateBy({
    name: `listQuery${constraints}`,
    validator: {
      validate: (_value: unknown, args?: ValidationArguments) =>
        args === undefined || problem(args) === null,
      defaultMessage: (args?: ValidationArguments) =>
        args === undefined ? '' : (problem(args) ?? ''),
    },
  });
}
