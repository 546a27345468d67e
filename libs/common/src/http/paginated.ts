/** One page of a list. Handlers return it; the envelope (envelope.ts) adds `meta` and `links`. */
export class Paginated<T> {
  constructor(
    readonly items: readonly T[],
    readonly total: number,
    readonly page: number,
    readonly resultsPerPage: number,
  ) {}

  map<U>(fn: (item: T) => U): Paginated<U> {
    return new Paginated(this.items.map(fn), this.total, this.page, this.resultsPerPage);
  }
}

export interface ListEnvelope<T> {
  data: T[];
  meta: {
    page: number;
    results_per_page: number;
    total: number;
    total_results: number;
    total_pages: number;
  };
  links: { first: string; last: string; next: string | null; prev: string | null; self: string };
}

/**
 * Builds the list envelope. Links are absolute, rooted at APP_URL (never the Host header), and
 * keep every parameter of the request; `page` always comes last.
 */
export function toListEnvelope<T>(
  page: Paginated<T>,
  appUrl: string,
  originalUrl: string,
): ListEnvelope<T> {
  const totalPages = Math.ceil(page.total / page.resultsPerPage);
  const url = new URL(originalUrl, 'http://placeholder');
  const link = (n: number): string => {
    const params = new URLSearchParams(url.search);
    params.delete('page');
    params.append('page', String(n));
    return `${appUrl}${url.pathname}?${params.toString()}`;
  };
  return {
    data: [...page.items],
    meta: {
      page: page.page,
      results_per_page: page.resultsPerPage,
      total: page.total,
      total_results: page.total,
      total_pages: totalPages,
    },
    links: {
      first: link(1),
      last: link(Math.max(totalPages, 1)),
      next: page.page < totalPages ? link(page.page + 1) : null,
      prev: page.page > 1 ? link(Math.min(page.page - 1, Math.max(totalPages, 1))) : null,
      self: link(page.page),
    },
  };
}
