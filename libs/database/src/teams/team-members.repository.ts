import { Injectable } from '@nestjs/common';
import { InjectRepository } from '@nestjs/typeorm';
import { In, Repository, SelectQueryBuilder } from 'typeorm';
import { ListQuery, Paginated } from '@app/common';
import { Db } from '../engine/db';
import { Outbox, type RowEvents } from '../events/outbox';
import { applyListQuery } from '../owned.repository';
import { TeamMemberEntity, TEAM_MEMBER_STATUS } from './team-member.entity';
import { TeamEntity } from './team.entity';

/** The outbox events a membership write raises; each row comes with its team. */
export type MemberEvents = RowEvents<{ member: TeamMemberEntity; team: TeamEntity }>;

/** Who a membership is addressed to: bound to a user id, or still only to an email. */
export interface Invitee {
  userId: number;
  email: string;
}

/** The workspace a team context opens and the membership that opens it (null for the owner). */
export interface TeamContext {
  team: TeamEntity;
  member: TeamMemberEntity | null;
}

/**
 * Memberships, seen from two sides: the team owner (every query goes through the owner's team) and
 * the invitee (every query is limited to memberships addressed to the caller).
 */
@Injectable()
export class TeamMembersRepository {
  constructor(
    @InjectRepository(TeamMemberEntity) private readonly repo: Repository<TeamMemberEntity>,
    @InjectRepository(TeamEntity) private readonly teams: Repository<TeamEntity>,
    private readonly db: Db,
    private readonly outbox: Outbox,
  ) {}

  /** The memberships' repository in the open write (the data source's outside one). */
  private get writing(): Repository<TeamMemberEntity> {
    return this.db.repository(TeamMemberEntity);
  }

  /** Inserts a membership and its events, in the open write (a plan limit's) or one of its own. */
  async insert(values: Omit<TeamMemberEntity, 'id'>, events?: MemberEvents): Promise<number> {
    return this.db.write(async () => {
      const saved = await this.writing.save(this.writing.create(values));
      await this.raise(saved, events);
      return saved.id;
    });
  }

  save(member: TeamMemberEntity, events?: MemberEvents): Promise<TeamMemberEntity> {
    return this.db.write(async () => {
      const saved = await this.writing.save(member);
      await this.raise(saved, events);
      return saved;
    });
  }

  /** Writes a membership's events for the team's owner, with the team, in the open write. */
  private async raise(member: TeamMemberEntity, events: MemberEvents | undefined): Promise<void> {
    if (!events) return;
    const team = await this.db.repository(TeamEntity).findOneByOrFail({ id: member.team_id });
    await this.outbox.write(events.of([{ member, team }]), events.now);
  }

  /** Members of the given teams, oldest first; the caller has checked the teams are its own. */
  ofTeams(teamIds: number[]): Promise<TeamMemberEntity[]> {
    if (teamIds.length === 0) {
      return Promise.resolve([]);
    }
    return this.repo.find({ where: { team_id: In(teamIds) }, order: { id: 'ASC' } });
  }

  /** The team of a membership. */
  async teamOf(memberId: number): Promise<TeamEntity | null> {
    const member = await this.repo.findOne({ where: { id: memberId }, relations: { team: true } });
    return member?.team ?? null;
  }

  async emailInvited(teamId: number, email: string): Promise<boolean> {
    return (await this.repo.countBy({ team_id: teamId, user_email: email.toLowerCase() })) > 0;
  }

  /** A membership of a team owned by `ownerId`. */
  findOfOwner(ownerId: number, id: number): Promise<TeamMemberEntity | null> {
    return this.repo
      .createQueryBuilder('r')
      .innerJoin('r.team', 't')
      .where('r.id = :id AND t.user_id = :ownerId', { id, ownerId })
      .getOne();
  }

  async deleteOfOwner(ownerId: number, id: number, events?: MemberEvents): Promise<boolean> {
    const member = await this.findOfOwner(ownerId, id);
    if (!member) {
      return false;
    }
    return this.deleteRaising(member, events);
  }

  private deleteRaising(member: TeamMemberEntity, events?: MemberEvents): Promise<boolean> {
    return this.db.write(async () => {
      const result = await this.writing.delete({ id: member.id });
      if ((result.affected ?? 0) === 0) return false;
      await this.raise(member, events);
      return true;
    });
  }

  /** Memberships addressed to the invitee (by user id, or by email while unbound), with their team. */
  async listOfInvitee(invitee: Invitee, query: ListQuery): Promise<Paginated<TeamMemberEntity>> {
    const qb = this.ofInvitee(invitee);
    applyListQuery(qb, query);
    const [items, total] = await qb.getManyAndCount();
    return new Paginated(items, total, query.page, query.resultsPerPage);
  }

  findOfInvitee(invitee: Invitee, id: number): Promise<TeamMemberEntity | null> {
    return this.ofInvitee(invitee).andWhere('r.id = :id', { id }).getOne();
  }

  async deleteOfInvitee(invitee: Invitee, id: number, events?: MemberEvents): Promise<boolean> {
    const member = await this.findOfInvitee(invitee, id);
    if (!member) {
      return false;
    }
    delete member.team;
    return this.deleteRaising(member, events);
  }

  /**
   * What `X-Team-Id: teamId` opens for `userId`: the team with the caller's accepted membership,
   * the team alone when the caller owns it, or null (no such team, or not an accepted member).
   */
  async findContext(teamId: number, userId: number): Promise<TeamContext | null> {
    const team = await this.teams.findOneBy({ id: teamId });
    if (!team) {
      return null;
    }
    if (team.user_id === userId) {
      return { team, member: null };
    }
    const member = await this.repo.findOneBy({
      team_id: teamId,
      user_id: userId,
      status: TEAM_MEMBER_STATUS.accepted,
    });
    return member ? { team, member } : null;
  }

  private ofInvitee(invitee: Invitee): SelectQueryBuilder<TeamMemberEntity> {
    return this.repo
      .createQueryBuilder('r')
      .innerJoinAndSelect('r.team', 't')
      .where('(r.user_id = :userId OR (r.user_id IS NULL AND r.user_email = :email))', {
        userId: invitee.userId,
        email: invitee.email.toLowerCase(),
      });
  }
}
