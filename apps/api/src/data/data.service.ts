import { Injectable } from '@nestjs/common';
import { Actor } from '@app/auth';
import { AppError, csvRecord, ListQuery, NotFoundError, Paginated } from '@app/common';
import { COLLECTOR_BLOCK_TYPES, DATA_KEYS, DataRepository, DatumEntity } from '@app/database';
import { DatumResponse, toDatumResponse } from './datum.mapper';

export const EXPORT_FORMATS = ['csv', 'json'] as const;
export type ExportFormat = (typeof EXPORT_FORMATS)[number];

/** The record's own columns, before one column per data key. */
const BASE_COLUMNS = ['id', 'biolink_block_id', 'link_id', 'project_id', 'type', 'datetime'];
const BOM = '\uFEFF';

export function parseExportFormat(value: unknown): ExportFormat {
  const format = value === undefined || value === '' ? 'csv' : value;
  if (typeof format !== 'string' || !(EXPORT_FORMATS as readonly string[]).includes(format)) {
    throw new AppError('validation_failed', 'format must be one of csv, json.', 'format');
  }
  return format as ExportFormat;
}

@Injectable()
export class DataService {
  constructor(private readonly data: DataRepository) {}

  async list(actor: Actor, query: ListQuery): Promise<Paginated<DatumResponse>> {
    return (await this.data.listOwned(actor.ownerId, query)).map(toDatumResponse);
  }

  async get(actor: Actor, id: number): Promise<DatumResponse> {
    return toDatumResponse(await this.findOwned(actor, id));
  }

  async remove(actor: Actor, id: number): Promise<{ id: number }> {
    if (!(await this.data.deleteOwned(actor.ownerId, id))) {
      throw new NotFoundError('datum_not_found', 'data record');
    }
    return { id };
  }

  /**
   * The matching records as CSV (UTF-8 with a BOM; the record's fields, then one column per data
   * key of the kinds asked for) or JSON, a page at a time. The first page is read before this
   * resolves, so that a failure shows as an error answer rather than a cut-off download.
   */
  async export(actor: Actor, query: ListQuery, format: ExportFormat): Promise<AsyncIterable<string>> {
    const pages = this.data.exportOwned(actor.ownerId, query);
    const first = await pages.next();
    const all = withFirst(first, pages);
    if (format === 'json') {
      return json(all);
    }
    const kind = query.filters.find((f) => f.column === 'type')?.value;
    const kinds = COLLECTOR_BLOCK_TYPES.filter((k) => kind === undefined || k === kind);
    const keys = [...new Set(kinds.flatMap((k) => DATA_KEYS[k]))];
    return csv(all, keys);
  }

  private async findOwned(actor: Actor, id: number): Promise<DatumEntity> {
    const datum = await this.data.findOwned(actor.ownerId, id);
    if (!datum) {
      throw new NotFoundError('datum_not_found', 'data record');
    }
    return datum;
  }
}

async function* withFirst<T>(
  first: IteratorResult<T>,
  rest: AsyncGenerator<T>,
): AsyncGenerator<T> {
  if (first.done) return;
  yield first.value;
  yield* rest;
}

async function* json(pages: AsyncIterable<DatumEntity[]>): AsyncGenerator<string> {
  yield '{"data":[';
  let separator = '';
  for await (const page of pages) {
    let chunk = '';
    for (const datum of page) {
      chunk += `${separator}${JSON.stringify(toDatumResponse(datum))}`;
      separator = ',';
    }
    yield chunk;
  }
  yield ']}\n';
}

async function* csv(pages: AsyncIterable<DatumEntity[]>, keys: string[]): AsyncGenerator<string> {
  yield BOM + csvRecord([...BASE_COLUMNS, ...keys]);
  for await (const page of pages) {
    let chunk = '';
    for (const datum of page) {
      const record = toDatumResponse(datum);
      const values = [
        record.id,
        record.biolink_block_id,
        record.link_id,
        record.project_id,
        record.type,
        record.datetime,
        ...keys.map((key) => cellText(record.data[key])),
      ];
      chunk += csvRecord(values);
    }
    yield chunk;
  }
}

/** A data value as text: the CSV writer keeps a formula-like one from running (csvRecord). */
function cellText(value: unknown): string {
  if (value === null || value === undefined) return '';
  return typeof value === 'string' ? value : JSON.stringify(value);
}
