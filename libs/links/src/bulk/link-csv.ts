import { csvRecord, formatDateTime } from '@app/common';

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

/** A link's CSV record. */
export function linkCsvRecord(link: {
  location_url: string | null;
  url: string;
  datetime: Date;
  clicks: number;
  type: string;
  full_url: string;
}): string {
  const values: Record<LinkCsvColumn, string | number> = {
    location_url: link.location_url ?? '',
    url: link.url,
    title: '',
    tags: '',
    created_at: formatDateTime(link.datetime),
    clicks: link.clicks,
    type: link.type,
    full_url: link.full_url,
  };
  return csvRecord(LINK_CSV_COLUMNS.map((column) => values[column]));
}
