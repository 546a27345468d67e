import { ExecutionContext } from '@nestjs/common';
import { Reflector } from '@nestjs/core';
import { ExecutionContextHost } from '@nestjs/core/helpers/execution-context-host';
import { ErrorEntry } from '@app/common';
import { TeamContext, TeamEntity, TeamMemberEntity, TeamMembersRepository } from '@app/database';
import { rejectionEntries } from '@app/testing/app-error-entries';
import { Actor } from './actor';
import { AuthCache } from './auth-cache';
import { Public } from './public.decorator';
import { TeamAccess } from './team-access.decorator';
import { TeamAccessGuard } from './team-access.guard';

const MEMBER: Actor = { userId: 7, apiKeyId: 3, isAdmin: false, ownerId: 7 };
const TEAM = Object.assign(new TeamEntity(), { id: 5, user_id: 2, name: 'Team' });

function membership(values: Partial<TeamMemberEntity>): TeamMemberEntity {
  return Object.assign(new TeamMemberEntity(), {
    id: 11,
    team_id: 5,
    user_id: 7,
    user_email: 'member@example.com',
    access_read: true,
    access_create: false,
    access_update: false,
    access_delete: false,
    status: 1,
    ...values,
  });
}

class FakeMembers implements Pick<TeamMembersRepository, 'findContext'> {
  readonly asked: Array<[number, number]> = [];
  constructor(private readonly context: TeamContext | null) {}
  findContext(teamId: number, userId: number): Promise<TeamContext | null> {
    this.asked.push([teamId, userId]);
    return Promise.resolve(this.context);
  }
}

class ProjectsController {
  @TeamAccess('read')
  list(): void {}
  @TeamAccess('delete')
  remove(): void {}
  teamsOnly(): void {}
  @Public()
  open(): void {}
}

interface FakeRequest {
  headers: Record<string, string>;
  user?: Actor;
}

function contextFor(req: FakeRequest, handler: () => void): ExecutionContext {
  return new ExecutionContextHost([req, {}, jest.fn()], ProjectsController, handler);
}

function guardWith(context: TeamContext | null): {
  guard: TeamAccessGuard;
  members: FakeMembers;
  cache: AuthCache;
} {
  const members = new FakeMembers(context);
  const cache = new AuthCache(null);
  return {
    guard: new TeamAccessGuard(new Reflector(), members as unknown as TeamMembersRepository, cache),
    members,
    cache,
  };
}

const P = ProjectsController.prototype;

describe(TeamAccessGuard.name, () => {
  it('changes nothing without X-Team-Id', async () => {
    const { guard, members } = guardWith(null);
    const req: FakeRequest = { headers: {}, user: MEMBER };
    expect(await guard.canActivate(contextFor(req, P.teamsOnly))).toBe(true);
    expect(req.user).toEqual(MEMBER);
    expect(members.asked).toEqual([]);
  });

  it('ignores X-Team-Id on a public route', async () => {
    const { guard, members } = guardWith(null);
    const req: FakeRequest = { headers: { 'x-team-id': 'junk' } };
    expect(await guard.canActivate(contextFor(req, P.open))).toBe(true);
    expect(members.asked).toEqual([]);
  });

  it('acts in the owner workspace for an accepted member with the flag', async () => {
    const { guard, members } = guardWith({ team: TEAM, member: membership({}) });
    const req: FakeRequest = { headers: { 'x-team-id': '5' }, user: MEMBER };
    expect(await guard.canActivate(contextFor(req, P.list))).toBe(true);
    expect(req.user).toEqual({ ...MEMBER, ownerId: 2, teamId: 5 });
    expect(members.asked).toEqual([[5, 7]]);
  });

  it('looks a context up once until the team or the member changes', async () => {
    const { guard, members, cache } = guardWith({ team: TEAM, member: membership({}) });
    const request = (): FakeRequest => ({ headers: { 'x-team-id': '5' }, user: MEMBER });
    await guard.canActivate(contextFor(request(), P.list));
    const again = request();
    expect(await guard.canActivate(contextFor(again, P.list))).toBe(true);
    expect(again.user).toEqual({ ...MEMBER, ownerId: 2, teamId: 5 });
    expect(members.asked).toEqual([[5, 7]]);

    cache.dropTeam(5);
    await guard.canActivate(contextFor(request(), P.list));
    cache.dropUser(7);
    await guard.canActivate(contextFor(request(), P.list));
    expect(members.asked).toEqual([
      [5, 7],
      [5, 7],
      [5, 7],
    ]);
  });

  it('lets the owner use its own team with every flag', async () => {
    const { guard } = guardWith({ team: TEAM, member: null });
    const owner: Actor = { ...MEMBER, userId: 2, ownerId: 2 };
    const req: FakeRequest = { headers: { 'x-team-id': '5' }, user: owner };
    expect(await guard.canActivate(contextFor(req, P.remove))).toBe(true);
    expect(req.user).toEqual({ ...owner, teamId: 5 });
  });

  it('refuses a membership without the flag with 403 naming it', async () => {
    const { guard } = guardWith({ team: TEAM, member: membership({ access_create: true }) });
    const req: FakeRequest = { headers: { 'x-team-id': '5' }, user: MEMBER };
    expect(await rejectionEntries(() => guard.canActivate(contextFor(req, P.remove)))).toEqual<
      ErrorEntry[]
    >([
      {
        status: 403,
        title:
          'Your membership of this team does not grant the delete access this operation needs.',
        code: 'forbidden',
      },
    ]);
    expect(req.user).toEqual(MEMBER);
  });

  it('answers 404 when the caller is not an accepted member', async () => {
    const { guard } = guardWith(null);
    const req: FakeRequest = { headers: { 'x-team-id': '5' }, user: MEMBER };
    expect(await rejectionEntries(() => guard.canActivate(contextFor(req, P.list)))).toEqual([
      {
        status: 404,
        title: 'The team you are looking for does not exist.',
        code: 'team_not_found',
      },
    ]);
  });

  it('refuses team context on a route without @TeamAccess with 403, before any lookup', async () => {
    const { guard, members } = guardWith({ team: TEAM, member: membership({}) });
    const req: FakeRequest = { headers: { 'x-team-id': '5' }, user: MEMBER };
    expect(await rejectionEntries(() => guard.canActivate(contextFor(req, P.teamsOnly)))).toEqual([
      {
        status: 403,
        title:
          'This operation cannot be done through a team: send it without the X-Team-Id header.',
        code: 'forbidden',
      },
    ]);
    expect(members.asked).toEqual([]);
  });

  it.each(['x', '0', '05x', '2147483648', '1, 2'])(
    'refuses the header value %p with 400 naming X-Team-Id',
    async (value) => {
      const { guard, members } = guardWith(null);
      const req: FakeRequest = { headers: { 'x-team-id': value }, user: MEMBER };
      expect(await rejectionEntries(() => guard.canActivate(contextFor(req, P.list)))).toEqual([
        {
          status: 400,
          title: 'The X-Team-Id header must be the id of a team (a positive whole number).',
          field: 'X-Team-Id',
          code: 'validation_failed',
        },
      ]);
      expect(members.asked).toEqual([]);
    },
  );
});
