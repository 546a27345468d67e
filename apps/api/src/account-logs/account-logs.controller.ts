import { Controller, Get } from '@nestjs/common';
import { ApiOperation, ApiTags } from '@nestjs/swagger';
import { type Actor, CurrentActor } from '@app/auth';
import { ApiErrors, ApiListResponse, Listing, ListParams, type ListQuery } from '@app/common';
import { AccountLogResponse } from './account-log.mapper';
import { ACCOUNT_LOGS_LIST } from './account-logs.list';
import { AccountLogsService } from './account-logs.service';

/** The account's own log. Account-level: never through a team (no @TeamAccess: 403 with X-Team-Id). */
@ApiTags('logs')
@ApiErrors(401, 403, 429)
@Controller('logs')
export class AccountLogsController {
  constructor(private readonly logs: AccountLogsService) {}

  @Get()
  @ApiOperation({
    summary: 'List what happened to your account',
    description:
      'API keys created and revoked, team members invited, accepting or leaving, domains verified or disabled, payments recorded, imports run. Kept for ACCOUNT_LOGS_RETENTION_DAYS (90 by default).',
  })
  @Listing(ACCOUNT_LOGS_LIST)
  @ApiListResponse(AccountLogResponse)
  @ApiErrors(400)
  list(@CurrentActor() actor: Actor, @ListParams() query: ListQuery) {
    return this.logs.list(actor, query);
  }
}
