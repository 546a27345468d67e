import { Readable } from 'node:stream';
import { Controller, Delete, Get, Query, StreamableFile } from '@nestjs/common';
import { ApiOperation, ApiQuery, ApiResponse, ApiTags } from '@nestjs/swagger';
import { type Actor, CurrentActor, TeamAccess } from '@app/auth';
import {
  ApiDataResponse,
  ApiErrors,
  ApiIdParam,
  ApiIdResponse,
  ApiListResponse,
  EXPORT_CONTENT,
  IdParam,
  Listing,
  ListParams,
  type ListQuery,
  RawResponse,
} from '@app/common';
import { DATA_EXPORT_LIST, DATA_LIST } from './data.list';
import { DataService, EXPORT_FORMATS, parseExportFormat } from './data.service';
import { DatumResponse } from './datum.mapper';

const NOT_FOUND = 'datum_not_found';
const WHAT = 'data record';

@ApiTags('data')
@ApiErrors(401, 429)
@Controller('data')
export class DataController {
  constructor(private readonly data: DataService) {}

  @Get()
  @TeamAccess('read')
  @ApiOperation({ summary: 'List collected data records (what visitors sent through bio pages)' })
  @Listing(DATA_LIST)
  @ApiListResponse(DatumResponse)
  @ApiErrors(400)
  list(@CurrentActor() actor: Actor, @ListParams() query: ListQuery) {
    return this.data.list(actor, query);
  }

  // Before GET :id, which would take "export" for an id.
  @Get('export')
  @TeamAccess('read')
  @RawResponse()
  @ApiOperation({
    summary:
      'Export collected data as CSV or JSON, streamed: the filters of the list; ordered by id; page and results_per_page are ignored',
  })
  @Listing(DATA_EXPORT_LIST)
  @ApiQuery({ name: 'format', required: false, enum: EXPORT_FORMATS, description: 'Default csv.' })
  @ApiResponse({
    status: 200,
    content: EXPORT_CONTENT,
    description:
      'CSV (UTF-8 with BOM, RFC 4180, CRLF): id,biolink_block_id,link_id,project_id,type,datetime, then one column per data key of the kinds exported; JSON: {"data": [record, ...]}',
  })
  @ApiErrors(400)
  async export(
    @CurrentActor() actor: Actor,
    @ListParams() query: ListQuery,
    @Query('format') format: unknown,
  ): Promise<StreamableFile> {
    const kind = parseExportFormat(format);
    const chunks = await this.data.export(actor, query, kind);
    const stamp = new Date().toISOString().slice(0, 19).replace(/[-:]/g, '').replace('T', '-');
    return new StreamableFile(Readable.from(chunks, { objectMode: false }), {
      type: kind === 'csv' ? 'text/csv; charset=utf-8' : 'application/json; charset=utf-8',
      disposition: `attachment; filename="data-${stamp}.${kind}"`,
    });
  }

  @Get(':id')
  @TeamAccess('read')
  @ApiOperation({ summary: 'Retrieve a collected data record' })
  @ApiIdParam('Data record id')
  @ApiDataResponse(DatumResponse)
  @ApiErrors(404)
  get(@CurrentActor() actor: Actor, @IdParam(NOT_FOUND, WHAT) id: number) {
    return this.data.get(actor, id);
  }

  @Delete(':id')
  @TeamAccess('delete')
  @ApiOperation({ summary: 'Delete a collected data record' })
  @ApiIdParam('Data record id')
  @ApiIdResponse()
  @ApiErrors(404)
  remove(@CurrentActor() actor: Actor, @IdParam(NOT_FOUND, WHAT) id: number) {
    return this.data.remove(actor, id);
  }
}
