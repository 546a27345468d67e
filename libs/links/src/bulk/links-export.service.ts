import { Inject, Injectable } from '@nestjs/common';
import { Actor } from '@app/auth';
import { AppError, csvRecord, ListQuery, ListSpec } from '@app/common';
import { APP_CONFIG, type AppConfig } from '@app/config';
import { DomainsRepository, LinkEntity, LinksRepository } from '@app/database';
import { domainRoot, toLinkResponse } from '../link.mapper';
import { LINKS_LIST } from '../links.list';
import { LINK_CSV_COLUMNS, linkCsvRecord } from './link-csv';

export const EXPORT_FORMATS = ['csv', 'json'] as const;
export type ExportFormat = (typeof EXPORT_FORMATS)[number];

/** The list's filters, search and datetime range; the order is by id only (keyset paging). */
export const LINKS_EXPORT_LIST: ListSpec = {
  ...LINKS_LIST,
  orderBy: { link_id: 'id' },
  defaultOrder: { column: 'id', direction: 'ASC' },
};

/** An export being produced: its text, and how many links it has held so far. */
export interface ExportDocument {
  chunks: AsyncIterable<string>;
  exported(): number;
}

/** Links read per query; what an export holds in memory at once. */
const PAGE = 1000;

export function parseExportFormat(value: unknown): ExportFormat {
  const format = value === undefined || value === '' ? 'csv' : value;
  if (typeof format !== 'string' || !(EXPORT_FORMATS as readonly string[]).includes(format)) {
    throw new AppError('validation_failed', 'format must be one of csv, json.', 'format');
  }
  return format as ExportFormat;
}

/**
 * An account's links as a CSV or JSON document, produced a page at a time so that an export of a
 * million links never holds more than one page: pages are read by id after the last one read.
 */
@Injectable()
export class LinksExportService {
  constructor(
    private readonly links: LinksRepository,
    private readonly domains: DomainsRepository,
    @Inject(APP_CONFIG) private readonly config: AppConfig,
  ) {}

  /**
   * The document as chunks of text. The first page is read before this resolves, so that a
   * failure to read shows as an error answer rather than a cut-off download.
   */
  async open(actor: Actor, query: ListQuery, format: ExportFormat): Promise<ExportDocument> {
    let exported = 0;
    const pages = counted(this.pages(actor, query), (n) => (exported += n));
    const first = await pages.next();
    return {
      chunks: format === 'csv' ? this.csv(first, pages) : this.json(first, pages),
      exported: () => exported,
    };
  }

  private async *csv(
    first: IteratorResult<LinkWithRoot[]>,
    rest: AsyncGenerator<LinkWithRoot[]>,
  ): AsyncGenerator<string> {
    yield csvRecord(LINK_CSV_COLUMNS);
    for await (const page of withFirst(first, rest)) {
      yield page
        .map(({ link, root }) => linkCsvRecord({ ...link, full_url: `${root}/${link.url}` }))
        .join('');
    }
  }

  private async *json(
    first: IteratorResult<LinkWithRoot[]>,
    rest: AsyncGenerator<LinkWithRoot[]>,
  ): AsyncGenerator<string> {
    yield '{"data":[';
    let separator = '';
    for await (const page of withFirst(first, rest)) {
      let chunk = '';
      for (const { link, root } of page) {
        chunk += `${separator}${JSON.stringify(toLinkResponse(link, root))}`;
        separator = ',';
      }
      yield chunk;
    }
    yield ']}\n';
  }

  private async *pages(actor: Actor, query: ListQuery): AsyncGenerator<LinkWithRoot[]> {
    const roots = new Map<number, string>([[0, this.config.appUrl]]);
    let after: number | null = null;
    for (;;) {
      const links = await this.links.exportPage(
        actor.ownerId,
        query,
        query.order.direction,
        after,
        PAGE,
      );
      if (links.length === 0) {
        return;
      }
      for (const domainId of new Set(links.map((link) => link.domain_id))) {
        if (!roots.has(domainId)) {
          const domain = await this.domains.findOwned(actor.ownerId, domainId);
          roots.set(domainId, domain ? domainRoot(domain) : this.config.appUrl);
        }
      }
      yield links.map((link) => ({ link, root: roots.get(link.domain_id)! }));
      if (links.length < PAGE) {
        return;
      }
      after = links[links.length - 1].id;
    }
  }
}

interface LinkWithRoot {
  link: LinkEntity;
  root: string;
}

async function* counted<T>(
  pages: AsyncGenerator<T[]>,
  add: (n: number) => void,
): AsyncGenerator<T[]> {
  for await (const page of pages) {
    add(page.length);
    yield page;
  }
}

async function* withFirst<T>(first: IteratorResult<T>, rest: AsyncGenerator<T>): AsyncGenerator<T> {
  if (first.done) {
    return;
  }
  yield first.value;
  yield* rest;
}
