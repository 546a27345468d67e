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
import { CreateQrCodeDto } from './dto/create-qr-code.dto';
import { UpdateQrCodeDto } from './dto/update-qr-code.dto';
import { QrCodeResponse } from './qr-code.mapper';
import { QR_CODES_LIST } from './qr-codes.list';
import { QrCodesService } from './qr-codes.service';
import { MAX_IMAGE_BYTES } from './qr-files';

const IMAGE_UPLOADS = {
  qr_code_logo: { maxBytes: MAX_IMAGE_BYTES },
  qr_code_background: { maxBytes: MAX_IMAGE_BYTES },
  qr_code_foreground: { maxBytes: MAX_IMAGE_BYTES },
};

@ApiTags('qr-codes')
@ApiErrors(401, 429)
@Controller('qr-codes')
export class QrCodesController {
  constructor(private readonly qrCodes: QrCodesService) {}

  @Get()
  @TeamAccess('read')
  @ApiOperation({ summary: 'List QR codes' })
  @Listing(QR_CODES_LIST)
  @ApiListResponse(QrCodeResponse)
  @ApiErrors(400)
  list(@CurrentActor() actor: Actor, @ListParams() query: ListQuery) {
    return this.qrCodes.list(actor, query);
  }

  @Get(':id')
  @TeamAccess('read')
  @ApiOperation({ summary: 'Retrieve a QR code' })
  @ApiIdParam('QR code id')
  @ApiDataResponse(QrCodeResponse)
  @ApiErrors(404)
  get(@CurrentActor() actor: Actor, @IdParam('qr_code_not_found', 'QR code') id: number) {
    return this.qrCodes.get(actor, id);
  }

  @Post()
  @TeamAccess('create')
  @ApiOperation({
    summary:
      'Create a QR code (files: qr_code_logo, qr_code_background, qr_code_foreground, 2 MB each)',
  })
  @Uploads(IMAGE_UPLOADS)
  @ApiForm()
  @ApiIdResponse(201)
  @ApiErrors(400, 413)
  create(
    @CurrentActor() actor: Actor,
    @Body() dto: CreateQrCodeDto,
    @Uploaded() files: UploadedFiles,
  ) {
    return this.qrCodes.create(actor, dto, files);
  }

  @Post(':id')
  @TeamAccess('update')
  @HttpCode(200)
  @ApiOperation({ summary: 'Update a QR code; absent fields keep their value' })
  @ApiIdParam('QR code id')
  @Uploads(IMAGE_UPLOADS)
  @ApiForm()
  @ApiIdResponse()
  @ApiErrors(400, 404, 413)
  update(
    @CurrentActor() actor: Actor,
    @IdParam('qr_code_not_found', 'QR code') id: number,
    @Body() dto: UpdateQrCodeDto,
    @Uploaded() files: UploadedFiles,
  ) {
    return this.qrCodes.update(actor, id, dto, files);
  }

  @Delete(':id')
  @TeamAccess('delete')
  @ApiOperation({ summary: 'Delete a QR code and its image files' })
  @ApiIdParam('QR code id')
  @ApiIdResponse()
  @ApiErrors(404)
  remove(@CurrentActor() actor: Actor, @IdParam('qr_code_not_found', 'QR code') id: number) {
    return this.qrCodes.remove(actor, id);
  }
}
