// Each from its own file (see visit-writer.ts).
import { fromDbDateTime } from '@app/database/db-values';
import type { RowsById } from '@app/database/engine/batch';
import type { OutboxEventInput } from '@app/database/events/outbox';
import { LinkEntity } from '@app/database/links/link.entity';
import { linkPayload } from '@app/notifications/events/link-payload';

const LIMIT = /"clicks_limit":(\d+)/;

/**
 * Whether adding `added` clicks, which brought a link to `after`, crossed its clicks limit (read
 * from the stored settings without parsing them whole: this runs for every link of every flush).
 * Exactly one flush crosses it, so `link.clicks_limit_reached` is raised once.
 */
export function crossedClicksLimit(settings: string, after: number, added: number): boolean {
  const match = LIMIT.exec(settings);
  if (match === null) return false;
  const limit = Number(match[1]);
  return limit > 0 && after - added < limit && after >= limit;
}

/** Whether a link with these stored settings has a clicks limit that `clicks` has not reached. */
export function belowClicksLimit(settings: string, clicks: number): boolean {
  const match = LIMIT.exec(settings);
  if (match === null) return false;
  const limit = Number(match[1]);
  return limit > 0 && clicks < limit;
}

/** The links' rows with their domains' scheme and host, by id (for rowsById). */
export const LIMITED_LINKS: RowsById = {
  select: `SELECT l.*, d."scheme" AS "domain_scheme", d."host" AS "domain_host"
    FROM "links" l LEFT JOIN "domains" d ON d."id" = l."domain_id"`,
  id: 'l."id"',
};

/** A `links` row as the drivers return it (dates as text on SQLite, counters as text on PostgreSQL). */
export interface LinkRow {
  id: number | string;
  user_id: number | string;
  project_id: number | string | null;
  domain_id: number | string;
  splash_page_id: number | string | null;
  type: string;
  url: string;
  location_url: string | null;
  settings: string;
  password_hash: string | null;
  clicks: number | string;
  bot_clicks: number | string;
  is_enabled: boolean | number;
  start_date: string | Date | null;
  end_date: string | Date | null;
  datetime: string | Date;
  last_datetime: string | Date | null;
  domain_scheme: string | null;
  domain_host: string | null;
}

function toEntity(row: LinkRow): LinkEntity {
  const date = (v: string | Date | null) =>
    v === null ? null : v instanceof Date ? v : fromDbDateTime(v);
  return Object.assign(new LinkEntity(), {
    id: Number(row.id),
    user_id: Number(row.user_id),
    project_id: row.project_id === null ? null : Number(row.project_id),
    domain_id: Number(row.domain_id),
    splash_page_id: row.splash_page_id === null ? null : Number(row.splash_page_id),
    type: row.type,
    url: row.url,
    location_url: row.location_url,
    settings: row.settings,
    password_hash: row.password_hash,
    clicks: Number(row.clicks),
    bot_clicks: Number(row.bot_clicks),
    is_enabled: row.is_enabled === true || row.is_enabled === 1,
    start_date: date(row.start_date),
    end_date: date(row.end_date),
    datetime: date(row.datetime) ?? new Date(0),
    last_datetime: date(row.last_datetime),
  });
}

/** The `link.clicks_limit_reached` events of these links, as a batch writes them (visit-writer.ts). */
export function clicksLimitEvents(rows: readonly LinkRow[], appUrl: string): OutboxEventInput[] {
  return rows.map((row) => {
    const link = toEntity(row);
    const base =
      row.domain_host === null ? appUrl : `${row.domain_scheme ?? 'https://'}${row.domain_host}`;
    return {
      event: 'link.clicks_limit_reached',
      ownerId: link.user_id,
      data: { ...linkPayload(link, link.domain_id === 0 ? appUrl : base, appUrl) },
    };
  });
}
