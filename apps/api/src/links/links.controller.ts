import { Body, Controller, Delete, Get, HttpCode, Post } from '@nestjs/common';
import { ApiExtraModels, ApiOperation, ApiResponse, ApiTags, getSchemaPath } from '@nestjs/swagger';
import { type Actor, CurrentActor, TeamAccess } from '@app/auth';
import {
  ApiDataResponse,
  ApiErrors,
  ApiForm,
  ApiIdParam,
  ApiIdResponse,
  ApiListResponse,
  IdDto,
  IdParam,
  Listing,
  ListParams,
  type ListQuery,
  type UploadedDiskFiles,
  UploadedOnDisk,
  Uploads,
} from '@app/common';
import type { AppConfig } from '@app/config';
import { CreateLinkDto } from './dto/create-link.dto';
import { UpdateLinkDto } from './dto/update-link.dto';
import { LinkResponse } from './link.mapper';
import { LINKS_LIST } from './links.list';
import { LinksService } from './links.service';

/** The archive or page of a static site; bounded by STATIC_MAX_UPLOAD_BYTES. */
const SITE_UPLOAD = {
  file: { maxBytes: (config: AppConfig) => config.staticSites.maxUploadBytes },
} as const;

@ApiTags('links')
@ApiErrors(401, 429)
@Controller('links')
export class LinksController {
  constructor(private readonly links: LinksService) {}

  @Get()
  @TeamAccess('read')
  @ApiOperation({ summary: 'List links' })
  @Listing(LINKS_LIST)
  @ApiListResponse(LinkResponse)
  @ApiErrors(400)
  list(@CurrentActor() actor: Actor, @ListParams() query: ListQuery) {
    return this.links.list(actor, query);
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
      'Create a short link (type link), a WhatsApp chat link (type walink) or a static site (type static, multipart with file; answers with the whole link)',
  })
  @Uploads(SITE_UPLOAD, 'disk')
  @ApiForm()
  @ApiExtraModels(IdDto, LinkResponse)
  @ApiResponse({
    status: 201,
    schema: {
      type: 'object',
      required: ['data'],
      properties: {
        data: { oneOf: [{ $ref: getSchemaPath(IdDto) }, { $ref: getSchemaPath(LinkResponse) }] },
      },
    },
  })
  @ApiErrors(400, 413)
  create(
    @CurrentActor() actor: Actor,
    @Body() dto: CreateLinkDto,
    @UploadedOnDisk() files: UploadedDiskFiles,
  ) {
    return this.links.create(actor, dto, files.file);
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
    return this.links.update(actor, id, dto, files.file);
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
