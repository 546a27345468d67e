import { AppError, isObject, parseFormBoolean, Problem } from '@app/common';

/** Links one POST /v1/links/bulk may create. */
export const MAX_BULK_LINKS = 1000;

/** A bulk body read into one plain object of link fields per link, in order. */
export interface BulkBody {
  items: unknown[];
  /**
   * True for the origin's form (`is_bulk=1` + `location_urls`): the other fields are shared by
   * every line, so their problems are reported once, under their own names.
   */
  form: boolean;
}

const SHAPE =
  'Send a JSON array of links (each with the fields of POST /v1/links), or is_bulk=1 with location_urls, one destination per line.';

/**
 * Reads the two shapes of a bulk body: a JSON array of link objects, or the origin's form fields
 * `is_bulk=1` and `location_urls` (one destination per line, blank lines skipped; every other
 * field applies to each line, except `url`: the aliases are random).
 */
export function readBulkBody(body: unknown): BulkBody {
  let items: unknown[];
  let form = false;
  if (Array.isArray(body)) {
    items = body;
  } else if (isObject(body) && parseFormBoolean(body.is_bulk) === true) {
    form = true;
    const shared: Record<string, unknown> = { ...body };
    const lines = shared.location_urls;
    for (const field of ['is_bulk', 'location_urls', 'url']) {
      delete shared[field];
    }
    if (typeof lines !== 'string' && !Array.isArray(lines)) {
      throw new AppError(
        'validation_failed',
        'location_urls is required: one destination per line.',
        'location_urls',
      );
    }
    items = (Array.isArray(lines) ? lines.map(String) : lines.split(/\r\n|\r|\n/))
      .map((line) => line.trim())
      .filter((line) => line !== '')
      .map((line) => ({ ...shared, location_url: line }));
  } else {
    throw new AppError('validation_failed', SHAPE, isObject(body) ? 'is_bulk' : undefined);
  }
  const field = form ? 'location_urls' : undefined;
  if (items.length === 0) {
    throw new AppError('validation_failed', 'Send at least one link.', field);
  }
  if (items.length > MAX_BULK_LINKS) {
    throw new AppError(
      'validation_failed',
      `At most ${MAX_BULK_LINKS} links per request (this one has ${items.length}); split the batch.`,
      field,
    );
  }
  return { items, form };
}

/**
 * A problem of the link at `index`: its field becomes `[index].field` (`[index]` for the link
 * as a whole) and its title says which link it is about.
 */
export function atIndex(index: number, problem: Problem): Problem {
  return {
    ...problem,
    title: `Link [${index}]: ${problem.title}`,
    field: problem.field === undefined ? `[${index}]` : `[${index}].${problem.field}`,
  };
}
