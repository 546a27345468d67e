import { validateSync } from 'class-validator';
import { AppError, Problem } from '../errors';
import { parseDateTime } from '../time';
import { parseFormBoolean } from '../validation/form-boolean';
import { listParameterNames, listQueryDto } from './list-query.dto';
import {
  DEFAULT_RESULTS_PER_PAGE,
  FilterSpec,
  FilterValue,
  ListQuery,
  ListSpec,
  OrderDirection,
} from './list-spec';

type Query = Record<string, unknown>;

/**
 * Turns a request's query string into a ListQuery: validated once against the list's query DTO
 * (`listQueryDto`), or one 400 listing every problem.
 */
export function parseListQuery(query: Query, spec: ListSpec): ListQuery {
  const params = readListQuery(query, spec);
  const search = params.search;
  const searchBy = spec.searchBy ?? [];
  const fallback = spec.defaultOrder ?? { column: 'id', direction: 'DESC' as const };
  const direction = params.order_type?.toUpperCase() as OrderDirection | undefined;
  const start = params.datetime_start === undefined ? null : parseDateTime(params.datetime_start);
  const end = params.datetime_end === undefined ? null : parseDateTime(params.datetime_end);
  return {
    page: params.page === undefined ? 1 : Number(params.page),
    resultsPerPage:
      params.results_per_page === undefined
        ? DEFAULT_RESULTS_PER_PAGE
        : Number(params.results_per_page),
    search:
      search === undefined
        ? null
        : { columns: params.search_by !== undefined ? [params.search_by] : searchBy, term: search },
    order:
      params.order_by === undefined
        ? { column: fallback.column, direction: direction ?? fallback.direction }
        : { column: spec.orderBy[params.order_by], direction: direction ?? 'ASC' },
    datetime:
      start === null && end === null
        ? null
        : {
            column: params.datetime_field ?? (spec.datetimeFields ?? [])[0],
            start,
            end,
          },
    filters: Object.entries(spec.filters ?? {}).flatMap(([name, filter]) => {
      const raw = params[name];
      return raw === undefined
        ? []
        : [{ column: filter.column ?? name, value: filterValue(raw, filter) }];
    }),
  };
}

/** The list's parameters of `query` (empty ones absent), validated; each a single string. */
function readListQuery(query: Query, spec: ListSpec): Record<string, string | undefined> {
  const dto = new (listQueryDto(spec))() as Record<string, unknown>;
  for (const name of listParameterNames(spec)) {
    const value = Object.hasOwn(query, name) ? query[name] : undefined;
    if (value !== undefined && value !== '') {
      dto[name] = value;
    }
  }
  const problems: Problem[] = validateSync(dto).flatMap((error) =>
    Object.values(error.constraints ?? {}).map((title) => ({ title, field: error.property })),
  );
  if (problems.length > 0) {
    throw new AppError('invalid_list_parameter', problems);
  }
  return dto as Record<string, string | undefined>;
}

function filterValue(raw: string, filter: FilterSpec): FilterValue {
  switch (filter.kind) {
    case 'boolean':
      return parseFormBoolean(raw) as boolean;
    case 'integer':
      return filter.zeroIsNone === true && Number(raw) === 0 ? null : Number(raw);
    case 'enum':
    case 'string':
      return raw;
  }
}
