import { Body, Controller, Delete, Get, Post } from '@nestjs/common';
import { ApiOperation, ApiTags } from '@nestjs/swagger';
import { type Actor, CurrentActor, RequiresFullScope } from '@app/auth';
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
import { ApiKeyResponse, CreatedApiKeyResponse } from './api-key.mapper';
import { API_KEYS_LIST } from './api-keys.list';
import { CreateApiKeyDto } from './dto/create-api-key.dto';
import { OwnApiKeysService } from './own-api-keys.service';

/**
 * The caller's own API keys. Account-level: never through a team (no @TeamAccess, so X-Team-Id
 * is a 403), and never with a read-only key.
 */
@ApiTags('api-keys')
@ApiErrors(401, 403, 429)
@RequiresFullScope()
@Controller('api-keys')
export class ApiKeysController {
  constructor(private readonly keys: OwnApiKeysService) {}

  @Get()
  @ApiOperation({ summary: 'List your API keys that are not revoked' })
  @Listing(API_KEYS_LIST)
  @ApiListResponse(ApiKeyResponse)
  @ApiErrors(400)
  list(@CurrentActor() actor: Actor, @ListParams() query: ListQuery) {
    return this.keys.list(actor, query);
  }

  @Post()
  @ApiOperation({
    summary:
      'Make an API key; the answer shows the key itself, once. It may not do more than the key making it, nor outlive it.',
  })
  @ApiForm()
  @ApiDataResponse(CreatedApiKeyResponse, 201)
  @ApiErrors(400)
  create(@CurrentActor() actor: Actor, @Body() dto: CreateApiKeyDto) {
    return this.keys.create(actor, dto);
  }

  @Delete(':id')
  @ApiOperation({ summary: 'Revoke an API key (the key making the request too, if you wish)' })
  @ApiIdParam('API key id')
  @ApiIdResponse()
  @ApiErrors(404)
  remove(@CurrentActor() actor: Actor, @IdParam('api_key_not_found', 'API key') id: number) {
    return this.keys.revoke(actor, id);
  }
}
