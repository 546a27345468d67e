import { Actor, AuthCache, UsersService } from '@app/auth';
import { Clock, ErrorEntry } from '@app/common';
import type { AppConfig } from '@app/config';
import {
  TeamEntity,
  TeamMemberEntity,
  TeamMembersRepository,
  TeamsRepository,
  UserEntity,
} from '@app/database';
import type { Notifier } from '@app/notifications';
import { rejectionEntries } from '@app/testing/app-error-entries';
import { inlineWrites } from '@app/testing/inline-writes';
import { InvitationsService } from './invitations.service';
import { TeamMembersService } from './team-members.service';

const NOW = new Date('2026-11-21T10:00:00.000Z');
const clock: Clock = { now: () => new Date(NOW) };
const OWNER: Actor = { userId: 2, apiKeyId: 1, isAdmin: false, ownerId: 2 };
const INVITEE: Actor = { userId: 8, apiKeyId: 4, isAdmin: false, ownerId: 8 };

const USERS = [
  Object.assign(new UserEntity(), { id: 2, email: 'owner@example.com' }),
  Object.assign(new UserEntity(), { id: 8, email: 'ann@example.com' }),
];

class FakeUsers implements Pick<UsersService, 'get'> {
  get(id: number): Promise<UserEntity> {
    return Promise.resolve(USERS.find((u) => u.id === id)!);
  }
}

class FakeTeams implements Pick<TeamsRepository, 'findOwned'> {
  readonly rows = [
    Object.assign(new TeamEntity(), { id: 5, user_id: 2, name: 'Mine' }),
    Object.assign(new TeamEntity(), { id: 6, user_id: 3, name: 'Theirs' }),
  ];
  findOwned(ownerId: number, id: number): Promise<TeamEntity | null> {
    return Promise.resolve(this.rows.find((t) => t.id === id && t.user_id === ownerId) ?? null);
  }
}

/** Keeps the owner and invitee scoping of the real repository. */
class FakeMembers implements Pick<
  TeamMembersRepository,
  'insert' | 'save' | 'emailInvited' | 'findOfOwner' | 'findOfInvitee' | 'deleteOfInvitee'
> {
  readonly rows: TeamMemberEntity[] = [];
  constructor(private readonly teams: FakeTeams) {}
  insert(values: Omit<TeamMemberEntity, 'id'>): Promise<number> {
    const id = 100 + this.rows.length;
    this.rows.push(Object.assign(new TeamMemberEntity(), values, { id }));
    return Promise.resolve(id);
  }
  save(member: TeamMemberEntity): Promise<TeamMemberEntity> {
    this.rows[this.rows.findIndex((m) => m.id === member.id)] = member;
    return Promise.resolve(member);
  }
  emailInvited(teamId: number, email: string): Promise<boolean> {
    return Promise.resolve(this.rows.some((m) => m.team_id === teamId && m.user_email === email));
  }
  findOfOwner(ownerId: number, id: number): Promise<TeamMemberEntity | null> {
    const owned = this.teams.rows.filter((t) => t.user_id === ownerId).map((t) => t.id);
    return Promise.resolve(this.rows.find((m) => m.id === id && owned.includes(m.team_id)) ?? null);
  }
  findOfInvitee(
    invitee: { userId: number; email: string },
    id: number,
  ): Promise<TeamMemberEntity | null> {
    const row = this.rows.find(
      (m) =>
        m.id === id &&
        (m.user_id === invitee.userId || (m.user_id === null && m.user_email === invitee.email)),
    );
    return Promise.resolve(row ?? null);
  }
  async deleteOfInvitee(invitee: { userId: number; email: string }, id: number) {
    const row = await this.findOfInvitee(invitee, id);
    if (row) {
      this.rows.splice(this.rows.indexOf(row), 1);
    }
    return row !== null;
  }
}

function setup() {
  const teams = new FakeTeams();
  const members = new FakeMembers(teams);
  const users = new FakeUsers() as unknown as UsersService;
  const repo = members as unknown as TeamMembersRepository;
  const authCache = new AuthCache(null);
  // Plans limit nothing here; the writes run at once.
  const writes = inlineWrites();
  return {
    members,
    authCache,
    checks: writes.checks,
    owner: new TeamMembersService(
      writes.db,
      writes.limits,
      teams as unknown as TeamsRepository,
      repo,
      users,
      clock,
      // No SMTP here: invitation emails are covered end to end in events.e2e-spec.ts.
      { unavailableReason: () => 'SMTP_URL is not set' } as unknown as Notifier,
      { appUrl: 'http://links.test' } as AppConfig,
      authCache,
    ),
    invitee: new InvitationsService(repo, users, clock, authCache),
  };
}

const entry = (status: number, title: string, code: string, field?: string): ErrorEntry =>
  ({ status, title, ...(field ? { field } : {}), code }) as ErrorEntry;

describe(TeamMembersService.name, () => {
  it('invites with read-only access by default, unbound and invited', async () => {
    const { owner, members, checks } = setup();
    expect(await owner.create(OWNER, { team_id: 5, user_email: 'new@example.com' })).toEqual({
      id: 100,
    });
    expect(checks).toEqual([{ ownerId: 2, needs: { team_members: 1 } }]);
    expect(members.rows).toEqual([
      Object.assign(new TeamMemberEntity(), {
        id: 100,
        team_id: 5,
        user_id: null,
        user_email: 'new@example.com',
        access_read: true,
        access_create: false,
        access_update: false,
        access_delete: false,
        status: 0,
        datetime: NOW,
        last_datetime: null,
      }),
    ]);
  });

  it('refuses to invite the owner itself', async () => {
    const { owner, members } = setup();
    expect(
      await rejectionEntries(owner.create(OWNER, { team_id: 5, user_email: 'owner@example.com' })),
    ).toEqual([entry(400, 'You cannot invite yourself.', 'validation_failed', 'user_email')]);
    expect(members.rows).toEqual([]);
  });

  it('refuses an address already invited to the team', async () => {
    const { owner } = setup();
    await owner.create(OWNER, { team_id: 5, user_email: 'dup@example.com' });
    expect(
      await rejectionEntries(owner.create(OWNER, { team_id: 5, user_email: 'dup@example.com' })),
    ).toEqual([
      entry(
        400,
        'dup@example.com is already invited to this team.',
        'already_exists',
        'user_email',
      ),
    ]);
  });

  it("refuses another owner's team with 404", async () => {
    const { owner } = setup();
    expect(
      await rejectionEntries(owner.create(OWNER, { team_id: 6, user_email: 'x@example.com' })),
    ).toEqual([entry(404, 'The team you are looking for does not exist.', 'team_not_found')]);
  });

  it('replaces the access flags, keeping read on', async () => {
    const { owner, members } = setup();
    await owner.create(OWNER, {
      team_id: 5,
      user_email: 'a@example.com',
      access: { read: true, create: true, update: false, delete: true },
    });
    await owner.update(OWNER, 100, {
      access: { read: true, create: false, update: true, delete: false },
    });
    expect(members.rows[0]).toMatchObject({
      access_read: true,
      access_create: false,
      access_update: true,
      access_delete: false,
      last_datetime: NOW,
    });
  });
});

describe(InvitationsService.name, () => {
  it('accepting binds the membership to the caller', async () => {
    const { owner, invitee, members } = setup();
    await owner.create(OWNER, { team_id: 5, user_email: 'ann@example.com' });
    expect(await invitee.update(INVITEE, 100, { status: true })).toEqual({ id: 100 });
    expect(members.rows[0]).toMatchObject({ user_id: 8, status: 1, last_datetime: NOW });
    await invitee.update(INVITEE, 100, { status: false });
    expect(members.rows[0]).toMatchObject({ user_id: 8, status: 0 });
  });

  it('answers 404 for a membership addressed to someone else', async () => {
    const { owner, invitee, members } = setup();
    await owner.create(OWNER, { team_id: 5, user_email: 'bob@example.com' });
    const notFound = [
      entry(404, 'The team member you are looking for does not exist.', 'team_member_not_found'),
    ];
    expect(await rejectionEntries(invitee.update(INVITEE, 100, { status: true }))).toEqual(
      notFound,
    );
    expect(await rejectionEntries(invitee.remove(INVITEE, 100))).toEqual(notFound);
    expect(members.rows).toHaveLength(1);
    expect(members.rows[0]).toMatchObject({ user_id: null, status: 0 });
  });
});
