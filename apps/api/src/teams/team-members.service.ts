import { Inject, Injectable, Logger } from '@nestjs/common';
import { Actor, AuthCache, UsersService } from '@app/auth';
import { PlanLimits } from '@app/billing';
import { AppError, Clock, NotFoundError } from '@app/common';
import { APP_CONFIG, type AppConfig } from '@app/config';
import {
  type AccessFlags,
  accessColumns,
  Db,
  TEAM_MEMBER_STATUS,
  TeamMemberEntity,
  TeamMembersRepository,
  TeamsRepository,
} from '@app/database';
import { Notifier } from '@app/notifications';
import { CreateTeamMemberDto } from './dto/create-team-member.dto';
import { UpdateTeamMemberDto } from './dto/update-team-member.dto';
import { memberEvents, TeamMemberResponse, toTeamMemberResponse } from './team.mapper';

const READ_ONLY: AccessFlags = { read: true, create: false, update: false, delete: false };

/** The team owner manages the members of its teams. */
@Injectable()
export class TeamMembersService {
  constructor(
    private readonly db: Db,
    private readonly limits: PlanLimits,
    private readonly teams: TeamsRepository,
    private readonly members: TeamMembersRepository,
    private readonly users: UsersService,
    private readonly clock: Clock,
    private readonly notifier: Notifier,
    @Inject(APP_CONFIG) private readonly config: AppConfig,
    private readonly authCache: AuthCache,
  ) {}
  private readonly logger = new Logger(TeamMembersService.name);

  async list(actor: Actor, teamId: number): Promise<TeamMemberResponse[]> {
    await this.findTeam(actor, teamId);
    return (await this.members.ofTeams([teamId])).map(toTeamMemberResponse);
  }

  /** Invites an email; it needs no account yet: the membership binds to a user on acceptance. */
  async create(actor: Actor, dto: CreateTeamMemberDto): Promise<{ id: number }> {
    await this.findTeam(actor, dto.team_id);
    const owner = await this.users.get(actor.ownerId);
    if (dto.user_email === owner.email.toLowerCase()) {
      throw new AppError('validation_failed', 'You cannot invite yourself.', 'user_email');
    }
    if (await this.members.emailInvited(dto.team_id, dto.user_email)) {
      throw new AppError(
        'already_exists',
        `${dto.user_email} is already invited to this team.`,
        'user_email',
      );
    }
    const now = this.clock.now();
    const id = await this.db.write(async () => {
      await this.limits.check(actor.ownerId, { team_members: 1 });
      return this.members.insert(
        {
          team_id: dto.team_id,
          user_id: null,
          user_email: dto.user_email,
          ...accessColumns(dto.access ?? READ_ONLY),
          status: TEAM_MEMBER_STATUS.invited,
          datetime: now,
          last_datetime: null,
        },
        memberEvents('team_member.invited', now),
      );
    });
    void this.emailInvitee(id, dto.user_email, owner.email);
    return { id };
  }

  /**
   * Tells the invitee by email when SMTP is configured. The invitation itself is already saved
   * (the invitee also finds it in GET /v1/teams-member); a failed email is logged, not retried.
   */
  private async emailInvitee(id: number, email: string, inviter: string): Promise<void> {
    if (this.notifier.unavailableReason('email') !== null) return;
    const team = await this.members.teamOf(id);
    const outcome = await this.notifier.deliver(
      'email',
      { email },
      {
        event: 'team_member.invited',
        title: `You are invited to the team ${team?.name ?? ''} on Linkdock`,
        text: `${inviter} invited you to the team "${team?.name ?? ''}". To accept, sign in to ${this.config.appUrl} with an account for ${email} and accept invitation ${id}: POST /v1/teams-member/${id} with status=1.`,
        data: { team_member_id: id, team_id: team?.id ?? null },
      },
    );
    if (!outcome.ok) {
      this.logger.warn(`Invitation email to ${email} failed: ${outcome.error ?? 'unknown error'}`);
    }
  }

  /** Replaces the access flags; without `access` only last_datetime changes. */
  async update(actor: Actor, id: number, dto: UpdateTeamMemberDto): Promise<{ id: number }> {
    const member = await this.findMember(actor, id);
    if (dto.access) {
      Object.assign(member, accessColumns(dto.access));
    }
    member.last_datetime = this.clock.now();
    await this.members.save(member);
    this.authCache.dropTeam(member.team_id);
    return { id };
  }

  async remove(actor: Actor, id: number): Promise<{ id: number }> {
    if (!(await this.members.deleteOfOwner(actor.ownerId, id))) {
      throw new NotFoundError('team_member_not_found', 'team member');
    }
    // The contexts of every team of this owner (the membership's team among them).
    this.authCache.dropUser(actor.ownerId);
    return { id };
  }

  private async findTeam(actor: Actor, teamId: number): Promise<void> {
    if (!(await this.teams.findOwned(actor.ownerId, teamId))) {
      throw new NotFoundError('team_not_found', 'team');
    }
  }

  private async findMember(actor: Actor, id: number): Promise<TeamMemberEntity> {
    const member = await this.members.findOfOwner(actor.ownerId, id);
    if (!member) {
      throw new NotFoundError('team_member_not_found', 'team member');
    }
    return member;
  }
}
