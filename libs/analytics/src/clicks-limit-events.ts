import type { Repository } from 'typeorm';
// Each from its own file (see visit-writer.ts).
import type { RowsById } from '@app/database/engine/batch';
import type { Row } from '@app/database/engine/prepared-query';
import { hydrateRow } from '@app/database/engine/row-reader';
import type { OutboxEventInput } from '@app/database/events/outbox';
import type { LinkEntity } from '@app/database/links/link.entity';
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

/** A row of LIMITED_LINKS: the link's columns and its domain's. */
export type LinkRow = Row & { domain_scheme: string | null; domain_host: string | null };

/** The `link.clicks_limit_reached` events of these links, as a batch writes them (visit-writer.ts). */
export function clicksLimitEvents(
  rows: readonly LinkRow[],
  links: Repository<LinkEntity>,
  appUrl: string,
): OutboxEventInput[] {
  return rows.map((row) => {
    const link = hydrateRow(links, row);
    const base =
      row.domain_host === null ? appUrl : `${row.domain_scheme ?? 'https://'}${row.domain_host}`;
    return {
      event: 'link.clicks_limit_reached',
      ownerId: link.user_id,
      data: { ...linkPayload(link, link.domain_id === 0 ? appUrl : base, appUrl) },
    };
  });
}
