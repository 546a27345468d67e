import { Body, Controller, Delete, Get, HttpCode, Post, Query } from '@nestjs/common';
import { ApiOperation, ApiQuery, ApiTags } from '@nestjs/swagger';
import { type Actor, CurrentActor, Public, TeamAccess } from '@app/auth';
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
import { DomainResponse, TlsCheckResponse } from './domain.mapper';
import { DOMAINS_LIST } from './domains.list';
import { DomainsService } from './domains.service';
import { CreateDomainDto } from './dto/create-domain.dto';
import { UpdateDomainDto } from './dto/update-domain.dto';

@ApiTags('domains')
@ApiErrors(429)
@Controller('domains')
export class DomainsController {
  constructor(private readonly domains: DomainsService) {}

  @Get()
  @TeamAccess('read')
  @ApiOperation({ summary: 'List custom domains' })
  @Listing(DOMAINS_LIST)
  @ApiListResponse(DomainResponse)
  @ApiErrors(400, 401)
  list(@CurrentActor() actor: Actor, @ListParams() query: ListQuery) {
    return this.domains.list(actor, query);
  }

  /** Declared before `:id`. Keyless, for Caddy's on-demand TLS `ask`; rate-limited per address. */
  @Get('tls-check')
  @Public()
  @ApiOperation({
    summary: 'Whether a certificate may be issued for a host (Caddy on-demand TLS ask); no API key',
    security: [],
  })
  @ApiQuery({ name: 'domain', example: 'links.example.com' })
  @ApiDataResponse(TlsCheckResponse)
  @ApiErrors(400, 404)
  tlsCheck(@Query('domain') domain?: string) {
    return this.domains.tlsCheck(typeof domain === 'string' ? domain : undefined);
  }

  @Get(':id')
  @TeamAccess('read')
  @ApiOperation({ summary: 'Retrieve a custom domain' })
  @ApiIdParam('Domain id')
  @ApiDataResponse(DomainResponse)
  @ApiErrors(401, 404)
  get(@CurrentActor() actor: Actor, @IdParam('domain_not_found', 'domain') id: number) {
    return this.domains.get(actor, id);
  }

  @Post()
  @TeamAccess('create')
  @ApiOperation({ summary: 'Add a custom domain (disabled until verified)' })
  @ApiForm()
  @ApiIdResponse(201)
  @ApiErrors(400, 401)
  create(@CurrentActor() actor: Actor, @Body() dto: CreateDomainDto) {
    return this.domains.create(actor, dto);
  }

  @Post(':id/verify')
  @TeamAccess('update')
  @HttpCode(200)
  @ApiOperation({
    summary: 'Check the verification TXT record and enable the domain',
    description:
      'Looks up the TXT records of `verification.name`; when one equals `verification.value`, the domain is enabled.',
  })
  @ApiIdParam('Domain id')
  @ApiDataResponse(DomainResponse)
  @ApiErrors(400, 401, 404)
  verify(@CurrentActor() actor: Actor, @IdParam('domain_not_found', 'domain') id: number) {
    return this.domains.verify(actor, id);
  }

  @Post(':id')
  @TeamAccess('update')
  @HttpCode(200)
  @ApiOperation({ summary: 'Update a custom domain; a new host disables it until verified again' })
  @ApiIdParam('Domain id')
  @ApiForm()
  @ApiIdResponse()
  @ApiErrors(400, 401, 404)
  update(
    @CurrentActor() actor: Actor,
    @IdParam('domain_not_found', 'domain') id: number,
    @Body() dto: UpdateDomainDto,
  ) {
    return this.domains.update(actor, id, dto);
  }

  @Delete(':id')
  @TeamAccess('delete')
  @ApiOperation({ summary: 'Delete a custom domain and its links' })
  @ApiIdParam('Domain id')
  @ApiIdResponse()
  @ApiErrors(401, 404)
  remove(@CurrentActor() actor: Actor, @IdParam('domain_not_found', 'domain') id: number) {
    return this.domains.remove(actor, id);
  }
}
