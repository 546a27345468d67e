import { Body, Controller, Delete, Get, HttpCode, Post } from '@nestjs/common';
import { ApiOperation, ApiTags } from '@nestjs/swagger';
import { type Actor, CurrentActor } from '@app/auth';
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
import { UpdateTeamsMemberDto } from './dto/update-teams-member.dto';
import { InvitationsService } from './invitations.service';
import { TeamsMemberResponse } from './team.mapper';
import { TEAMS_MEMBER_LIST } from './teams.list';

/**
 * The invitee's side (`/v1/teams-member`): teams you are invited to or a member of. Never through
 * team context. The operation ids keep the route's name (`TeamsMember_*`).
 */
@ApiTags('teams-member')
@ApiErrors(401, 403, 429)
@Controller('teams-member')
export class InvitationsController {
  constructor(private readonly memberships: InvitationsService) {}

  @Get()
  @ApiOperation({ operationId: 'TeamsMember_list', summary: 'Your invitations and memberships' })
  @Listing(TEAMS_MEMBER_LIST)
  @ApiListResponse(TeamsMemberResponse)
  @ApiErrors(400)
  list(@CurrentActor() actor: Actor, @ListParams() query: ListQuery) {
    return this.memberships.list(actor, query);
  }

  @Get(':id')
  @ApiOperation({
    operationId: 'TeamsMember_get',
    summary: 'Retrieve one of your invitations or memberships',
  })
  @ApiIdParam('Team member id')
  @ApiDataResponse(TeamsMemberResponse)
  @ApiErrors(404)
  get(@CurrentActor() actor: Actor, @IdParam('team_member_not_found', 'team member') id: number) {
    return this.memberships.get(actor, id);
  }

  @Post(':id')
  @HttpCode(200)
  @ApiOperation({
    operationId: 'TeamsMember_update',
    summary: 'Accept an invitation (status=1), or set it back to invited (0)',
  })
  @ApiIdParam('Team member id')
  @ApiForm()
  @ApiIdResponse()
  @ApiErrors(400, 404)
  update(
    @CurrentActor() actor: Actor,
    @IdParam('team_member_not_found', 'team member') id: number,
    @Body() dto: UpdateTeamsMemberDto,
  ) {
    return this.memberships.update(actor, id, dto);
  }

  @Delete(':id')
  @ApiOperation({
    operationId: 'TeamsMember_remove',
    summary: 'Leave a team or decline an invitation',
  })
  @ApiIdParam('Team member id')
  @ApiIdResponse()
  @ApiErrors(404)
  remove(
    @CurrentActor() actor: Actor,
    @IdParam('team_member_not_found', 'team member') id: number,
  ) {
    return this.memberships.remove(actor, id);
  }
}
