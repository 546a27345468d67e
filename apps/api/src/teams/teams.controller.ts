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
import { CreateTeamDto } from './dto/create-team.dto';
import { UpdateTeamDto } from './dto/update-team.dto';
import { TeamResponse } from './team.mapper';
import { TEAMS_LIST } from './teams.list';
import { TeamsService } from './teams.service';

/** The owner's teams. Never through team context: no @TeamAccess, so X-Team-Id answers 403. */
@ApiTags('teams')
@ApiErrors(401, 403, 429)
@Controller('teams')
export class TeamsController {
  constructor(private readonly teams: TeamsService) {}

  @Get()
  @ApiOperation({ summary: 'List your teams, each with its members' })
  @Listing(TEAMS_LIST)
  @ApiListResponse(TeamResponse)
  @ApiErrors(400)
  list(@CurrentActor() actor: Actor, @ListParams() query: ListQuery) {
    return this.teams.list(actor, query);
  }

  @Get(':id')
  @ApiOperation({ summary: 'Retrieve a team with its members' })
  @ApiIdParam('Team id')
  @ApiDataResponse(TeamResponse)
  @ApiErrors(404)
  get(@CurrentActor() actor: Actor, @IdParam('team_not_found', 'team') id: number) {
    return this.teams.get(actor, id);
  }

  @Post()
  @ApiOperation({ summary: 'Create a team' })
  @ApiForm()
  @ApiIdResponse(201)
  @ApiErrors(400)
  create(@CurrentActor() actor: Actor, @Body() dto: CreateTeamDto) {
    return this.teams.create(actor, dto);
  }

  @Post(':id')
  @HttpCode(200)
  @ApiOperation({ summary: 'Rename a team' })
  @ApiIdParam('Team id')
  @ApiForm()
  @ApiIdResponse()
  @ApiErrors(400, 404)
  update(
    @CurrentActor() actor: Actor,
    @IdParam('team_not_found', 'team') id: number,
    @Body() dto: UpdateTeamDto,
  ) {
    return this.teams.update(actor, id, dto);
  }

  @Delete(':id')
  @ApiOperation({ summary: 'Delete a team and its memberships' })
  @ApiIdParam('Team id')
  @ApiIdResponse()
  @ApiErrors(404)
  remove(@CurrentActor() actor: Actor, @IdParam('team_not_found', 'team') id: number) {
    return this.teams.remove(actor, id);
  }
}
