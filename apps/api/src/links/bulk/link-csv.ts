import { formatDateTime } from '@app/common';

/**
 * The columns of a links CSV, written by the export and read by `import --from csv`. `title` and
 * `tags` are part of the format (other shorteners have them) but links have neither yet: they are
 * written empty. `full_url` is derived from the domain and alias, so an import ignores it.
 */
export const LINK_CSV_COLUMNS = [
  'location_url',
  'url',
  'title',
  'tags',
  'created_at',
  'clicks',
  'type',
  'full_url',
] as const;

export type LinkCsvColumn = (typeof LINK_CSV_COLUMNS)[number];

/** One CSV record, RFC 4180: fields with a comma, quote, CR or LF are quoted; lines end in CRLF. */
export function csvRecord(fields: readonly string[]): string {
  return `${fields.map(csvField).join(',')}\r\n`;
}

function csvField(value: string): string {
  return /[",\r\n]/.test(value) ? `"${value.replace(/"/g, '""')}"` : value;
}

/** A link's CSV record. */
export function linkCsvRecord(link: {
  location_url: string | null;
  url: string;
  datetime: Date;
  clicks: number;
  type: string;
  full_url: string;
}): string {
  const values: Record<LinkCsvColumn, string> = {
    location_url: link.location_url ?? '',
    url: link.url,
    title: '',
    tags: '',
    created_at: formatDateTime(link.datetime),
    clicks: String(link.clicks),
    type: link.type,
    full_url: link.full_url,
  };
  return csvRecord(LINK_CSV_COLUMNS.map((column) => values[column]));
}
