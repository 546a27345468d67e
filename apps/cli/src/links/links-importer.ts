import { Actor } from '@app/auth';
import { formatDateTime, normalizeHttpUrl } from '@app/common';
import { LinkFoundByAddress, LinksRepository } from '@app/database';
import { LinkCheck, LinksBulkService, LinkToInsert, parseWhatsappUrl } from '@app/links';
import { ImportRow, isRowError, ParsedRow, RowError } from './import-row';

/** Rows checked and written together: one transaction each. */
export const IMPORT_CHUNK = 1000;

export interface ImportTarget {
  domainId: number;
  projectId: number | null;
  dryRun: boolean;
}

export interface ImportSummary {
  rows: number;
  /** Links created (with --dry-run: that would be created). */
  created: number;
  /** Rows already imported (the same alias and destination in this account), or repeated. */
  skipped: number;
  failed: RowError[];
  /** Columns the file had values in that links cannot hold yet (title, tags). */
  not_imported: string[];
  dry_run: boolean;
}

/**
 * Imports rows as links of one account, a chunk at a time, with the rules of POST /v1/links. A
 * row whose link exists already (same alias and destination in this account, or, without an
 * alias, the same destination and creation time) is skipped, so running an import again creates
 * nothing new; a taken alias is reported, never overwritten.
 */
export class LinksImporter {
  constructor(
    private readonly bulk: LinksBulkService,
    private readonly links: LinksRepository,
  ) {}

  async run(
    actor: Actor,
    rows: readonly ParsedRow[],
    target: ImportTarget,
    progress: (done: number) => void = () => undefined,
  ): Promise<ImportSummary> {
    const summary: ImportSummary = {
      rows: rows.length,
      created: 0,
      skipped: 0,
      failed: [],
      not_imported: [],
      dry_run: target.dryRun,
    };
    const seen = new Map<string, ImportRow>();
    const unstored = new Set<string>();
    for (let start = 0; start < rows.length; start += IMPORT_CHUNK) {
      const fresh: ImportRow[] = [];
      for (const row of rows.slice(start, start + IMPORT_CHUNK)) {
        if (isRowError(row)) {
          summary.failed.push(row);
          continue;
        }
        if (row.title !== '') unstored.add('title');
        if (row.tags.length > 0) unstored.add('tags');
        const earlier = row.alias === null ? undefined : seen.get(row.alias);
        if (earlier === undefined) {
          if (row.alias !== null) seen.set(row.alias, row);
          fresh.push(row);
        } else if (destination(earlier) === destination(row)) {
          summary.skipped += 1;
        } else {
          summary.failed.push(
            fail(row, `The alias is also on row ${earlier.row}, with another destination.`),
          );
        }
      }
      const pending = await this.withoutImported(actor, fresh, target.domainId);
      summary.skipped += fresh.length - pending.length;
      const checks = await this.bulk.check(
        actor,
        pending.map((row) => linkFields(row, target)),
        { imported: true },
      );
      const valid: LinkToInsert[] = [];
      checks.forEach((check: LinkCheck, i) => {
        if (check.ok) {
          const row = pending[i];
          valid.push({
            ...check.link,
            clicks: row.clicks ?? 0,
            datetime: row.createdAt ?? undefined,
          });
        } else {
          summary.failed.push(fail(pending[i], check.problems.map((p) => p.title).join(' ')));
        }
      });
      if (!target.dryRun && valid.length > 0) {
        await this.bulk.insert(actor, valid, { raiseEvents: false });
      }
      summary.created += valid.length;
      progress(Math.min(start + IMPORT_CHUNK, rows.length));
    }
    summary.not_imported = [...unstored].sort();
    return summary;
  }

  /** The rows whose link is not in the account yet. */
  private async withoutImported(
    actor: Actor,
    rows: readonly ImportRow[],
    domainId: number,
  ): Promise<ImportRow[]> {
    const aliases = rows.flatMap((row) => (row.alias === null ? [] : [row.alias]));
    const byAlias = new Map(
      (await this.links.findByAliases(domainId, aliases)).map((link) => [link.url, link]),
    );
    const unnamed = rows.filter((row) => row.alias === null).map(destination);
    const byLocation = new Map<string, LinkFoundByAddress[]>();
    for (const link of await this.links.findOwnedByLocations(actor.ownerId, domainId, unnamed)) {
      const key = link.location_url ?? '';
      byLocation.set(key, [...(byLocation.get(key) ?? []), link]);
    }
    return rows.filter((row) => {
      if (row.alias !== null) {
        const link = byAlias.get(row.alias);
        return !(link && link.user_id === actor.ownerId && link.location_url === destination(row));
      }
      const same = byLocation.get(destination(row)) ?? [];
      const when = row.createdAt === null ? null : formatDateTime(row.createdAt);
      return !same.some((link) => when === null || formatDateTime(link.datetime) === when);
    });
  }
}

/** The body of POST /v1/links a row stands for (a chat link by its number and message). */
function linkFields(row: ImportRow, target: ImportTarget): Record<string, unknown> {
  const chat = row.type === 'walink' ? parseWhatsappUrl(row.location_url) : null;
  return {
    type: row.type,
    ...(chat
      ? { phone_number: chat.phoneNumber, message: chat.message ?? '' }
      : { location_url: row.location_url }),
    url: row.alias ?? '',
    domain_id: target.domainId,
    ...(target.projectId === null ? {} : { project_id: target.projectId }),
  };
}

/** The destination as it is stored (a URL in the form a browser resolves it to). */
function destination(row: ImportRow): string {
  return normalizeHttpUrl(row.location_url) ?? row.location_url;
}

function fail(row: ImportRow, reason: string): RowError {
  return { row: row.row, url: row.alias, reason };
}
