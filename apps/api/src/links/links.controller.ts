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
} from '@app/common';
import { CreateLinkDto } from './dto/create-link.dto';
import { UpdateLinkDto } from './dto/update-link.dto';
import { LinkResponse } from './link.mapper';
import { LINKS_LIST } from './links.list';
import { LinksService } from './links.service';

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
    summary: 'Create a short link (type link) or a WhatsApp chat link (type walink)',
  })
  @ApiForm()
  @ApiIdResponse(201)
  @ApiErrors(400)
  create(@CurrentActor() actor: Actor, @Body() dto: CreateLinkDto) {
    return this.links.create(actor, dto);
  }

  @Post(':id')
  @TeamAccess('update')
  @HttpCode(200)
  @ApiOperation({ summary: 'Update a link; absent fields keep their values' })
  @ApiIdParam('Link id')
  @ApiForm()
  @ApiIdResponse()
  @ApiErrors(400, 404)
  update(
    @CurrentActor() actor: Actor,
    @IdParam('link_not_found', 'link') id: number,
    @Body() dto: UpdateLinkDto,
  ) {
    return this.links.update(actor, id, dto);
  }

  @Delete(':id')
  @TeamAccess('delete')
  @ApiOperation({ summary: 'Delete a link and its visits' })
  @ApiIdParam('Link id')
  @ApiIdResponse()
  @ApiErrors(404)
  remove(@CurrentActor() actor: Actor, @IdParam('link_not_found', 'link') id: number) {
    return this.links.remove(actor, id);
  }
}
