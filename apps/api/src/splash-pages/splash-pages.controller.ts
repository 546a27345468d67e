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
import { CreateSplashPageDto } from './dto/create-splash-page.dto';
import { UpdateSplashPageDto } from './dto/update-splash-page.dto';
import { MAX_SPLASH_IMAGE_BYTES } from './splash-files';
import { SplashPageResponse } from './splash-page.mapper';
import { SPLASH_PAGES_LIST } from './splash-pages.list';
import { SplashPagesService } from './splash-pages.service';

const IMAGE_UPLOADS = {
  logo: { maxBytes: MAX_SPLASH_IMAGE_BYTES },
  favicon: { maxBytes: MAX_SPLASH_IMAGE_BYTES },
  opengraph: { maxBytes: MAX_SPLASH_IMAGE_BYTES },
};
const FILES = 'files: logo, favicon, opengraph (PNG, JPEG, WebP, GIF or SVG, 2 MB each)';

@ApiTags('splash-pages')
@ApiErrors(401, 429)
@Controller('splash-pages')
export class SplashPagesController {
  constructor(private readonly pages: SplashPagesService) {}

  @Get()
  @TeamAccess('read')
  @ApiOperation({ summary: 'List splash pages' })
  @Listing(SPLASH_PAGES_LIST)
  @ApiListResponse(SplashPageResponse)
  @ApiErrors(400)
  list(@CurrentActor() actor: Actor, @ListParams() query: ListQuery) {
    return this.pages.list(actor, query);
  }

  @Get(':id')
  @TeamAccess('read')
  @ApiOperation({ summary: 'Retrieve a splash page' })
  @ApiIdParam('Splash page id')
  @ApiDataResponse(SplashPageResponse)
  @ApiErrors(404)
  get(@CurrentActor() actor: Actor, @IdParam('splash_page_not_found', 'splash page') id: number) {
    return this.pages.get(actor, id);
  }

  @Post()
  @TeamAccess('create')
  @ApiOperation({ summary: `Create a splash page (${FILES})` })
  @Uploads(IMAGE_UPLOADS)
  @ApiForm()
  @ApiIdResponse(201)
  @ApiErrors(400, 413)
  create(
    @CurrentActor() actor: Actor,
    @Body() dto: CreateSplashPageDto,
    @Uploaded() files: UploadedFiles,
  ) {
    return this.pages.create(actor, dto, files);
  }

  @Post(':id')
  @TeamAccess('update')
  @HttpCode(200)
  @ApiOperation({ summary: `Update a splash page; absent fields keep their value (${FILES})` })
  @ApiIdParam('Splash page id')
  @Uploads(IMAGE_UPLOADS)
  @ApiForm()
  @ApiIdResponse()
  @ApiErrors(400, 404, 413)
  update(
    @CurrentActor() actor: Actor,
    @IdParam('splash_page_not_found', 'splash page') id: number,
    @Body() dto: UpdateSplashPageDto,
    @Uploaded() files: UploadedFiles,
  ) {
    return this.pages.update(actor, id, dto, files);
  }

  @Delete(':id')
  @TeamAccess('delete')
  @ApiOperation({
    summary: 'Delete a splash page and its images; its links stay, with splash_page_id null',
  })
  @ApiIdParam('Splash page id')
  @ApiIdResponse()
  @ApiErrors(404)
  remove(
    @CurrentActor() actor: Actor,
    @IdParam('splash_page_not_found', 'splash page') id: number,
  ) {
    return this.pages.remove(actor, id);
  }
}
