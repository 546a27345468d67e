import { parse } from 'csv-parse/sync';
import { AppError, isObject, restoreCsvText } from '@app/common';
import { aliasOf, ParsedRow, readFlag, RowError, text, toRow } from './import-row';

export const IMPORT_SOURCES = ['bitly', 'yourls', 'kutt', 'shlink', 'csv'] as const;
export type ImportSource = (typeof IMPORT_SOURCES)[number];

/**
 * Reads an export file of `source` into rows, in file order. A file that is not of that format at
 * all (no destination column, not JSON) is an error of the whole import; a bad record is a row
 * error, reported with the others. The formats and where they come from: test/fixtures/README.md.
 */
export function readExport(source: ImportSource, content: string): ParsedRow[] {
  switch (source) {
    case 'bitly':
      return readBitly(content);
    case 'yourls':
      return content.trimStart().startsWith('{') ? readYourlsApi(content) : readYourlsCsv(content);
    case 'kutt':
      return readKutt(content);
    case 'shlink':
      return readShlink(content);
    case 'csv':
      return readLinkdockCsv(content);
  }
}

/** A CSV record keyed by its normalized header name (lower case, letters and digits only). */
type Record_ = Map<string, string>;

function readCsv(content: string, what: string): Record_[] {
  let rows: string[][];
  try {
    rows = parse(content, { bom: true, skip_empty_lines: true, relax_column_count: true });
  } catch (error) {
    throw new AppError(
      'validation_failed',
      `The file is not a readable ${what}: ${(error as Error).message}`,
      'file',
    );
  }
  const [header = [], ...records] = rows;
  const names = header.map((name) => name.toLowerCase().replace(/[^a-z0-9]/g, ''));
  return records.map((values) => new Map(names.map((name, i) => [name, values[i] ?? ''])));
}

/** The first of `names` the file has, or an error naming what the format needs. */
function column(
  records: Record_[],
  names: string[],
  what: string,
  required: boolean,
): string | null {
  const found = names.find((name) => records.length === 0 || records[0].has(name));
  if (!found && required && records.length > 0) {
    throw new AppError(
      'validation_failed',
      `The file has no ${what} column: is it the right export?`,
      'file',
    );
  }
  return found ?? null;
}

const get = (record: Record_, name: string | null): string =>
  name === null ? '' : text(record.get(name));

const splitTags = (value: string): string[] =>
  value
    .split(/[|,]/)
    .map((tag) => tag.trim())
    .filter((tag) => tag !== '');

/**
 * Bitly's CSV export (Links > Export). Its header names vary between exports; these are read
 * case- and punctuation-blind: Destination URL / long_url, Custom link (the back-half chosen,
 * preferred) / Link / bitlink, Title, Tags, Date created / created_at, Clicks / Engagements; or
 * the JSON of its API (`readBitlyApi`).
 */
function readBitly(content: string): ParsedRow[] {
  if (/^[{[]/.test(content.replace(/^\uFEFF/, '').trimStart())) {
    return readBitlyApi(content);
  }
  const records = readCsv(content, 'Bitly CSV export');
  const destination = column(
    records,
    ['destinationurl', 'longurl'],
    'Destination URL (long_url)',
    true,
  );
  const custom = column(
    records,
    ['customlink', 'custombitlink', 'custombitlinks'],
    'Custom link',
    false,
  );
  const link = column(
    records,
    ['link', 'bitlink', 'shortlink', 'shorturl'],
    'Link',
    custom === null,
  );
  const created = column(
    records,
    ['datecreated', 'createdat', 'created', 'creationdate'],
    'date',
    false,
  );
  const clicks = column(
    records,
    ['clicks', 'totalclicks', 'engagements', 'totalengagements'],
    'clicks',
    false,
  );
  return records.map((record, i) => {
    const short = get(record, custom) || get(record, link);
    return toRow(i + 1, {
      location: get(record, destination),
      alias: short === '' ? null : aliasOf(short.split(/[\s,]+/)[0]),
      created: get(record, created),
      clicks: get(record, clicks),
      title: get(record, column(records, ['title'], 'title', false)),
      tags: splitTags(get(record, column(records, ['tags'], 'tags', false))),
    });
  });
}

/**
 * Bitly API v4, `GET /v4/groups/{group_guid}/bitlinks`: a page `{links: [Bitlink], pagination}`,
 * or several pages in one JSON array. A Bitlink: `id` (`bit.ly/abc`), `link`, `custom_bitlinks`
 * (the back-halves chosen, preferred), `long_url`, `title`, `tags`, `created_at`
 * (`2020-01-02T23:51:47+0000`). The list has no click counts.
 */
function readBitlyApi(content: string): ParsedRow[] {
  const body = readJson(content, 'Bitly API answer');
  const pages = Array.isArray(body) ? body : [body];
  if (!pages.every((page) => isObject(page) && Array.isArray(page.links))) {
    throw new AppError(
      'validation_failed',
      'The file has no "links" array: is it the answer of GET /v4/groups/{group_guid}/bitlinks?',
      'file',
    );
  }
  const links = pages.flatMap((page) => (page as { links: unknown[] }).links);
  return links.map((entry, i) => {
    const link = isObject(entry) ? entry : {};
    const custom = Array.isArray(link.custom_bitlinks) ? text(link.custom_bitlinks[0]) : '';
    const short = custom || text(link.id) || text(link.link);
    return toRow(i + 1, {
      location: text(link.long_url),
      alias: short === '' ? null : aliasOf(short),
      created: text(link.created_at),
      title: text(link.title),
      tags: Array.isArray(link.tags) ? link.tags.map(text).filter((tag) => tag !== '') : [],
    });
  });
}

/** YOURLS' core API, `action=stats&filter=last&limit=N&format=json`: links.link_N entries. */
function readYourlsApi(content: string): ParsedRow[] {
  const body = readJson(content, 'YOURLS stats answer') as { links?: unknown };
  if (typeof body.links !== 'object' || body.links === null) {
    throw new AppError(
      'validation_failed',
      'The file has no "links" object: is it the answer of action=stats&format=json?',
      'file',
    );
  }
  const links = Object.values(body.links as Record<string, unknown>).map((entry) =>
    isObject(entry) ? entry : {},
  );
  const keywords = yourlsKeywords(links.map((link) => text(link.shorturl)));
  return links.map((link, i) => {
    return toRow(i + 1, {
      location: text(link.url),
      alias: keywords[i],
      created: text(link.timestamp),
      clicks: text(link.clicks),
      title: text(link.title),
    });
  });
}

/**
 * The keywords of YOURLS short URLs (`yourls_link()`: YOURLS_SITE + '/' + keyword): the path
 * after the site's own path, which is not in the answer, so it is the leading path segments every
 * short URL of the file shares (`https://sho.rt/s/abc` of a YOURLS in `/s`: `abc`).
 */
function yourlsKeywords(shortUrls: readonly string[]): (string | null)[] {
  const paths = shortUrls.map((url) => (aliasOf(url) ?? '').split('/'));
  const first = paths[0] ?? [];
  let shared = 0;
  while (
    shared < first.length - 1 &&
    paths.every((path) => path.length - 1 > shared && path[shared] === first[shared])
  ) {
    shared += 1;
  }
  return paths.map((path) => path.slice(shared).join('/') || null);
}

/** The YOURLS Import/Export plugin's CSV: source (`/keyword/`), target, hits. */
function readYourlsCsv(content: string): ParsedRow[] {
  const records = readCsv(content, 'YOURLS CSV export');
  const source = column(records, ['source', 'keyword'], 'source', true);
  const target = column(records, ['target', 'url'], 'target', true);
  const hits = column(records, ['hits', 'clicks'], 'hits', false);
  return records.map((record, i) =>
    toRow(i + 1, {
      location: get(record, target),
      alias: aliasOf(`/${get(record, source)}`),
      clicks: get(record, hits),
    }),
  );
}

/**
 * Kutt's API v2 link list, `GET /api/v2/links` (`{limit, skip, total, data: [...]}`, or the
 * `data` arrays of several pages joined into one array), or the rows of Kutt's own links query
 * as its database hands them out (`banned` 0/1 on SQLite and MySQL, t/f or true/false on
 * PostgreSQL; `password` the hash or null): target, address, description, created_at,
 * visit_count. Password-protected and banned links are not imported.
 */
function readKutt(content: string): ParsedRow[] {
  const body = readJson(content, 'Kutt link list');
  const data = Array.isArray(body) ? body : isObject(body) ? body.data : undefined;
  if (!Array.isArray(data)) {
    throw new AppError(
      'validation_failed',
      'The file has no "data" array: is it the answer of GET /api/v2/links?',
      'file',
    );
  }
  return data.map((entry, i): ParsedRow => {
    const link = isObject(entry) ? entry : {};
    const alias = text(link.address) || null;
    const refuse = (reason: string): RowError => ({ row: i + 1, url: alias, reason });
    const banned = readFlag(link.banned);
    if (banned === 'invalid') {
      return refuse(
        `banned is ${JSON.stringify(link.banned)}, not a yes/no value; the link is not imported.`,
      );
    }
    if (banned) {
      return refuse('The link is banned in Kutt; it is not imported.');
    }
    // The API says true/false; a row of Kutt's own query holds the bcrypt hash, or null.
    const password = readFlag(link.password);
    if (password !== null && password !== false) {
      return refuse(
        'The link is password-protected in Kutt; its password is not in the export, so it is not imported.',
      );
    }
    return toRow(i + 1, {
      location: text(link.target),
      alias,
      created: text(link.created_at),
      clicks: text(link.visit_count),
      title: text(link.description),
    });
  });
}

/**
 * Shlink's CSV export of short URLs (the web client's Export button, short_urls.csv): createdAt,
 * domain, shortCode, shortUrl, longUrl, title, tags (`|`-separated), visits.
 */
function readShlink(content: string): ParsedRow[] {
  const records = readCsv(content, 'Shlink CSV export');
  const longUrl = column(records, ['longurl'], 'longUrl', true);
  const shortCode = column(records, ['shortcode'], 'shortCode', true);
  const visits = column(records, ['visits', 'visitscount'], 'visits', false);
  const created = column(records, ['createdat', 'datecreated'], 'createdAt', false);
  return records.map((record, i) =>
    toRow(i + 1, {
      location: get(record, longUrl),
      alias: get(record, shortCode) || null,
      created: get(record, created),
      clicks: get(record, visits),
      title: get(record, column(records, ['title'], 'title', false)),
      tags: splitTags(get(record, column(records, ['tags'], 'tags', false))),
    }),
  );
}

/** This service's own CSV (GET /v1/links/export?format=csv), or any CSV with these columns. */
function readLinkdockCsv(content: string): ParsedRow[] {
  // Our own export neutralises cells a spreadsheet would run ('-alias): read them back as stored.
  const records = readCsv(content, 'CSV file').map(
    (record) => new Map([...record].map(([name, value]) => [name, restoreCsvText(value)])),
  );
  const location = column(records, ['locationurl'], 'location_url', true);
  return records.map((record, i) =>
    toRow(i + 1, {
      location: get(record, location),
      alias: get(record, column(records, ['url'], 'url', false)) || null,
      type: get(record, column(records, ['type'], 'type', false)),
      created: get(record, column(records, ['createdat'], 'created_at', false)),
      clicks: get(record, column(records, ['clicks'], 'clicks', false)),
      title: get(record, column(records, ['title'], 'title', false)),
      tags: splitTags(get(record, column(records, ['tags'], 'tags', false))),
    }),
  );
}

function readJson(content: string, what: string): unknown {
  try {
    return JSON.parse(content.replace(/^\uFEFF/, '')) as unknown;
  } catch {
    throw new AppError('validation_failed', `The file is not a readable ${what} (JSON).`, 'file');
  }
}
