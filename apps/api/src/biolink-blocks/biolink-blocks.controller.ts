import { Body, Controller, Delete, Get, HttpCode, Post } from '@nestjs/common';
import { ApiOperation, ApiTags } from '@nestjs/swagger';
import { type Actor, CurrentActor, TeamAccess } from '@app/auth';
import {
  ApiDataResponse,
  ApiErrors,
  ApiForm,
  ApiIdParam,
  ApiIdResponse,
  ApiListResponse,
  IdParam,
  Listing,
  ListParams,
  type ListQuery,
  Uploaded,
  type UploadedFiles,
  Uploads,
} from '@app/common';
import { MAX_BIOLINK_IMAGE_BYTES } from '../links/biolink-files';
import { BiolinkBlockResponse } from './biolink-block.mapper';
import { BIOLINK_BLOCKS_LIST } from './biolink-blocks.list';
import { BiolinkBlocksService } from './biolink-blocks.service';
import { CreateBiolinkBlockDto, UpdateBiolinkBlockDto } from './dto/biolink-block.dto';

const NOT_FOUND = 'biolink_block_not_found';
const WHAT = 'biolink block';
const IMAGE_UPLOAD = { image: { maxBytes: MAX_BIOLINK_IMAGE_BYTES } };

@ApiTags('biolink-blocks')
@ApiErrors(401, 429)
@Controller('biolink-blocks')
export class BiolinkBlocksController {
  constructor(private readonly blocks: BiolinkBlocksService) {}

  @Get()
  @TeamAccess('read')
  @ApiOperation({ summary: 'List the blocks of bio pages' })
  @Listing(BIOLINK_BLOCKS_LIST)
  @ApiListResponse(BiolinkBlockResponse)
  @ApiErrors(400)
  list(@CurrentActor() actor: Actor, @ListParams() query: ListQuery) {
    return this.blocks.list(actor, query);
  }

  @Get(':id')
  @TeamAccess('read')
  @ApiOperation({ summary: 'Retrieve a block of a bio page' })
  @ApiIdParam('Biolink block id')
  @ApiDataResponse(BiolinkBlockResponse)
  @ApiErrors(404)
  get(@CurrentActor() actor: Actor, @IdParam(NOT_FOUND, WHAT) id: number) {
    return this.blocks.get(actor, id);
  }

  @Post()
  @TeamAccess('create')
  @ApiOperation({ summary: 'Add a block to a bio page (type image: multipart with image)' })
  @Uploads(IMAGE_UPLOAD)
  @ApiForm()
  @ApiIdResponse(201)
  @ApiErrors(400, 413)
  create(
    @CurrentActor() actor: Actor,
    @Body() dto: CreateBiolinkBlockDto,
    @Uploaded() files: UploadedFiles,
  ) {
    return this.blocks.create(actor, dto, files.image);
  }

  @Post(':id')
  @TeamAccess('update')
  @HttpCode(200)
  @ApiOperation({ summary: 'Update a block; absent fields keep their value' })
  @ApiIdParam('Biolink block id')
  @Uploads(IMAGE_UPLOAD)
  @ApiForm()
  @ApiIdResponse()
  @ApiErrors(400, 404, 413)
  update(
    @CurrentActor() actor: Actor,
    @IdParam(NOT_FOUND, WHAT) id: number,
    @Body() dto: UpdateBiolinkBlockDto,
    @Uploaded() files: UploadedFiles,
  ) {
    return this.blocks.update(actor, id, dto, files.image);
  }

  @Delete(':id')
  @TeamAccess('delete')
  @ApiOperation({ summary: 'Delete a block; the data it collected is kept' })
  @ApiIdParam('Biolink block id')
  @ApiIdResponse()
  @ApiErrors(404)
  remove(@CurrentActor() actor: Actor, @IdParam(NOT_FOUND, WHAT) id: number) {
    return this.blocks.remove(actor, id);
  }
}
