import { ApiProperty } from '@nestjs/swagger';
import { formatDateTime } from '@app/common';
import { accessOf, type MemberEvents, TeamEntity, TeamMemberEntity } from '@app/database';

export class AccessResponse {
  @ApiProperty({ example: true }) read!: boolean;
  @ApiProperty({ example: true }) create!: boolean;
  @ApiProperty({ example: true }) update!: boolean;
  @ApiProperty({ example: false }) delete!: boolean;
}

/** A member as listed inside its team. */
export class TeamMemberSummary {
  @ApiProperty({ example: 1 }) team_member_id!: number;
  @ApiProperty({ example: 'hello@example.com' }) user_email!: string;
  @ApiProperty({ type: AccessResponse }) access!: AccessResponse;
  @ApiProperty({ enum: [0, 1], example: 1, description: '0 invited, 1 accepted.' })
  status!: number;
  @ApiProperty({ example: '2026-11-21 10:00:00' }) datetime!: string;
  @ApiProperty({ type: String, nullable: true, example: null }) last_datetime!: string | null;
}

export class TeamResponse {
  @ApiProperty({ example: 1 }) id!: number;
  @ApiProperty({ example: 'Example team' }) name!: string;
  @ApiProperty({ type: [TeamMemberSummary] }) team_members!: TeamMemberSummary[];
  @ApiProperty({ type: String, nullable: true, example: null }) last_datetime!: string | null;
  @ApiProperty({ example: '2026-11-21 10:00:00' }) datetime!: string;
}

/** A member as the team owner sees it (GET /v1/team-members/{team_id}). */
export class TeamMemberResponse {
  @ApiProperty({ example: 1 }) id!: number;
  @ApiProperty({ example: 1 }) team_id!: number;
  @ApiProperty({ example: 'hello@example.com' }) user_email!: string;
  @ApiProperty({ type: AccessResponse }) access!: AccessResponse;
  @ApiProperty({ enum: [0, 1], example: 1, description: '0 invited, 1 accepted.' })
  status!: number;
  @ApiProperty({ example: '2026-11-21 10:00:00' }) datetime!: string;
  @ApiProperty({ type: String, nullable: true, example: null }) last_datetime!: string | null;
}

/** A membership as the invitee sees it (GET /v1/teams-member), with the team's name. */
export class TeamsMemberResponse {
  @ApiProperty({ example: 1 }) id!: number;
  @ApiProperty({ type: AccessResponse }) access!: AccessResponse;
  @ApiProperty({ enum: [0, 1], example: 0, description: '0 invited, 1 accepted.' })
  status!: number;
  @ApiProperty({ type: String, nullable: true, example: null }) last_datetime!: string | null;
  @ApiProperty({ example: '2026-11-21 10:00:00' }) datetime!: string;
  @ApiProperty({ example: 1 }) team_id!: number;
  @ApiProperty({ example: 'Example team' }) name!: string;
}

export function toTeamResponse(team: TeamEntity, members: TeamMemberEntity[]): TeamResponse {
  return {
    id: team.id,
    name: team.name,
    team_members: members
      .filter((m) => m.team_id === team.id)
      .map((m) => ({
        team_member_id: m.id,
        user_email: m.user_email,
        access: accessOf(m),
        status: m.status,
        datetime: formatDateTime(m.datetime),
        last_datetime: formatDateTime(m.last_datetime),
      })),
    last_datetime: formatDateTime(team.last_datetime),
    datetime: formatDateTime(team.datetime),
  };
}

export function toTeamMemberResponse(member: TeamMemberEntity): TeamMemberResponse {
  return {
    id: member.id,
    team_id: member.team_id,
    user_email: member.user_email,
    access: accessOf(member),
    status: member.status,
    datetime: formatDateTime(member.datetime),
    last_datetime: formatDateTime(member.last_datetime),
  };
}

/** `member.team` must be loaded (the invitee queries join it). */
export function toTeamsMemberResponse(member: TeamMemberEntity): TeamsMemberResponse {
  return {
    id: member.id,
    access: accessOf(member),
    status: member.status,
    last_datetime: formatDateTime(member.last_datetime),
    datetime: formatDateTime(member.datetime),
    team_id: member.team_id,
    name: member.team?.name ?? '',
  };
}

/** The outbox events of a membership write: the member as the owner sees it, and the team name. */
export function memberEvents(event: string, now: Date): MemberEvents {
  return {
    now,
    of: (rows) =>
      rows.map(({ member, team }) => ({
        event,
        ownerId: team.user_id,
        data: { ...toTeamMemberResponse(member), team_name: team.name },
      })),
  };
}
