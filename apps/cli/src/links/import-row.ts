import { parseDateTime } from '@app/common';

/** One link read from an export file, before any check. */
export interface ImportRow {
  /** The record's number in the file, from 1 (CSV: the header is not counted). */
  row: number;
  location_url: string;
  /** The alias it had; null when the format has none (a random one is drawn). */
  alias: string | null;
  type: 'link' | 'walink';
  createdAt: Date | null;
  clicks: number | null;
  /** Read but not stored (links have no title or tags yet): reported in the summary. */
  title: string;
  tags: string[];
}

/** A record that could not be read. */
export interface RowError {
  row: number;
  url: string | null;
  reason: string;
}

export type ParsedRow = ImportRow | RowError;

export function isRowError(row: ParsedRow): row is RowError {
  return 'reason' in row;
}

/** A value of a record, trimmed; '' when absent. */
export function text(value: unknown): string {
  return typeof value === 'string' ? value.trim() : typeof value === 'number' ? String(value) : '';
}

/**
 * A creation time: `Y-m-d H:i:s` (UTC, this API's format and YOURLS'), or ISO 8601 (`Z` or an
 * offset `±hh`, `±hhmm`, `±hh:mm`; without one, UTC). '' is null; anything else is an error.
 */
export function readDate(value: string): Date | null | 'invalid' {
  if (value === '') {
    return null;
  }
  const plain = parseDateTime(value);
  if (plain) {
    return plain;
  }
  const iso =
    /^(\d{4}-\d{2}-\d{2})[T ](\d{2}:\d{2}(?::\d{2}(?:\.\d{1,9})?)?)(Z|[+-]\d{2}(?::?\d{2})?)?$/i.exec(
      value,
    );
  if (!iso || !isCalendarDate(iso[1])) {
    return 'invalid';
  }
  // ±hh (PostgreSQL's text output of a timestamptz: `2024-02-01 10:00:00+00`), ±hhmm, ±hh:mm.
  const zone = (iso[3] ?? 'Z').replace(
    /^([+-]\d{2})(\d{2})?$/,
    (_, h: string, m?: string) => `${h}:${m ?? '00'}`,
  );
  const date = new Date(`${iso[1]}T${iso[2]}${zone}`);
  return Number.isNaN(date.getTime()) ? 'invalid' : date;
}

/** Whether `Y-m-d` is a real day (Date would read 2024-02-30 as 1 March). */
function isCalendarDate(ymd: string): boolean {
  const [y, m, d] = ymd.split('-').map(Number);
  const date = new Date(Date.UTC(y, m - 1, d));
  return date.getUTCFullYear() === y && date.getUTCMonth() === m - 1 && date.getUTCDate() === d;
}

/**
 * A yes/no value as each tool's database hands it out: `true`/`false` (PostgreSQL through a
 * driver, JSON), `1`/`0` (SQLite and MySQL, where a boolean column is an integer), `"t"`/`"f"`
 * (PostgreSQL's text form, psql), `"true"`/`"false"`, `"1"`/`"0"`. Absent, null or '' is null;
 * anything else is 'invalid'.
 */
export function readFlag(value: unknown): boolean | null | 'invalid' {
  if (value === undefined || value === null || value === '') return null;
  if (typeof value === 'boolean') return value;
  if (value === 1 || value === 0) return value === 1;
  if (typeof value !== 'string') return 'invalid';
  const word = value.trim().toLowerCase();
  if (word === '1' || word === 't' || word === 'true') return true;
  if (word === '0' || word === 'f' || word === 'false') return false;
  return 'invalid';
}

/** A visit count: a whole number, '' is null; anything else is an error. */
export function readCount(value: string): number | null | 'invalid' {
  if (value === '') {
    return null;
  }
  const normalized = value.replace(/[,_ ]/g, '');
  if (!/^\d{1,15}$/.test(normalized)) {
    return 'invalid';
  }
  return Number(normalized);
}

/** The alias of a short URL: its path without slashes (`bit.ly/abc`, `https://x.y/abc/`). */
export function aliasOf(shortUrl: string): string | null {
  const withoutScheme = shortUrl.replace(/^[a-z][a-z0-9+.-]*:\/\//i, '');
  const slash = withoutScheme.indexOf('/');
  const path = slash === -1 ? withoutScheme : withoutScheme.slice(slash + 1);
  const alias = path.split(/[?#]/)[0].replace(/^\/+|\/+$/g, '');
  return alias === '' ? null : alias;
}

/** Builds a row from the values every format maps to, or the reason it cannot be one. */
export function toRow(
  row: number,
  values: {
    location: string;
    alias: string | null;
    type?: string;
    created?: string;
    clicks?: string;
    title?: string;
    tags?: string[];
  },
): ParsedRow {
  const fail = (reason: string): RowError => ({ row, url: values.alias, reason });
  if (values.location === '') {
    return fail('The record has no destination URL.');
  }
  const type = values.type === undefined || values.type === '' ? 'link' : values.type;
  if (type === 'static') {
    return fail('Static sites cannot be imported: their files are not in the export.');
  }
  if (type !== 'link' && type !== 'walink') {
    return fail(`type must be link or walink, not "${type}".`);
  }
  const createdAt = readDate(values.created ?? '');
  if (createdAt === 'invalid') {
    return fail(`The creation time "${values.created}" is not a date.`);
  }
  const clicks = readCount(values.clicks ?? '');
  if (clicks === 'invalid') {
    return fail(`The visit count "${values.clicks}" is not a whole number.`);
  }
  return {
    row,
    location_url: values.location,
    alias: values.alias,
    type,
    createdAt,
    clicks,
    title: values.title ?? '',
    tags: values.tags ?? [],
  };
}
