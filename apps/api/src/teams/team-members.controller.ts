import { Body, Controller, Delete, Get, HttpCode, Post } from '@nestjs/common';
import { ApiExtraModels, ApiOperation, ApiResponse, ApiTags, getSchemaPath } from '@nestjs/swagger';
import { type Actor, CurrentActor } from '@app/auth';
import { ApiErrors, ApiForm, ApiIdParam, ApiIdResponse, IdParam } from '@app/common';
import { CreateTeamMemberDto } from './dto/create-team-member.dto';
import { UpdateTeamMemberDto } from './dto/update-team-member.dto';
import { TeamMembersService } from './team-members.service';
import { TeamMemberResponse } from './team.mapper';

/** The owner manages the members of its teams. Never through team context. */
@ApiTags('team-members')
@ApiErrors(401, 403, 429)
@Controller('team-members')
export class TeamMembersController {
  constructor(private readonly members: TeamMembersService) {}

  /** `:id` is the team here, as in the origin API; the other routes take a membership id. */
  @Get(':id')
  @ApiOperation({ summary: 'The members of one of your teams: { data: [...] }, no meta or links' })
  @ApiIdParam('Team id')
  @ApiExtraModels(TeamMemberResponse)
  @ApiResponse({
    status: 200,
    schema: {
      type: 'object',
      required: ['data'],
      properties: { data: { type: 'array', items: { $ref: getSchemaPath(TeamMemberResponse) } } },
    },
  })
  @ApiErrors(404)
  list(@CurrentActor() actor: Actor, @IdParam('team_not_found', 'team') teamId: number) {
    return this.members.list(actor, teamId);
  }

  @Post()
  @ApiOperation({ summary: 'Invite an email to one of your teams' })
  @ApiForm()
  @ApiIdResponse(201)
  @ApiErrors(400, 404)
  create(@CurrentActor() actor: Actor, @Body() dto: CreateTeamMemberDto) {
    return this.members.create(actor, dto);
  }

  @Post(':id')
  @HttpCode(200)
  @ApiOperation({ summary: "Change a member's access" })
  @ApiIdParam('Team member id')
  @ApiForm()
  @ApiIdResponse()
  @ApiErrors(400, 404)
  update(
    @CurrentActor() actor: Actor,
    @IdParam('team_member_not_found', 'team member') id: number,
    @Body() dto: UpdateTeamMemberDto,
  ) {
    return this.members.update(actor, id, dto);
  }

  @Delete(':id')
  @ApiOperation({ summary: 'Remove a member or withdraw an invitation' })
  @ApiIdParam('Team member id')
  @ApiIdResponse()
  @ApiErrors(404)
  remove(
    @CurrentActor() actor: Actor,
    @IdParam('team_member_not_found', 'team member') id: number,
  ) {
    return this.members.remove(actor, id);
  }
}
