export const RESULTS_PER_PAGE = [10, 25, 50, 100, 250, 500, 1000] as const;
export const DEFAULT_RESULTS_PER_PAGE = 25;

export type FilterSpec =
  | { kind: 'boolean'; column?: string }
  /** `zeroIsNone`: `0` matches the rows whose column is null (a reference to no project). */
  | { kind: 'integer'; column?: string; zeroIsNone?: boolean }
  | { kind: 'string'; column?: string }
  | { kind: 'enum'; values: readonly string[]; column?: string };

/**
 * What one list endpoint accepts. Names are the API's; values are entity columns. Anything a
 * request sends outside these lists is a 400 that names the allowed values.
 */
export interface ListSpec {
  searchBy?: readonly string[];
  orderBy: Readonly<Record<string, string>>;
  datetimeFields?: readonly string[];
  filters?: Readonly<Record<string, FilterSpec>>;
  /** Order when the request names none; newest first by default. */
  defaultOrder?: { column: string; direction: OrderDirection };
}

export type OrderDirection = 'ASC' | 'DESC';
export type FilterValue = string | number | boolean | null;

/** A parsed, validated list request, ready for a repository. */
export interface ListQuery {
  page: number;
  resultsPerPage: number;
  search: { columns: readonly string[]; term: string } | null;
  order: { column: string; direction: OrderDirection };
  datetime: { column: string; start: Date | null; end: Date | null } | null;
  filters: ReadonlyArray<{ column: string; value: FilterValue }>;
}
