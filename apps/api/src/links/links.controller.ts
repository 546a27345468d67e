import { Readable } from 'node:stream';
import {
  Body,
  Controller,
  Delete,
  Get,
  HttpCode,
  Post,
  Query,
  StreamableFile,
} from '@nestjs/common';
import {
  ApiExtraModels,
  ApiOperation,
  ApiQuery,
  ApiResponse,
  ApiTags,
  getSchemaPath,
} from '@nestjs/swagger';
import { type Actor, CurrentActor, TeamAccess } from '@app/auth';
import {
  ApiDataResponse,
  ApiErrors,
  ApiForm,
  ApiIdParam,
  ApiIdResponse,
  ApiListResponse,
  EXPORT_CONTENT,
  IdParam,
  Listing,
  ListParams,
  type ListQuery,
  RawResponse,
  type UploadedDiskFiles,
  UploadedOnDisk,
  Uploads,
} from '@app/common';
import type { AppConfig } from '@app/config';
import {
  LinksBulkService,
  EXPORT_FORMATS,
  LINKS_EXPORT_LIST,
  LinksExportService,
  parseExportFormat,
  CreateLinkDto,
  UpdateLinkDto,
  LinkResponse,
  LINKS_LIST,
} from '@app/links';
import { MAX_BIOLINK_IMAGE_BYTES, MAX_PREVIEW_IMAGE_BYTES } from './biolink-files';
import { BulkCreatedLinkDto, BulkLinksFormDto } from './bulk/bulk-links.dto';
import { LinksService } from './links.service';

/** The archive or page of a static site; bounded by STATIC_MAX_UPLOAD_BYTES. */
const SITE_UPLOAD = {
  file: { maxBytes: (config: AppConfig) => config.staticSites.maxUploadBytes },
  avatar: { maxBytes: MAX_BIOLINK_IMAGE_BYTES },
  preview_image: { maxBytes: MAX_PREVIEW_IMAGE_BYTES },
} as const;

@ApiTags('links')
@ApiErrors(401, 429)
@Controller('links')
export class LinksController {
  constructor(
    private readonly links: LinksService,
    private readonly bulkLinks: LinksBulkService,
    private readonly exports: LinksExportService,
  ) {}

  @Get()
  @TeamAccess('read')
  @ApiOperation({ summary: 'List links' })
  @Listing(LINKS_LIST)
  @ApiListResponse(LinkResponse)
  @ApiErrors(400)
  list(@CurrentActor() actor: Actor, @ListParams() query: ListQuery) {
    return this.links.list(actor, query);
  }

  // Before GET :id, which would take "export" for an id.
  @Get('export')
  @TeamAccess('read')
  @RawResponse()
  @ApiOperation({
    summary:
      'Export links as CSV or JSON, streamed: the filters of the list; ordered by id (order_type ASC by default); page and results_per_page are ignored',
  })
  @Listing(LINKS_EXPORT_LIST)
  @ApiQuery({ name: 'format', required: false, enum: EXPORT_FORMATS, description: 'Default csv.' })
  @ApiResponse({
    status: 200,
    content: EXPORT_CONTENT,
    description:
      'CSV (UTF-8, no BOM, RFC 4180, CRLF): location_url,url,title,tags,created_at,clicks,type,full_url; JSON: {"data": [link, ...]}',
  })
  @ApiErrors(400)
  async export(
    @CurrentActor() actor: Actor,
    @ListParams() query: ListQuery,
    @Query('format') format: unknown,
  ): Promise<StreamableFile> {
    const kind = parseExportFormat(format);
    const document = await this.exports.open(actor, query, kind);
    return exportFile(document.chunks, kind);
  }

  @Get(':id')
  @TeamAccess('read')
  @ApiOperation({ summary: 'Retrieve a link' })
  @ApiIdParam('Link id')
  @ApiDataResponse(LinkResponse)
  @ApiErrors(404)
  get(@CurrentActor() actor: Actor, @IdParam('link_not_found', 'link') id: number) {
    return this.links.get(actor, id);
  }

  @Post()
  @TeamAccess('create')
  @ApiOperation({
    summary:
      'Create a short link (type link), a WhatsApp chat link (type walink), a static site (type static, multipart with file; answers with the whole link) or a bio page (type biolink, optional avatar file; its blocks are /v1/biolink-blocks)',
  })
  @Uploads(SITE_UPLOAD, 'disk')
  @ApiForm()
  @ApiExtraModels(LinkResponse)
  @ApiResponse({
    status: 201,
    schema: {
      type: 'object',
      required: ['data'],
      properties: {
        // Exclusive branches: only the id (every link type but static), or the whole link
        // (static sites), which has more than the id.
        data: {
          oneOf: [
            {
              type: 'object',
              required: ['id'],
              properties: { id: { type: 'integer', example: 1 } },
              additionalProperties: false,
            },
            { $ref: getSchemaPath(LinkResponse) },
          ],
        },
      },
    },
  })
  @ApiErrors(400, 413)
  create(
    @CurrentActor() actor: Actor,
    @Body() dto: CreateLinkDto,
    @UploadedOnDisk() files: UploadedDiskFiles,
  ) {
    return this.links.create(actor, dto, files.file, files.avatar, files.preview_image);
  }

  // Before POST :id, which would take "bulk" for an id.
  @Post('bulk')
  @TeamAccess('create')
  @ApiOperation({
    summary:
      'Create up to 1,000 links (types link and walink) in one transaction: a JSON array of POST /v1/links bodies, or is_bulk=1 with location_urls (one destination per line). All or nothing: a 400 names every problem as [index].field. One bulk create or import per account at a time: another answers 429 bulk_in_progress with Retry-After.',
    requestBody: {
      required: true,
      content: {
        'application/x-www-form-urlencoded': {
          schema: { $ref: getSchemaPath(BulkLinksFormDto) },
        },
        'multipart/form-data': { schema: { $ref: getSchemaPath(BulkLinksFormDto) } },
        'application/json': {
          schema: {
            oneOf: [
              { type: 'array', maxItems: 1000, items: { $ref: getSchemaPath(CreateLinkDto) } },
              { $ref: getSchemaPath(BulkLinksFormDto) },
            ],
          },
        },
      },
    },
  })
  @ApiExtraModels(BulkLinksFormDto, BulkCreatedLinkDto, CreateLinkDto)
  @ApiResponse({
    status: 201,
    schema: {
      type: 'object',
      required: ['data'],
      properties: {
        data: { type: 'array', items: { $ref: getSchemaPath(BulkCreatedLinkDto) } },
      },
    },
  })
  @ApiErrors(400, 413)
  bulk(@CurrentActor() actor: Actor, @Body() body: unknown) {
    return this.bulkLinks.create(actor, body);
  }

  @Post(':id')
  @TeamAccess('update')
  @HttpCode(200)
  @ApiOperation({
    summary:
      'Update a link; absent fields keep their values. A static link takes a new file, which replaces the whole site at once.',
  })
  @ApiIdParam('Link id')
  @Uploads(SITE_UPLOAD, 'disk')
  @ApiForm()
  @ApiIdResponse()
  @ApiErrors(400, 404, 409, 413)
  update(
    @CurrentActor() actor: Actor,
    @IdParam('link_not_found', 'link') id: number,
    @Body() dto: UpdateLinkDto,
    @UploadedOnDisk() files: UploadedDiskFiles,
  ) {
    return this.links.update(actor, id, dto, files.file, files.avatar, files.preview_image);
  }

  @Delete(':id')
  @TeamAccess('delete')
  @ApiOperation({ summary: 'Delete a link, its visits and (static links) its files' })
  @ApiIdParam('Link id')
  @ApiIdResponse()
  @ApiErrors(404)
  remove(@CurrentActor() actor: Actor, @IdParam('link_not_found', 'link') id: number) {
    return this.links.remove(actor, id);
  }
}

/** A download of an export; the file name carries the time it was made. */
function exportFile(chunks: AsyncIterable<string>, format: 'csv' | 'json'): StreamableFile {
  const stamp = new Date().toISOString().slice(0, 19).replace(/[-:]/g, '').replace('T', '-');
  // A page that fails to read once the headers are out cuts the download (StreamableFile's
  // handler destroys the response), so that a truncated file never looks complete.
  return new StreamableFile(Readable.from(chunks, { objectMode: false }), {
    type: format === 'csv' ? 'text/csv; charset=utf-8' : 'application/json; charset=utf-8',
    disposition: `attachment; filename="links-${stamp}.${format}"`,
  });
}
