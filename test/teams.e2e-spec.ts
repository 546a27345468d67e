import { createTestApp, TestApp, TestUser } from '@app/testing';

const DATETIME = /^\d{4}-\d{2}-\d{2} \d{2}:\d{2}:\d{2}$/;
const READ_ONLY = { read: true, create: false, update: false, delete: false };

type Method = 'get' | 'post' | 'delete';

describe('Teams', () => {
  let t: TestApp;
  let owner: TestUser;
  let invitee: TestUser;
  let stranger: TestUser;

  beforeAll(async () => {
    t = await createTestApp();
    owner = await t.createUser();
    invitee = await t.createUser();
    stranger = await t.createUser();
  });
  afterAll(() => t?.close());

  async function createTeam(name: string, user = owner): Promise<number> {
    const res = await t.http.post('/v1/teams').set('Authorization', user.auth).field('name', name);
    expect(res.status).toBe(201);
    return (res.body as { data: { id: number } }).data.id;
  }

  async function invite(
    teamId: number,
    email: string,
    access: string[] = [],
    user = owner,
  ): Promise<number> {
    const res = await t.http
      .post('/v1/team-members')
      .set('Authorization', user.auth)
      .type('form')
      .send(
        [`team_id=${teamId}`, `user_email=${encodeURIComponent(email)}`]
          .concat(access.map((a) => `access[]=${a}`))
          .join('&'),
      );
    expect(res.status).toBe(201);
    return (res.body as { data: { id: number } }).data.id;
  }

  function notFound(code: string, what: string) {
    return {
      errors: [{ status: 404, title: `The ${what} you are looking for does not exist.`, code }],
    };
  }

  describe('teams (owner side)', () => {
    it('creates, reads back with its members, renames and lists', async () => {
      const id = await createTeam('Example team');
      const memberId = await invite(id, 'Hello@Example.com', ['create', 'update']);

      const got = await t.http.get(`/v1/teams/${id}`).set('Authorization', owner.auth);
      expect(got.status).toBe(200);
      expect(got.body).toEqual({
        data: {
          id,
          name: 'Example team',
          team_members: [
            {
              team_member_id: memberId,
              user_email: 'hello@example.com',
              access: { read: true, create: true, update: true, delete: false },
              status: 0,
              datetime: expect.stringMatching(DATETIME),
              last_datetime: null,
            },
          ],
          last_datetime: null,
          datetime: expect.stringMatching(DATETIME),
        },
      });

      const renamed = await t.http
        .post(`/v1/teams/${id}`)
        .set('Authorization', owner.auth)
        .send({ name: 'Renamed' });
      expect(renamed.status).toBe(200);
      expect(renamed.body).toEqual({ data: { id } });

      const list = await t.http
        .get('/v1/teams?search=renam&search_by=name&order_by=team_id')
        .set('Authorization', owner.auth);
      expect(list.status).toBe(200);
      expect(list.body.data).toEqual([
        {
          ...got.body.data,
          name: 'Renamed',
          last_datetime: expect.stringMatching(DATETIME),
        },
      ]);
      expect(list.body.meta).toEqual({
        page: 1,
        results_per_page: 25,
        total: 1,
        total_results: 1,
        total_pages: 1,
      });
    });

    it('orders and filters the list, and refuses unknown list parameters', async () => {
      const lister = await t.createUser();
      const b = await createTeam('Bravo', lister);
      const a = await createTeam('Alpha', lister);
      const byName = await t.http
        .get('/v1/teams?order_by=name&order_type=ASC')
        .set('Authorization', lister.auth);
      expect(byName.body.data.map((x: { id: number }) => x.id)).toEqual([a, b]);
      const byId = await t.http
        .get(
          '/v1/teams?order_by=team_id&order_type=DESC&datetime_field=datetime&datetime_start=2000-01-01 00:00:00',
        )
        .set('Authorization', lister.auth);
      expect(byId.body.data.map((x: { id: number }) => x.id)).toEqual([a, b]);
      const bad = await t.http
        .get('/v1/teams?search_by=user_email')
        .set('Authorization', lister.auth);
      expect(bad.status).toBe(400);
      expect(bad.body.errors).toEqual([
        expect.objectContaining({ field: 'search_by', code: 'invalid_list_parameter' }),
      ]);
    });

    it('keeps the name on an empty update', async () => {
      const id = await createTeam('Kept');
      const res = await t.http.post(`/v1/teams/${id}`).set('Authorization', owner.auth).send({});
      expect(res.status).toBe(200);
      const got = await t.http.get(`/v1/teams/${id}`).set('Authorization', owner.auth);
      expect(got.body.data).toMatchObject({ name: 'Kept', last_datetime: expect.any(String) });
    });

    it.each([
      ['a missing name', {}, 'name is required.'],
      ['a blank name', { name: '  ' }, 'name is required.'],
      [
        'a name over 64 characters',
        { name: 'x'.repeat(65) },
        'name must be shorter than or equal to 64 characters.',
      ],
    ])('refuses %s with 400', async (_case, body, title) => {
      const res = await t.http.post('/v1/teams').set('Authorization', owner.auth).send(body);
      expect(res.status).toBe(400);
      expect(res.body).toEqual({
        errors: [{ status: 400, title, field: 'name', code: 'validation_failed' }],
      });
    });

    it('refuses a rename over 64 characters', async () => {
      const id = await createTeam('Short');
      const res = await t.http
        .post(`/v1/teams/${id}`)
        .set('Authorization', owner.auth)
        .send({ name: 'y'.repeat(65) });
      expect(res.status).toBe(400);
      expect(res.body.errors).toEqual([
        {
          status: 400,
          title: 'name must be shorter than or equal to 64 characters.',
          field: 'name',
          code: 'validation_failed',
        },
      ]);
    });

    it("answers 404 for another user's team on every route, leaving it unchanged", async () => {
      const id = await createTeam('Private');
      for (const [method, body] of [
        ['get', undefined],
        ['post', { name: 'Stolen' }],
        ['delete', undefined],
      ] as const) {
        const res = await t.http[method](`/v1/teams/${id}`)
          .set('Authorization', stranger.auth)
          .send(body);
        expect([method, res.status, res.body]).toEqual([
          method,
          404,
          notFound('team_not_found', 'team'),
        ]);
      }
      const got = await t.http.get(`/v1/teams/${id}`).set('Authorization', owner.auth);
      expect(got.body.data.name).toBe('Private');
      const list = await t.http.get('/v1/teams').set('Authorization', stranger.auth);
      expect(list.body.data).toEqual([]);
    });

    it('deletes a team together with its memberships', async () => {
      const id = await createTeam('Doomed');
      const memberId = await invite(id, invitee.email);
      const res = await t.http.delete(`/v1/teams/${id}`).set('Authorization', owner.auth);
      expect(res.status).toBe(200);
      expect(res.body).toEqual({ data: { id } });
      expect((await t.http.get(`/v1/teams/${id}`).set('Authorization', owner.auth)).status).toBe(
        404,
      );
      const mine = await t.http
        .get(`/v1/teams-member/${memberId}`)
        .set('Authorization', invitee.auth);
      expect(mine.status).toBe(404);
      const rows: unknown[] = await t.dataSource.query(
        `SELECT id FROM team_members WHERE team_id = ${id}`,
      );
      expect(rows).toEqual([]);
    });
  });

  describe('team members (owner manages)', () => {
    let teamId: number;
    beforeAll(async () => {
      teamId = await createTeam('Members');
    });

    it('lists the members of a team as { data: [...] } without meta or links', async () => {
      const team = await createTeam('Listed');
      const a = await invite(team, 'a@example.com', ['delete']);
      const b = await invite(team, 'b@example.com');
      const res = await t.http.get(`/v1/team-members/${team}`).set('Authorization', owner.auth);
      expect(res.status).toBe(200);
      expect(res.body).toEqual({
        data: [
          {
            id: a,
            team_id: team,
            user_email: 'a@example.com',
            access: { read: true, create: false, update: false, delete: true },
            status: 0,
            datetime: expect.stringMatching(DATETIME),
            last_datetime: null,
          },
          {
            id: b,
            team_id: team,
            user_email: 'b@example.com',
            access: READ_ONLY,
            status: 0,
            datetime: expect.stringMatching(DATETIME),
            last_datetime: null,
          },
        ],
      });
    });

    it.each([
      ['a list', ['access[]=create', 'access[]=delete'], { create: true, delete: true }],
      ['an object', ['access[create]=1', 'access[update]=0', 'access[read]=0'], { create: true }],
      ['nothing', [], {}],
      ['an explicit read only', ['access[]=read'], {}],
    ])('takes access as %s; read is always on', async (_case, access, granted) => {
      const email = `acc-${Math.random().toString(36).slice(2)}@example.com`;
      const res = await t.http
        .post('/v1/team-members')
        .set('Authorization', owner.auth)
        .type('form')
        .send([`team_id=${teamId}`, `user_email=${email}`, ...access].join('&'));
      expect(res.status).toBe(201);
      const list = await t.http.get(`/v1/team-members/${teamId}`).set('Authorization', owner.auth);
      const row = (list.body.data as Array<{ id: number; access: unknown }>).find(
        (m) => m.id === res.body.data.id,
      );
      expect(row?.access).toEqual({ ...READ_ONLY, ...granted });
    });

    it('takes access from multipart and from JSON in both shapes', async () => {
      const multipart = await t.http
        .post('/v1/team-members')
        .set('Authorization', owner.auth)
        .field('team_id', String(teamId))
        .field('user_email', 'multi@example.com')
        .field('access[]', 'update')
        .field('access[]', 'delete');
      expect(multipart.status).toBe(201);
      const jsonList = await t.http
        .post('/v1/team-members')
        .set('Authorization', owner.auth)
        .send({ team_id: teamId, user_email: 'jl@example.com', access: ['create'] });
      expect(jsonList.status).toBe(201);
      const jsonObject = await t.http
        .post('/v1/team-members')
        .set('Authorization', owner.auth)
        .send({ team_id: teamId, user_email: 'jo@example.com', access: { delete: true } });
      expect(jsonObject.status).toBe(201);
      const list = await t.http.get(`/v1/team-members/${teamId}`).set('Authorization', owner.auth);
      const byEmail = new Map(
        (list.body.data as Array<{ user_email: string; access: unknown }>).map((m) => [
          m.user_email,
          m.access,
        ]),
      );
      expect(byEmail.get('multi@example.com')).toEqual({
        ...READ_ONLY,
        update: true,
        delete: true,
      });
      expect(byEmail.get('jl@example.com')).toEqual({ ...READ_ONLY, create: true });
      expect(byEmail.get('jo@example.com')).toEqual({ ...READ_ONLY, delete: true });
    });

    it.each([
      [
        'a missing team_id and user_email',
        { team_id: undefined },
        [
          { field: 'team_id', title: 'team_id is required.' },
          { field: 'user_email', title: 'user_email is required.' },
        ],
      ],
      [
        'a malformed email',
        { user_email: 'not-an-email' },
        [{ field: 'user_email', title: 'user_email must be a valid email address.' }],
      ],
      [
        'an email over 254 characters',
        { user_email: `${'a'.repeat(250)}@example.com` },
        [
          {
            field: 'user_email',
            title: 'user_email must be shorter than or equal to 254 characters.',
          },
        ],
      ],
      [
        'an unknown access value',
        { user_email: 'x@example.com', access: ['read', 'admin'] },
        [
          {
            field: 'access',
            title: 'access may only list read, create, update, delete; got "admin".',
          },
        ],
      ],
      [
        'an unknown access key',
        { user_email: 'x@example.com', access: { own: 1 } },
        [
          {
            field: 'access',
            title: 'access may only have the keys read, create, update, delete; got "own".',
          },
        ],
      ],
      [
        'an access flag that is not 0 or 1',
        { user_email: 'x@example.com', access: { create: 'yes' } },
        [{ field: 'access', title: 'access[create] must be 0 or 1.' }],
      ],
      [
        'a team_id that is not a number',
        { team_id: 'abc', user_email: 'x@example.com' },
        [{ field: 'team_id', title: 'team_id must be a whole number from 1 to 2147483647.' }],
      ],
    ])('refuses %s with 400', async (_case, body, problems) => {
      const res = await t.http
        .post('/v1/team-members')
        .set('Authorization', owner.auth)
        .send({ team_id: teamId, ...body });
      expect(res.status).toBe(400);
      expect(res.body).toEqual({
        errors: problems.map((p) => ({ status: 400, ...p, code: 'validation_failed' })),
      });
    });

    it('refuses inviting yourself, in any case of your address', async () => {
      const res = await t.http
        .post('/v1/team-members')
        .set('Authorization', owner.auth)
        .send({ team_id: teamId, user_email: owner.email.toUpperCase() });
      expect(res.status).toBe(400);
      expect(res.body).toEqual({
        errors: [
          {
            status: 400,
            title: 'You cannot invite yourself.',
            field: 'user_email',
            code: 'validation_failed',
          },
        ],
      });
    });

    it('refuses inviting an address twice to the same team, but not to another team', async () => {
      await invite(teamId, 'twice@example.com');
      const res = await t.http
        .post('/v1/team-members')
        .set('Authorization', owner.auth)
        .send({ team_id: teamId, user_email: ' Twice@Example.com ' });
      expect(res.status).toBe(400);
      expect(res.body).toEqual({
        errors: [
          {
            status: 400,
            title: 'twice@example.com is already invited to this team.',
            field: 'user_email',
            code: 'already_exists',
          },
        ],
      });
      await invite(await createTeam('Other'), 'twice@example.com');
    });

    it("refuses inviting to another user's team or a missing one with 404", async () => {
      const theirs = await createTeam('Theirs', stranger);
      for (const team of [theirs, 999999]) {
        const res = await t.http
          .post('/v1/team-members')
          .set('Authorization', owner.auth)
          .send({ team_id: team, user_email: 'x@example.com' });
        expect(res.status).toBe(404);
        expect(res.body).toEqual(notFound('team_not_found', 'team'));
      }
      const list = await t.http.get(`/v1/team-members/${theirs}`).set('Authorization', owner.auth);
      expect(list.status).toBe(404);
      expect(list.body).toEqual(notFound('team_not_found', 'team'));
    });

    it("changes a member's access, replacing the whole set", async () => {
      const id = await invite(teamId, 'change@example.com', ['create', 'delete']);
      const res = await t.http
        .post(`/v1/team-members/${id}`)
        .set('Authorization', owner.auth)
        .type('form')
        .send('access[update]=1');
      expect(res.status).toBe(200);
      expect(res.body).toEqual({ data: { id } });
      const list = await t.http.get(`/v1/team-members/${teamId}`).set('Authorization', owner.auth);
      expect((list.body.data as Array<{ id: number }>).find((m) => m.id === id)).toEqual({
        id,
        team_id: teamId,
        user_email: 'change@example.com',
        access: { ...READ_ONLY, update: true },
        status: 0,
        datetime: expect.stringMatching(DATETIME),
        last_datetime: expect.stringMatching(DATETIME),
      });
      const bad = await t.http
        .post(`/v1/team-members/${id}`)
        .set('Authorization', owner.auth)
        .send({ access: 'owner' });
      expect(bad.status).toBe(400);
      expect(bad.body.errors).toEqual([
        {
          status: 400,
          title: 'access may only list read, create, update, delete; got "owner".',
          field: 'access',
          code: 'validation_failed',
        },
      ]);
    });

    it("answers 404 for another owner's membership on update and delete", async () => {
      const id = await invite(teamId, 'guarded@example.com');
      for (const method of ['post', 'delete'] as const) {
        const res = await t.http[method](`/v1/team-members/${id}`)
          .set('Authorization', stranger.auth)
          .send(method === 'post' ? { access: ['delete'] } : undefined);
        expect([method, res.status, res.body]).toEqual([
          method,
          404,
          notFound('team_member_not_found', 'team member'),
        ]);
      }
    });

    it('removes a member', async () => {
      const id = await invite(teamId, 'removed@example.com');
      const res = await t.http.delete(`/v1/team-members/${id}`).set('Authorization', owner.auth);
      expect(res.status).toBe(200);
      expect(res.body).toEqual({ data: { id } });
      const again = await t.http.delete(`/v1/team-members/${id}`).set('Authorization', owner.auth);
      expect(again.status).toBe(404);
    });
  });

  describe('teams-member (invitee side)', () => {
    it('invites an address with no account; it binds when that user exists and accepts', async () => {
      const teamId = await createTeam('Future');
      const memberId = await invite(teamId, 'Newcomer@Example.com', ['create']);

      const later = await t.createUser('newcomer@example.com');
      const list = await t.http.get('/v1/teams-member').set('Authorization', later.auth);
      expect(list.status).toBe(200);
      const invitation = {
        id: memberId,
        access: { ...READ_ONLY, create: true },
        status: 0,
        last_datetime: null,
        datetime: expect.stringMatching(DATETIME),
        team_id: teamId,
        name: 'Future',
      };
      expect(list.body.data).toEqual([invitation]);
      expect(list.body.meta.total).toBe(1);

      const one = await t.http.get(`/v1/teams-member/${memberId}`).set('Authorization', later.auth);
      expect(one.body).toEqual({ data: invitation });

      const accepted = await t.http
        .post(`/v1/teams-member/${memberId}`)
        .set('Authorization', later.auth)
        .field('status', '1');
      expect(accepted.status).toBe(200);
      expect(accepted.body).toEqual({ data: { id: memberId } });

      const after = await t.http
        .get(`/v1/teams-member/${memberId}`)
        .set('Authorization', later.auth);
      expect(after.body.data).toEqual({
        ...invitation,
        status: 1,
        last_datetime: expect.stringMatching(DATETIME),
      });
      const rows: Array<{ user_id: number }> = await t.dataSource.query(
        `SELECT user_id FROM team_members WHERE id = ${memberId}`,
      );
      expect(rows.map((r) => Number(r.user_id))).toEqual([later.id]);

      const teamView = await t.http.get(`/v1/teams/${teamId}`).set('Authorization', owner.auth);
      expect(teamView.body.data.team_members[0]).toMatchObject({
        team_member_id: memberId,
        status: 1,
      });

      // Now a member: the team context opens the owner's workspace.
      const projects = await t.http
        .get('/v1/projects')
        .set('Authorization', later.auth)
        .set('X-Team-Id', String(teamId));
      expect(projects.status).toBe(200);
    });

    it('sets an accepted membership back to invited with status=0', async () => {
      const teamId = await createTeam('Pause');
      const memberId = await invite(teamId, invitee.email);
      await t.http
        .post(`/v1/teams-member/${memberId}`)
        .set('Authorization', invitee.auth)
        .send({ status: 1 });
      const res = await t.http
        .post(`/v1/teams-member/${memberId}`)
        .set('Authorization', invitee.auth)
        .send({ status: 0 });
      expect(res.status).toBe(200);
      const one = await t.http
        .get(`/v1/teams-member/${memberId}`)
        .set('Authorization', invitee.auth);
      expect(one.body.data.status).toBe(0);
      const ctx = await t.http
        .get('/v1/projects')
        .set('Authorization', invitee.auth)
        .set('X-Team-Id', String(teamId));
      expect(ctx.status).toBe(404);
    });

    it.each([
      ['a missing status', {}, 'status is required.'],
      ['a status that is not 0 or 1', { status: '2' }, 'status must be 0 or 1.'],
    ])('refuses %s with 400', async (_case, body, title) => {
      const memberId = await invite(await createTeam('Answer'), invitee.email);
      const res = await t.http
        .post(`/v1/teams-member/${memberId}`)
        .set('Authorization', invitee.auth)
        .send(body);
      expect(res.status).toBe(400);
      expect(res.body).toEqual({
        errors: [{ status: 400, title, field: 'status', code: 'validation_failed' }],
      });
    });

    it('declines an invitation and leaves a team with DELETE', async () => {
      const declined = await invite(await createTeam('Declined'), invitee.email);
      const res = await t.http
        .delete(`/v1/teams-member/${declined}`)
        .set('Authorization', invitee.auth);
      expect(res.status).toBe(200);
      expect(res.body).toEqual({ data: { id: declined } });

      const teamId = await createTeam('Left');
      const left = await invite(teamId, invitee.email, ['read']);
      await t.http
        .post(`/v1/teams-member/${left}`)
        .set('Authorization', invitee.auth)
        .send({ status: 1 });
      const leave = await t.http
        .delete(`/v1/teams-member/${left}`)
        .set('Authorization', invitee.auth);
      expect(leave.status).toBe(200);
      const members = await t.http
        .get(`/v1/team-members/${teamId}`)
        .set('Authorization', owner.auth);
      expect(members.body).toEqual({ data: [] });
      const ctx = await t.http
        .get('/v1/links')
        .set('Authorization', invitee.auth)
        .set('X-Team-Id', String(teamId));
      expect(ctx.status).toBe(404);
    });

    it('shows, accepts and deletes only memberships addressed to the caller', async () => {
      const memberId = await invite(await createTeam('Someone else'), 'other@example.com');
      for (const [method, body] of [
        ['get', undefined],
        ['post', { status: 1 }],
        ['delete', undefined],
      ] as const) {
        for (const user of [stranger, owner]) {
          const res = await t.http[method](`/v1/teams-member/${memberId}`)
            .set('Authorization', user.auth)
            .send(body);
          expect([method, user.email, res.status, res.body]).toEqual([
            method,
            user.email,
            404,
            notFound('team_member_not_found', 'team member'),
          ]);
        }
      }
      const list = await t.http.get('/v1/teams-member').set('Authorization', stranger.auth);
      expect(list.body.data.map((m: { id: number }) => m.id)).not.toContain(memberId);
    });

    it('refuses list parameters it does not know', async () => {
      const res = await t.http
        .get('/v1/teams-member?order_by=name')
        .set('Authorization', invitee.auth);
      expect(res.status).toBe(400);
      expect(res.body.errors[0]).toMatchObject({
        field: 'order_by',
        code: 'invalid_list_parameter',
      });
    });
  });

  it.each([
    ['get', '/v1/teams'],
    ['post', '/v1/teams'],
    ['get', '/v1/teams/1'],
    ['post', '/v1/teams/1'],
    ['delete', '/v1/teams/1'],
    ['get', '/v1/team-members/1'],
    ['post', '/v1/team-members'],
    ['post', '/v1/team-members/1'],
    ['delete', '/v1/team-members/1'],
    ['get', '/v1/teams-member'],
    ['get', '/v1/teams-member/1'],
    ['post', '/v1/teams-member/1'],
    ['delete', '/v1/teams-member/1'],
  ] as Array<[Method, string]>)('answers %s %s without a key with 401', async (method, path) => {
    const res = await t.http[method](path);
    expect(res.status).toBe(401);
    expect(res.body).toEqual({
      errors: [
        {
          status: 401,
          title: 'The request is missing the Bearer Authentication header.',
          code: 'unauthorized',
        },
      ],
    });
  });
});
