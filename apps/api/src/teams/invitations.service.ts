import { Injectable } from '@nestjs/common';
import { Actor, AuthCache, UsersService } from '@app/auth';
import { Clock, ListQuery, NotFoundError, Paginated } from '@app/common';
import {
  Invitee,
  TEAM_MEMBER_STATUS,
  TeamMemberEntity,
  TeamMembersRepository,
} from '@app/database';
import { UpdateTeamsMemberDto } from './dto/update-teams-member.dto';
import { memberEvents, TeamsMemberResponse, toTeamsMemberResponse } from './team.mapper';

/**
 * The invitee's side: the invitations and memberships addressed to the caller, by user id once
 * bound, or by the caller's email while not.
 */
@Injectable()
export class InvitationsService {
  constructor(
    private readonly members: TeamMembersRepository,
    private readonly users: UsersService,
    private readonly clock: Clock,
    private readonly authCache: AuthCache,
  ) {}

  async list(actor: Actor, query: ListQuery): Promise<Paginated<TeamsMemberResponse>> {
    const page = await this.members.listOfInvitee(await this.invitee(actor), query);
    return page.map(toTeamsMemberResponse);
  }

  async get(actor: Actor, id: number): Promise<TeamsMemberResponse> {
    return toTeamsMemberResponse(await this.find(actor, id));
  }

  /** status 1 accepts and binds the membership to the caller; 0 puts it back to invited. */
  async update(actor: Actor, id: number, dto: UpdateTeamsMemberDto): Promise<{ id: number }> {
    const member = await this.find(actor, id);
    const accepting = dto.status === true && member.status !== TEAM_MEMBER_STATUS.accepted;
    member.status = dto.status ? TEAM_MEMBER_STATUS.accepted : TEAM_MEMBER_STATUS.invited;
    member.user_id = actor.userId;
    member.last_datetime = this.clock.now();
    delete member.team;
    await this.members.save(
      member,
      accepting ? memberEvents('team_member.accepted', member.last_datetime) : undefined,
    );
    this.authCache.dropTeam(member.team_id);
    return { id };
  }

  /** Leaves the team, or declines the invitation. */
  async remove(actor: Actor, id: number): Promise<{ id: number }> {
    const events = memberEvents('team_member.left', this.clock.now());
    if (!(await this.members.deleteOfInvitee(await this.invitee(actor), id, events))) {
      throw new NotFoundError('team_member_not_found', 'team member');
    }
    // The caller's contexts, that of the team it left among them.
    this.authCache.dropUser(actor.userId);
    return { id };
  }

  private async find(actor: Actor, id: number): Promise<TeamMemberEntity> {
    const member = await this.members.findOfInvitee(await this.invitee(actor), id);
    if (!member) {
      throw new NotFoundError('team_member_not_found', 'team member');
    }
    return member;
  }

  private async invitee(actor: Actor): Promise<Invitee> {
    const user = await this.users.get(actor.userId);
    return { userId: user.id, email: user.email };
  }
}
