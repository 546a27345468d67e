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
import { CreateSignatureDto } from './dto/create-signature.dto';
import { UpdateSignatureDto } from './dto/update-signature.dto';
import { SignatureHtmlResponse, SignatureResponse } from './signature.mapper';
import { SIGNATURES_LIST } from './signatures.list';
import { SignaturesService } from './signatures.service';

@ApiTags('signatures')
@ApiErrors(401, 429)
@Controller('signatures')
export class SignaturesController {
  constructor(private readonly signatures: SignaturesService) {}

  @Get()
  @TeamAccess('read')
  @ApiOperation({ summary: 'List email signatures' })
  @Listing(SIGNATURES_LIST)
  @ApiListResponse(SignatureResponse)
  @ApiErrors(400)
  list(@CurrentActor() actor: Actor, @ListParams() query: ListQuery) {
    return this.signatures.list(actor, query);
  }

  @Get(':id')
  @TeamAccess('read')
  @ApiOperation({ summary: 'Retrieve an email signature' })
  @ApiIdParam('Signature id')
  @ApiDataResponse(SignatureResponse)
  @ApiErrors(404)
  get(@CurrentActor() actor: Actor, @IdParam('signature_not_found', 'signature') id: number) {
    return this.signatures.get(actor, id);
  }

  @Get(':id/html')
  @TeamAccess('read')
  @ApiOperation({ summary: 'Render an email signature as email-client-safe HTML' })
  @ApiIdParam('Signature id')
  @ApiDataResponse(SignatureHtmlResponse)
  @ApiErrors(404)
  html(@CurrentActor() actor: Actor, @IdParam('signature_not_found', 'signature') id: number) {
    return this.signatures.html(actor, id);
  }

  @Post()
  @TeamAccess('create')
  @ApiOperation({ summary: 'Create an email signature' })
  @ApiForm()
  @ApiIdResponse(201)
  @ApiErrors(400)
  create(@CurrentActor() actor: Actor, @Body() dto: CreateSignatureDto) {
    return this.signatures.create(actor, dto);
  }

  @Post(':id')
  @TeamAccess('update')
  @HttpCode(200)
  @ApiOperation({ summary: 'Update an email signature' })
  @ApiIdParam('Signature id')
  @ApiForm()
  @ApiIdResponse()
  @ApiErrors(400, 404)
  update(
    @CurrentActor() actor: Actor,
    @IdParam('signature_not_found', 'signature') id: number,
    @Body() dto: UpdateSignatureDto,
  ) {
    return this.signatures.update(actor, id, dto);
  }

  @Delete(':id')
  @TeamAccess('delete')
  @ApiOperation({ summary: 'Delete an email signature' })
  @ApiIdParam('Signature id')
  @ApiIdResponse()
  @ApiErrors(404)
  remove(@CurrentActor() actor: Actor, @IdParam('signature_not_found', 'signature') id: number) {
    return this.signatures.remove(actor, id);
  }
}
