import { Injectable } from '@nestjs/common';
import { Actor, AuthCache } from '@app/auth';
import { Clock, ListQuery, NotFoundError, Paginated } from '@app/common';
import { TeamEntity, TeamMembersRepository, TeamsRepository } from '@app/database';
import { CreateTeamDto } from './dto/create-team.dto';
import { UpdateTeamDto } from './dto/update-team.dto';
import { TeamResponse, toTeamResponse } from './team.mapper';

/** The owner's side of teams. */
@Injectable()
export class TeamsService {
  constructor(
    private readonly teams: TeamsRepository,
    private readonly members: TeamMembersRepository,
    private readonly clock: Clock,
    private readonly authCache: AuthCache,
  ) {}

  async list(actor: Actor, query: ListQuery): Promise<Paginated<TeamResponse>> {
    const page = await this.teams.listOwned(actor.ownerId, query);
    const members = await this.members.ofTeams(page.items.map((team) => team.id));
    return page.map((team) => toTeamResponse(team, members));
  }

  async get(actor: Actor, id: number): Promise<TeamResponse> {
    const team = await this.findOwned(actor, id);
    return toTeamResponse(team, await this.members.ofTeams([team.id]));
  }

  async create(actor: Actor, dto: CreateTeamDto): Promise<{ id: number }> {
    const id = await this.teams.insert({
      user_id: actor.ownerId,
      name: dto.name,
      datetime: this.clock.now(),
      last_datetime: null,
    });
    // "No such team" may be cached for this id.
    this.authCache.dropTeam(id);
    return { id };
  }

  async update(actor: Actor, id: number, dto: UpdateTeamDto): Promise<{ id: number }> {
    const team = await this.findOwned(actor, id);
    team.name = dto.name ?? team.name;
    team.last_datetime = this.clock.now();
    await this.teams.save(team);
    this.authCache.dropTeam(id);
    return { id };
  }

  /** Its memberships go with it (FK ON DELETE CASCADE). */
  async remove(actor: Actor, id: number): Promise<{ id: number }> {
    if (!(await this.teams.deleteOwned(actor.ownerId, id))) {
      throw new NotFoundError('team_not_found', 'team');
    }
    this.authCache.dropTeam(id);
    return { id };
  }

  private async findOwned(actor: Actor, id: number): Promise<TeamEntity> {
    const team = await this.teams.findOwned(actor.ownerId, id);
    if (!team) {
      throw new NotFoundError('team_not_found', 'team');
    }
    return team;
  }
}
