import { PlansService } from '@app/billing';
import { Clock } from '@app/common';
import { closeAfterAll, createTestApp, TestApp, TestUser } from '@app/testing';

type Body = Record<string, unknown>;

/**
 * One create route per limited resource: the body of one create, and what each needs first (a
 * bio page for blocks, a team for members).
 */
interface Route {
  resource: string;
  limit: string;
  path: string;
  /** Singular and plural, as the refusal names them. */
  names: [string, string];
  body: (n: number, ctx: { bioPage: number; team: number }) => Body;
}

const ROUTES: Route[] = [
  {
    resource: 'links',
    limit: 'links_limit',
    path: '/v1/links',
    names: ['link', 'links'],
    body: (n) => ({ location_url: `https://example.com/${n}` }),
  },
  {
    resource: 'projects',
    limit: 'projects_limit',
    path: '/v1/projects',
    names: ['project', 'projects'],
    body: (n) => ({ name: `Project ${n}` }),
  },
  {
    resource: 'qr_codes',
    limit: 'qr_codes_limit',
    path: '/v1/qr-codes',
    names: ['QR code', 'QR codes'],
    body: (n) => ({ name: `QR ${n}`, type: 'text', text: `Hello ${n}` }),
  },
  {
    resource: 'domains',
    limit: 'domains_limit',
    path: '/v1/domains',
    names: ['domain', 'domains'],
    body: (n) => ({ host: `shop${n}-${Date.now()}.example.com` }),
  },
  {
    resource: 'splash_pages',
    limit: 'splash_pages_limit',
    path: '/v1/splash-pages',
    names: ['splash page', 'splash pages'],
    body: (n) => ({ name: `Splash ${n}` }),
  },
  {
    resource: 'signatures',
    limit: 'signatures_limit',
    path: '/v1/signatures',
    names: ['signature', 'signatures'],
    body: (n) => ({ name: `Signature ${n}` }),
  },
  {
    resource: 'notification_handlers',
    limit: 'notification_handlers_limit',
    path: '/v1/notification-handlers',
    names: ['notification handler', 'notification handlers'],
    body: (n) => ({ name: `Handler ${n}`, type: 'email', email: `h${n}@example.com` }),
  },
  {
    resource: 'biolink_blocks',
    limit: 'biolink_blocks_limit',
    path: '/v1/biolink-blocks',
    names: ['bio page block', 'bio page blocks'],
    body: (n, ctx) => ({ link_id: ctx.bioPage, type: 'heading', text: `Heading ${n}` }),
  },
  {
    resource: 'team_members',
    limit: 'team_members_limit',
    path: '/v1/team-members',
    names: ['team member', 'team members (invitations included)'],
    body: (n, ctx) => ({ team_id: ctx.team, user_email: `invitee${n}-${Date.now()}@example.com` }),
  },
];

const refusal = (title: string) => ({
  errors: [{ status: 403, title, code: 'plan_limit_reached' }],
});

describe('Plan limits', () => {
  let t: TestApp;
  let plans: PlansService;
  /** The default plan (DEFAULT_PLAN_ID): users without a plan of their own are on it. */
  let free: number;
  const opened = closeAfterAll();

  beforeAll(async () => {
    // The default plan is the first one made: id 1 in a fresh database.
    t = opened.add(await createTestApp({ env: { DEFAULT_PLAN_ID: '1' } }));
    plans = t.app.get(PlansService);
    free = (
      await plans.create({
        name: 'Free',
        settings: { links_limit: 1000, qr_codes_limit: 3, api_rate_limit: 1000 },
      })
    ).id;
    expect(free).toBe(1);
  });

  /** A user on a plan with `settings` (every other limit unlimited). */
  async function userOn(settings: Body, expires: Date | null = null): Promise<TestUser> {
    const user = await t.createUser();
    const plan = await plans.create({ name: `Plan of ${user.email}`, settings });
    await plans.setUserPlan(user.id, plan.id, expires);
    return user;
  }

  function post(user: TestUser, path: string, body: Body, team?: number) {
    const req = t.http.post(path).set('Authorization', user.auth);
    return (team === undefined ? req : req.set('X-Team-Id', String(team))).send(body);
  }

  async function context(user: TestUser): Promise<{ bioPage: number; team: number }> {
    const page = await post(user, '/v1/links', { type: 'biolink' });
    const team = await post(user, '/v1/teams', { name: 'Crew' });
    expect([page.status, team.status]).toEqual([201, 201]);
    return { bioPage: page.body.data.id, team: team.body.data.id };
  }

  it.each(ROUTES)(
    'refuses a create beyond $limit with a 403 naming the limit and the numbers',
    async (route) => {
      // links_limit 2: the bio page that blocks need is one link.
      const limits = route.resource === 'links' ? { links_limit: 2 } : { [route.limit]: 2 };
      const user = await userOn(limits);
      const ctx = await context(user);
      const already = route.resource === 'links' ? 1 : 0;
      for (let n = already; n < 2; n += 1) {
        const ok = await post(user, route.path, route.body(n, ctx));
        expect(ok.status).toBe(201);
      }
      const refused = await post(user, route.path, route.body(9, ctx));
      expect(refused.status).toBe(403);
      expect(refused.body).toEqual(refusal(`Your plan allows 2 ${route.names[1]}; you have 2.`));
      const me = await t.http.get('/v1/user').set('Authorization', user.auth);
      expect(me.body.data.usage[route.resource]).toEqual({ used: 2, limit: 2 });
    },
  );

  it('counts the team owner’s plan for creates made through the team', async () => {
    const owner = await userOn({ projects_limit: 1 });
    const { team } = await context(owner);
    const member = await t.createUser();
    const invite = await post(owner, '/v1/team-members', {
      team_id: team,
      user_email: member.email,
      access: ['create'],
    });
    const accepted = await t.http
      .post(`/v1/teams-member/${invite.body.data.id}`)
      .set('Authorization', member.auth)
      .send({ status: 1 });
    expect(accepted.status).toBe(200);
    // The member's own account is on the generous default plan; the owner's allows one project.
    expect((await post(member, '/v1/projects', { name: 'In team' }, team)).status).toBe(201);
    const refused = await post(member, '/v1/projects', { name: 'One more' }, team);
    expect(refused.status).toBe(403);
    expect(refused.body).toEqual(refusal('Your plan allows 1 project; you have 1.'));
    expect((await post(member, '/v1/projects', { name: 'Own' })).status).toBe(201);
  });

  it('lets exactly one of 20 concurrent creates take the last slot', async () => {
    const user = await userOn({ links_limit: 5 });
    for (let n = 0; n < 4; n += 1) {
      expect((await post(user, '/v1/links', { location_url: `https://e.com/${n}` })).status).toBe(
        201,
      );
    }
    const answers = await Promise.all(
      Array.from({ length: 20 }, (_, n) =>
        post(user, '/v1/links', { location_url: `https://race.example.com/${n}` }),
      ),
    );
    const statuses = answers.map((a) => a.status).sort();
    expect(statuses).toEqual([201, ...Array<number>(19).fill(403)]);
    const list = await t.http.get('/v1/links').set('Authorization', user.auth);
    expect(list.body.meta.total).toBe(5);
  });

  it('counts a bulk create as a whole: all of it fits, or nothing is written', async () => {
    const user = await userOn({ links_limit: 3 });
    const links = Array.from({ length: 5 }, (_, n) => ({ location_url: `https://b.com/${n}` }));
    const refused = await t.http.post('/v1/links/bulk').set('Authorization', user.auth).send(links);
    expect(refused.status).toBe(403);
    expect(refused.body).toEqual(
      refusal('Your plan allows 3 links; you have 0 and this request adds 5.'),
    );
    const list = await t.http.get('/v1/links').set('Authorization', user.auth);
    expect(list.body.meta.total).toBe(0);
    const fits = await t.http
      .post('/v1/links/bulk')
      .set('Authorization', user.auth)
      .send(links.slice(0, 3));
    expect(fits.status).toBe(201);
  });

  it('limits the bytes of static sites, counting what a new version adds', async () => {
    const user = await userOn({ static_storage_bytes: 100 });
    const page = (size: number) => `<!doctype html><title>x</title>${'x'.repeat(size - 31)}`;
    const upload = (html: string, path = '/v1/links') =>
      t.http
        .post(path)
        .set('Authorization', user.auth)
        .field('type', 'static')
        .field('name', 'Site')
        .attach('file', Buffer.from(html), 'index.html');
    const small = await upload(page(60));
    expect(small.status).toBe(201);
    const big = await upload(page(60));
    expect(big.status).toBe(403);
    expect(big.body).toEqual(
      refusal('Your plan allows 100 bytes of static sites; you have 60 and this site needs 60.'),
    );
    // Replacing the site counts the difference only: 60 -> 90 fits.
    const replaced = await t.http
      .post(`/v1/links/${small.body.data.id}`)
      .set('Authorization', user.auth)
      .attach('file', Buffer.from(page(90)), 'index.html');
    expect(replaced.status).toBe(200);
    const me = await t.http.get('/v1/user').set('Authorization', user.auth);
    expect(me.body.data.usage.static_storage_bytes).toEqual({ used: 90, limit: 100 });
    // Two sites: their bytes add up (40 + 50).
    const shrunk = await t.http
      .post(`/v1/links/${small.body.data.id}`)
      .set('Authorization', user.auth)
      .attach('file', Buffer.from(page(40)), 'index.html');
    expect(shrunk.status).toBe(200);
    expect((await upload(page(50))).status).toBe(201);
    const both = await t.http.get('/v1/user').set('Authorization', user.auth);
    expect(both.body.data.usage.static_storage_bytes).toEqual({ used: 90, limit: 100 });
  });

  it('follows the plan’s rate limit per key', async () => {
    const user = await userOn({ api_rate_limit: 3 });
    const answers = [];
    for (let n = 0; n < 4; n += 1) {
      answers.push(await t.http.get('/v1/projects').set('Authorization', user.auth));
    }
    expect(answers.map((a) => a.status)).toEqual([200, 200, 200, 429]);
    expect(answers[0].headers['x-ratelimit-limit']).toBe('3');
  });

  it('shows the plan, its limits and the usage; an expired plan falls back to the default plan', async () => {
    const clock = t.app.get(Clock);
    const ends = new Date(Date.now() + 60_000);
    const user = await userOn({ qr_codes_limit: 10, links_limit: -1 }, ends);
    const planId = (await plans.effective(user.id)).planId;
    const me = await t.http.get('/v1/user').set('Authorization', user.auth);
    expect(me.status).toBe(200);
    expect(me.body.data).toEqual({
      id: user.id,
      email: user.email,
      name: expect.any(String),
      is_admin: false,
      timezone: 'UTC',
      plan_id: planId,
      plan_expiration_date: ends.toISOString().slice(0, 19).replace('T', ' '),
      plan_settings: {
        links_limit: -1,
        biolink_blocks_limit: -1,
        qr_codes_limit: 10,
        domains_limit: -1,
        projects_limit: -1,
        splash_pages_limit: -1,
        signatures_limit: -1,
        notification_handlers_limit: -1,
        team_members_limit: -1,
        static_storage_bytes: -1,
        api_rate_limit: -1,
        statistics_retention_days: -1,
      },
      usage: {
        links: { used: 0, limit: -1 },
        biolink_blocks: { used: 0, limit: -1 },
        qr_codes: { used: 0, limit: 10 },
        domains: { used: 0, limit: -1 },
        projects: { used: 0, limit: -1 },
        splash_pages: { used: 0, limit: -1 },
        signatures: { used: 0, limit: -1 },
        notification_handlers: { used: 0, limit: -1 },
        team_members: { used: 0, limit: -1 },
        static_storage_bytes: { used: 0, limit: -1 },
      },
      last_datetime: null,
      datetime: expect.any(String),
    });
    for (let n = 0; n < 4; n += 1) {
      const qr = await post(user, '/v1/qr-codes', { name: `Q${n}`, type: 'text', text: `q${n}` });
      expect(qr.status).toBe(201);
    }
    // Two minutes later the plan has ended: the default plan allows 3 QR codes, and the 4 stay.
    jest.spyOn(clock, 'now').mockReturnValue(new Date(Date.now() + 120_000));
    try {
      const after = await t.http.get('/v1/user').set('Authorization', user.auth);
      expect(after.body.data).toMatchObject({
        plan_id: free,
        plan_expiration_date: null,
        usage: { qr_codes: { used: 4, limit: 3 }, links: { used: 0, limit: 1000 } },
      });
      const refused = await post(user, '/v1/qr-codes', { name: 'Q5', type: 'text', text: 'q5' });
      expect(refused.status).toBe(403);
      expect(refused.body).toEqual(refusal('Your plan allows 3 QR codes; you have 4.'));
      const list = await t.http.get('/v1/qr-codes').set('Authorization', user.auth);
      expect(list.body.meta.total).toBe(4);
    } finally {
      jest.restoreAllMocks();
    }
  });

  it('shows statistics back to the plan’s retention only', async () => {
    const user = await userOn({ statistics_retention_days: 7 });
    const day = (ago: number) => new Date(Date.now() - ago * 86_400_000).toISOString().slice(0, 10);
    const res = await t.http
      .get(`/v1/statistics/?start_date=${day(30)}&end_date=${day(0)}`)
      .set('Authorization', user.auth);
    expect(res.status).toBe(200);
    const dates = (res.body.data as Array<{ formatted_date: string }>).map((r) => r.formatted_date);
    expect(dates).toEqual(Array.from({ length: 7 }, (_, i) => day(6 - i)));
    const old = await t.http
      .get(`/v1/statistics/?start_date=${day(30)}&end_date=${day(20)}`)
      .set('Authorization', user.auth);
    expect(old.status).toBe(403);
    expect(old.body).toEqual(
      refusal(`Your plan keeps statistics for 7 days: the earliest day you can see is ${day(6)}.`),
    );
  });

  it('leaves an install without plans unlimited', async () => {
    const bare = opened.add(await createTestApp());
    const user = await bare.createUser();
    const me = await bare.http.get('/v1/user').set('Authorization', user.auth);
    expect(me.body.data).toMatchObject({ plan_id: null, plan_expiration_date: null });
    expect(Object.values(me.body.data.plan_settings as Record<string, number>)).toEqual(
      Array<number>(12).fill(-1),
    );
  });
});
