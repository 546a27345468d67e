import { createECDH, randomBytes } from 'node:crypto';
import { PaymentsRecorder } from '@app/billing';
import { DatumEntity, Db, Outbox } from '@app/database';
import {
  closeAfterAll,
  createTestApp,
  startTestDnsServer,
  TestApp,
  TestDnsServer,
  TestUser,
} from '@app/testing';
import { buildOpenApiDocument } from '../apps/api/src/openapi';
import { EventDispatcher } from '../apps/worker/src/dispatch/event-dispatcher';

/**
 * The team-access matrix: every operation of the OpenAPI document has one expectation below, and
 * every expectation names an operation that exists. A new route cannot be added without deciding
 * here whether team members may call it, and with which flag.
 */

type Flag = 'read' | 'create' | 'update' | 'delete';
type Method = 'get' | 'post' | 'delete';

interface Call {
  method: Method;
  path: string;
  body?: Record<string, unknown>;
}

/** Builds the request, creating what it needs in `user`'s workspace (without team context). */
type Build = (fx: Fixtures, user: TestUser) => Promise<Call>;

type Expectation =
  | { kind: 'flag'; flag: Flag; status: number; build: Build; readBack?: (id: number) => string }
  | { kind: 'owner-only'; status: number; build: Build }
  | { kind: 'public'; status: number; build: Build };

const get = (path: string): Call => ({ method: 'get', path });
const post = (path: string, body: Record<string, unknown> = {}): Call => ({
  method: 'post',
  path,
  body,
});
const del = (path: string): Call => ({ method: 'delete', path });

const read = (build: Build): Expectation => ({ kind: 'flag', flag: 'read', status: 200, build });
const create = (build: Build, readBack: (id: number) => string): Expectation => ({
  kind: 'flag',
  flag: 'create',
  status: 201,
  build,
  readBack,
});
const update = (build: Build): Expectation => ({
  kind: 'flag',
  flag: 'update',
  status: 200,
  build,
});
const remove = (build: Build): Expectation => ({
  kind: 'flag',
  flag: 'delete',
  status: 200,
  build,
});
const ownerOnly = (status: number, build: Build): Expectation => ({
  kind: 'owner-only',
  status,
  build,
});
const publicRoute = (status: number, build: Build): Expectation => ({
  kind: 'public',
  status,
  build,
});

/** One line per operation of the API. */
const EXPECTATIONS: Record<string, Expectation> = {
  // Outside /v1, without an API key: the operations' own answers whatever X-Team-Id says. This
  // app sets no METRICS_TOKEN and no processor's webhook secret, so those routes answer 404.
  'GET /health': publicRoute(200, () => Promise.resolve(get('/health'))),
  'GET /metrics': publicRoute(404, () => Promise.resolve(get('/metrics'))),
  'POST /webhooks/stripe': publicRoute(404, () => Promise.resolve(post('/webhooks/stripe'))),
  'POST /webhooks/paddle': publicRoute(404, () => Promise.resolve(post('/webhooks/paddle'))),
  'POST /webhooks/lemonsqueezy': publicRoute(404, () =>
    Promise.resolve(post('/webhooks/lemonsqueezy')),
  ),
  'GET /v1/user': ownerOnly(200, () => Promise.resolve(get('/v1/user'))),
  'GET /v1/api-keys': ownerOnly(200, () => Promise.resolve(get('/v1/api-keys'))),
  'GET /v1/logs': ownerOnly(200, () => Promise.resolve(get('/v1/logs'))),
  'GET /v1/payments': ownerOnly(200, () => Promise.resolve(get('/v1/payments'))),
  // The owner has no payment 999999: a 404 for the owner, a 403 through any team.
  'GET /v1/payments/{id}': ownerOnly(404, () => Promise.resolve(get('/v1/payments/999999'))),
  'POST /v1/api-keys': ownerOnly(201, () =>
    Promise.resolve(post('/v1/api-keys', { name: 'Made directly', scope: 'read' })),
  ),
  'DELETE /v1/api-keys/{id}': ownerOnly(200, async (fx, u) =>
    del(`/v1/api-keys/${await fx.apiKey(u)}`),
  ),

  'GET /v1/projects': read(() => Promise.resolve(get('/v1/projects'))),
  'POST /v1/projects': create(
    () => Promise.resolve(post('/v1/projects', { name: 'Made in team' })),
    (id) => `/v1/projects/${id}`,
  ),
  'GET /v1/projects/{id}': read(async (fx, u) => get(`/v1/projects/${await fx.project(u)}`)),
  'POST /v1/projects/{id}': update(async (fx, u) =>
    post(`/v1/projects/${await fx.project(u)}`, { name: 'Renamed' }),
  ),
  'DELETE /v1/projects/{id}': remove(async (fx, u) => del(`/v1/projects/${await fx.project(u)}`)),

  'GET /v1/links': read(() => Promise.resolve(get('/v1/links'))),
  'POST /v1/links': create(
    () => Promise.resolve(post('/v1/links', { location_url: 'https://example.com/made' })),
    (id) => `/v1/links/${id}`,
  ),
  'GET /v1/links/{id}': read(async (fx, u) => get(`/v1/links/${await fx.link(u)}`)),
  'GET /v1/links/export': read(() => Promise.resolve(get('/v1/links/export?format=json'))),
  // The answer is a list of links, not one id: no read-back.
  'POST /v1/links/bulk': {
    kind: 'flag',
    flag: 'create',
    status: 201,
    build: () =>
      Promise.resolve(
        post('/v1/links/bulk', { is_bulk: 1, location_urls: 'https://example.com/b' }),
      ),
  },
  'POST /v1/links/{id}': update(async (fx, u) =>
    post(`/v1/links/${await fx.link(u)}`, { location_url: 'https://example.com/changed' }),
  ),
  'DELETE /v1/links/{id}': remove(async (fx, u) => del(`/v1/links/${await fx.link(u)}`)),

  'GET /v1/statistics': read(() => Promise.resolve(get('/v1/statistics'))),
  'GET /v1/statistics/{id}': read(async (fx, u) => get(`/v1/statistics/${await fx.link(u)}`)),

  'GET /v1/domains': read(() => Promise.resolve(get('/v1/domains'))),
  'POST /v1/domains': create(
    (fx) => Promise.resolve(post('/v1/domains', { host: fx.host() })),
    (id) => `/v1/domains/${id}`,
  ),
  'GET /v1/domains/tls-check': publicRoute(200, async (fx, u) =>
    get(`/v1/domains/tls-check?domain=${await fx.enabledDomainHost(u)}`),
  ),
  'GET /v1/domains/{id}': read(async (fx, u) => get(`/v1/domains/${await fx.domain(u)}`)),
  'POST /v1/domains/{id}': update(async (fx, u) =>
    post(`/v1/domains/${await fx.domain(u)}`, { custom_index_url: 'https://example.com/' }),
  ),
  'DELETE /v1/domains/{id}': remove(async (fx, u) => del(`/v1/domains/${await fx.domain(u)}`)),
  'POST /v1/domains/{id}/verify': update(async (fx, u) =>
    post(`/v1/domains/${await fx.publishedDomain(u)}/verify`),
  ),

  'GET /v1/signatures': read(() => Promise.resolve(get('/v1/signatures'))),
  'POST /v1/signatures': create(
    () => Promise.resolve(post('/v1/signatures', { name: 'Made in team' })),
    (id) => `/v1/signatures/${id}`,
  ),
  'GET /v1/signatures/{id}': read(async (fx, u) => get(`/v1/signatures/${await fx.signature(u)}`)),
  'GET /v1/signatures/{id}/html': read(async (fx, u) =>
    get(`/v1/signatures/${await fx.signature(u)}/html`),
  ),
  'POST /v1/signatures/{id}': update(async (fx, u) =>
    post(`/v1/signatures/${await fx.signature(u)}`, { name: 'Changed' }),
  ),
  'DELETE /v1/signatures/{id}': remove(async (fx, u) =>
    del(`/v1/signatures/${await fx.signature(u)}`),
  ),

  'GET /v1/notification-handlers': read(() => Promise.resolve(get('/v1/notification-handlers'))),
  'POST /v1/notification-handlers': create(
    () =>
      Promise.resolve(
        post('/v1/notification-handlers', {
          name: 'Made in team',
          type: 'email',
          email: 'team@example.com',
        }),
      ),
    (id) => `/v1/notification-handlers/${id}`,
  ),
  'GET /v1/notification-handlers/{id}': read(async (fx, u) =>
    get(`/v1/notification-handlers/${await fx.handler(u)}`),
  ),
  'POST /v1/notification-handlers/{id}': update(async (fx, u) =>
    post(`/v1/notification-handlers/${await fx.handler(u)}`, { name: 'Changed' }),
  ),
  // A loopback target is refused by the SSRF guard at once: a 200 with ok false, no waiting.
  'POST /v1/notification-handlers/{id}/test': update(async (fx, u) =>
    post(`/v1/notification-handlers/${await fx.handler(u)}/test`),
  ),
  'GET /v1/notification-handlers/{id}/deliveries': read(async (fx, u) =>
    get(`/v1/notification-handlers/${await fx.handler(u)}/deliveries`),
  ),
  'POST /v1/notification-handlers/{id}/deliveries/{delivery_id}/retry': update(async (fx, u) => {
    const { handlerId, deliveryId } = await fx.delivery(u);
    return post(`/v1/notification-handlers/${handlerId}/deliveries/${deliveryId}/retry`);
  }),
  'DELETE /v1/notification-handlers/{id}': remove(async (fx, u) =>
    del(`/v1/notification-handlers/${await fx.handler(u)}`),
  ),

  'GET /v1/push-subscribers': read(() => Promise.resolve(get('/v1/push-subscribers'))),
  'GET /v1/push-subscribers/vapid-public-key': read(() =>
    Promise.resolve(get('/v1/push-subscribers/vapid-public-key')),
  ),
  'POST /v1/push-subscribers': create(
    () => Promise.resolve(post('/v1/push-subscribers', pushSubscription())),
    (id) => `/v1/push-subscribers/${id}`,
  ),
  'GET /v1/push-subscribers/{id}': read(async (fx, u) =>
    get(`/v1/push-subscribers/${await fx.pushSubscriber(u)}`),
  ),
  'DELETE /v1/push-subscribers/{id}': remove(async (fx, u) =>
    del(`/v1/push-subscribers/${await fx.pushSubscriber(u)}`),
  ),

  'GET /v1/biolink-blocks': read(() => Promise.resolve(get('/v1/biolink-blocks'))),
  'POST /v1/biolink-blocks': create(
    async (fx, u) =>
      post('/v1/biolink-blocks', { link_id: await fx.bioPage(u), type: 'heading', text: 'Hi' }),
    (id) => `/v1/biolink-blocks/${id}`,
  ),
  'GET /v1/biolink-blocks/{id}': read(async (fx, u) =>
    get(`/v1/biolink-blocks/${await fx.block(u)}`),
  ),
  'POST /v1/biolink-blocks/{id}': update(async (fx, u) =>
    post(`/v1/biolink-blocks/${await fx.block(u)}`, { text: 'Changed' }),
  ),
  'DELETE /v1/biolink-blocks/{id}': remove(async (fx, u) =>
    del(`/v1/biolink-blocks/${await fx.block(u)}`),
  ),

  'GET /v1/data': read(() => Promise.resolve(get('/v1/data'))),
  'GET /v1/data/export': read(() => Promise.resolve(get('/v1/data/export?format=json'))),
  'GET /v1/data/{id}': read(async (fx, u) => get(`/v1/data/${await fx.datum(u)}`)),
  'DELETE /v1/data/{id}': remove(async (fx, u) => del(`/v1/data/${await fx.datum(u)}`)),

  'GET /v1/qr-codes': read(() => Promise.resolve(get('/v1/qr-codes'))),
  'POST /v1/qr-codes': create(
    () =>
      Promise.resolve(
        post('/v1/qr-codes', { name: 'Made in team', type: 'text', text: 'Hello team' }),
      ),
    (id) => `/v1/qr-codes/${id}`,
  ),
  'GET /v1/qr-codes/{id}': read(async (fx, u) => get(`/v1/qr-codes/${await fx.qrCode(u)}`)),
  'POST /v1/qr-codes/{id}': update(async (fx, u) =>
    post(`/v1/qr-codes/${await fx.qrCode(u)}`, { name: 'Changed' }),
  ),
  'DELETE /v1/qr-codes/{id}': remove(async (fx, u) => del(`/v1/qr-codes/${await fx.qrCode(u)}`)),

  'GET /v1/splash-pages': read(() => Promise.resolve(get('/v1/splash-pages'))),
  'POST /v1/splash-pages': create(
    () => Promise.resolve(post('/v1/splash-pages', { name: 'Made in team' })),
    (id) => `/v1/splash-pages/${id}`,
  ),
  'GET /v1/splash-pages/{id}': read(async (fx, u) =>
    get(`/v1/splash-pages/${await fx.splashPage(u)}`),
  ),
  'POST /v1/splash-pages/{id}': update(async (fx, u) =>
    post(`/v1/splash-pages/${await fx.splashPage(u)}`, { name: 'Changed' }),
  ),
  'DELETE /v1/splash-pages/{id}': remove(async (fx, u) =>
    del(`/v1/splash-pages/${await fx.splashPage(u)}`),
  ),

  'GET /v1/teams': ownerOnly(200, () => Promise.resolve(get('/v1/teams'))),
  'POST /v1/teams': ownerOnly(201, () => Promise.resolve(post('/v1/teams', { name: 'New' }))),
  'GET /v1/teams/{id}': ownerOnly(200, async (fx, u) => get(`/v1/teams/${await fx.team(u)}`)),
  'POST /v1/teams/{id}': ownerOnly(200, async (fx, u) =>
    post(`/v1/teams/${await fx.team(u)}`, { name: 'Renamed' }),
  ),
  'DELETE /v1/teams/{id}': ownerOnly(200, async (fx, u) => del(`/v1/teams/${await fx.team(u)}`)),
  'GET /v1/team-members/{id}': ownerOnly(200, async (fx, u) =>
    get(`/v1/team-members/${await fx.team(u)}`),
  ),
  'POST /v1/team-members': ownerOnly(201, async (fx, u) =>
    post('/v1/team-members', { team_id: await fx.team(u), user_email: fx.email() }),
  ),
  'POST /v1/team-members/{id}': ownerOnly(200, async (fx, u) =>
    post(`/v1/team-members/${await fx.invitationFrom(u)}`, { access: ['create'] }),
  ),
  'DELETE /v1/team-members/{id}': ownerOnly(200, async (fx, u) =>
    del(`/v1/team-members/${await fx.invitationFrom(u)}`),
  ),
  'GET /v1/teams-member': ownerOnly(200, () => Promise.resolve(get('/v1/teams-member'))),
  'GET /v1/teams-member/{id}': ownerOnly(200, async (fx, u) =>
    get(`/v1/teams-member/${await fx.invitationTo(u)}`),
  ),
  'POST /v1/teams-member/{id}': ownerOnly(200, async (fx, u) =>
    post(`/v1/teams-member/${await fx.invitationTo(u)}`, { status: 1 }),
  ),
  'DELETE /v1/teams-member/{id}': ownerOnly(200, async (fx, u) =>
    del(`/v1/teams-member/${await fx.invitationTo(u)}`),
  ),
};

/** A browser's PushSubscription with a fresh P-256 key and endpoint. */
function pushSubscription(): Record<string, unknown> {
  const ecdh = createECDH('prime256v1');
  ecdh.generateKeys();
  return {
    endpoint: `https://push.example.com/send/${randomBytes(8).toString('hex')}`,
    keys: {
      p256dh: ecdh.getPublicKey().toString('base64url'),
      auth: randomBytes(16).toString('base64url'),
    },
  };
}

/** Creates resources through the API, as a user acting in its own workspace. */
class Fixtures {
  private counter = 0;

  constructor(
    private readonly t: TestApp,
    private readonly dns: TestDnsServer,
    /** Someone who invites, for routes that need an invitation addressed to the caller. */
    private readonly inviter: () => TestUser,
  ) {}

  host(): string {
    this.counter += 1;
    return `d${this.counter}.matrix.example.com`;
  }

  email(): string {
    this.counter += 1;
    return `invitee${this.counter}@example.com`;
  }

  project(user: TestUser): Promise<number> {
    return this.create(user, '/v1/projects', { name: 'Fixture' });
  }

  link(user: TestUser): Promise<number> {
    return this.create(user, '/v1/links', { location_url: 'https://example.com/fixture' });
  }

  domain(user: TestUser): Promise<number> {
    return this.create(user, '/v1/domains', { host: this.host() });
  }

  qrCode(user: TestUser): Promise<number> {
    return this.create(user, '/v1/qr-codes', { name: 'Fixture', type: 'text', text: 'Fixture' });
  }

  splashPage(user: TestUser): Promise<number> {
    return this.create(user, '/v1/splash-pages', { name: 'Fixture' });
  }

  signature(user: TestUser): Promise<number> {
    return this.create(user, '/v1/signatures', { name: 'Fixture' });
  }

  handler(user: TestUser): Promise<number> {
    return this.create(user, '/v1/notification-handlers', {
      name: 'Fixture',
      type: 'webhook',
      webhook: 'http://127.0.0.1:9/hook',
    });
  }

  /** A handler with one delivery (an event written to the outbox for it, then fanned out). */
  async delivery(user: TestUser): Promise<{ handlerId: number; deliveryId: number }> {
    const handlerId = await this.create(user, '/v1/notification-handlers', {
      name: 'Fixture',
      type: 'webhook',
      webhook: 'http://127.0.0.1:9/hook',
      events: [],
    });
    const db = this.t.app.get(Db);
    await db.write(() =>
      this.t.app
        .get(Outbox)
        .write(
          [{ event: 'link.expired', ownerId: user.id, data: {}, handlerIds: [handlerId] }],
          new Date(),
        ),
    );
    await this.t.app.get(EventDispatcher).drain();
    const [row] = await this.t.dataSource.query<{ id: number }[]>(
      `SELECT "id" FROM "deliveries" WHERE "handler_id" = ${handlerId}`,
    );
    return { handlerId, deliveryId: Number(row.id) };
  }

  pushSubscriber(user: TestUser): Promise<number> {
    return this.create(user, '/v1/push-subscribers', pushSubscription());
  }

  bioPage(user: TestUser): Promise<number> {
    return this.create(user, '/v1/links', { type: 'biolink' });
  }

  async block(user: TestUser): Promise<number> {
    const link = await this.bioPage(user);
    return this.create(user, '/v1/biolink-blocks', { link_id: link, type: 'heading', text: 'x' });
  }

  /** A collected data record, written as a visitor's form would leave it. */
  async datum(user: TestUser): Promise<number> {
    const block = await this.block(user);
    const saved = await this.t.dataSource.getRepository(DatumEntity).save({
      user_id: user.id,
      biolink_block_id: block,
      link_id: 0,
      project_id: null,
      type: 'email_collector',
      data: JSON.stringify({ email: 'lead@example.com', name: 'Lead' }),
      email: 'lead@example.com',
      name: 'Lead',
      phone: null,
      slot_start: null,
      datetime: new Date(),
    });
    return saved.id;
  }

  apiKey(user: TestUser): Promise<number> {
    return this.create(user, '/v1/api-keys', { name: 'Fixture', scope: 'read' });
  }

  team(user: TestUser): Promise<number> {
    return this.create(user, '/v1/teams', { name: 'Fixture team' });
  }

  /** A domain whose verification record is published, so verify succeeds. */
  async publishedDomain(user: TestUser): Promise<number> {
    const id = await this.domain(user);
    const res = await this.t.http.get(`/v1/domains/${id}`).set('Authorization', user.auth);
    const { verification } = res.body.data as { verification: { name: string; value: string } };
    this.dns.records.set(verification.name, [verification.value]);
    return id;
  }

  async enabledDomainHost(user: TestUser): Promise<string> {
    const id = await this.publishedDomain(user);
    const res = await this.t.http.post(`/v1/domains/${id}/verify`).set('Authorization', user.auth);
    expect(res.status).toBe(200);
    return (res.body.data as { host: string }).host;
  }

  /** A membership of one of `user`'s teams (the owner side). */
  async invitationFrom(user: TestUser): Promise<number> {
    const team = await this.team(user);
    return this.create(user, '/v1/team-members', { team_id: team, user_email: this.email() });
  }

  /** An invitation addressed to `user` (the invitee side). */
  async invitationTo(user: TestUser): Promise<number> {
    const inviter = this.inviter();
    const team = await this.team(inviter);
    return this.create(inviter, '/v1/team-members', { team_id: team, user_email: user.email });
  }

  private async create(user: TestUser, path: string, body: Record<string, unknown>) {
    const res = await this.t.http.post(path).set('Authorization', user.auth).send(body);
    expect([path, res.status]).toEqual([path, 201]);
    return (res.body as { data: { id: number } }).data.id;
  }
}

const FLAGS: Flag[] = ['read', 'create', 'update', 'delete'];

describe('Team access matrix', () => {
  let t: TestApp;
  let dns: TestDnsServer;
  let fx: Fixtures;
  let owner: TestUser;
  let teamId: number;
  let stranger: TestUser;
  let invited: TestUser;
  let full: TestUser;
  const opened = closeAfterAll();
  /** A member whose only flag besides read is the key (read: read only). */
  const only = {} as Record<Flag, TestUser>;
  /** A member with every flag but the key. */
  const allBut = {} as Record<Exclude<Flag, 'read'>, TestUser>;

  async function member(flags: Flag[], accept = true): Promise<TestUser> {
    const user = await t.createUser();
    const res = await t.http
      .post('/v1/team-members')
      .set('Authorization', owner.auth)
      .send({ team_id: teamId, user_email: user.email, access: flags });
    expect(res.status).toBe(201);
    if (accept) {
      const accepted = await t.http
        .post(`/v1/teams-member/${res.body.data.id}`)
        .set('Authorization', user.auth)
        .send({ status: 1 });
      expect(accepted.status).toBe(200);
    }
    return user;
  }

  beforeAll(async () => {
    dns = opened.add(await startTestDnsServer());
    t = opened.add(
      await createTestApp({ env: { DNS_SERVERS: dns.address, API_RATE_LIMIT: '1000000' } }),
    );
    owner = await t.createUser();
    stranger = await t.createUser();
    const team = await t.http
      .post('/v1/teams')
      .set('Authorization', owner.auth)
      .send({ name: 'Matrix' });
    teamId = team.body.data.id;
    fx = new Fixtures(t, dns, () => stranger);
    only.read = await member([]);
    for (const flag of ['create', 'update', 'delete'] as const) {
      only[flag] = await member([flag]);
      allBut[flag] = await member(FLAGS.filter((f) => f !== flag));
    }
    full = await member(FLAGS);
    invited = await member(FLAGS, false);
  });

  async function send(call: Call, user: TestUser | null, team?: number | string) {
    let req = t.http[call.method](call.path);
    if (user) {
      req = req.set('Authorization', user.auth);
    }
    if (team !== undefined) {
      req = req.set('X-Team-Id', String(team));
    }
    return call.body ? req.send(call.body) : req;
  }

  const TEAM_NOT_FOUND = {
    errors: [
      {
        status: 404,
        title: 'The team you are looking for does not exist.',
        code: 'team_not_found',
      },
    ],
  };
  const NOT_THROUGH_TEAM = {
    errors: [
      {
        status: 403,
        title:
          'This operation cannot be done through a team: send it without the X-Team-Id header.',
        code: 'forbidden',
      },
    ],
  };
  const missingFlag = (flag: Flag) => ({
    errors: [
      {
        status: 403,
        title: `Your membership of this team does not grant the ${flag} access this operation needs.`,
        code: 'forbidden',
      },
    ],
  });

  it('has exactly one expectation per operation of the OpenAPI document', () => {
    const doc = buildOpenApiDocument(t.app);
    const operations = Object.entries(doc.paths).flatMap(([path, item]) =>
      Object.keys(item as object).map((method) => `${method.toUpperCase()} ${path}`),
    );
    expect(operations.sort()).toEqual(Object.keys(EXPECTATIONS).sort());
  });

  it('documents X-Team-Id and 403 on every operation a team member may call', () => {
    const doc = buildOpenApiDocument(t.app);
    for (const [key, expectation] of Object.entries(EXPECTATIONS)) {
      const [method, path] = key.split(' ');
      const op = doc.paths[path][method.toLowerCase() as Method]!;
      const headers = (op.parameters ?? [])
        .map((p) => ('name' in p ? p.name : ''))
        .filter((name) => name === 'X-Team-Id');
      expect([key, headers]).toEqual([key, expectation.kind === 'flag' ? ['X-Team-Id'] : []]);
      if (expectation.kind !== 'public') {
        expect([key, Object.keys(op.responses)]).toEqual([key, expect.arrayContaining(['403'])]);
      }
    }
  });

  const flagRoutes = Object.entries(EXPECTATIONS).filter(([, e]) => e.kind === 'flag');

  it.each(flagRoutes)('%s: the flag decides for members; owners pass', async (key, e) => {
    if (e.kind !== 'flag') {
      throw new Error('not a flag route');
    }
    const expectCall = async (
      actor: string,
      user: TestUser,
      team: number | undefined,
      status: number,
      body?: unknown,
    ) => {
      const call = await e.build(fx, owner);
      const res = await send(call, user, team);
      expect({ key, actor, status: res.status, ...(body ? { body: res.body } : {}) }).toEqual({
        key,
        actor,
        status,
        ...(body ? { body } : {}),
      });
      if (status !== e.status) {
        // A refused call changed nothing: the owner can still make it.
        const replay = await send(call, owner);
        expect({ key, actor, replay: replay.status }).toEqual({ key, actor, replay: e.status });
      }
      return res;
    };

    await expectCall('owner', owner, undefined, e.status);
    await expectCall('owner with its own team', owner, teamId, e.status);
    const granted = await expectCall(`member with ${e.flag}`, only[e.flag], teamId, e.status);
    if (e.readBack) {
      // Created in the owner's workspace, not the member's.
      const path = e.readBack(granted.body.data.id);
      const mine = await send(get(path), owner);
      const theirs = await send(get(path), only[e.flag]);
      expect({ key, owner: mine.status, member: theirs.status }).toEqual({
        key,
        owner: 200,
        member: 404,
      });
    }
    if (e.flag !== 'read') {
      await expectCall(
        `member without ${e.flag}`,
        allBut[e.flag],
        teamId,
        403,
        missingFlag(e.flag),
      );
    }
    await expectCall('invited, not accepted', invited, teamId, 404, TEAM_NOT_FOUND);
    await expectCall('stranger', stranger, teamId, 404, TEAM_NOT_FOUND);
  });

  const ownerOnlyRoutes = Object.entries(EXPECTATIONS).filter(([, e]) => e.kind === 'owner-only');

  it.each(ownerOnlyRoutes)('%s: never through a team', async (key, e) => {
    const call = await e.build(fx, full);
    const refused = await send(call, full, teamId);
    expect({ key, status: refused.status, body: refused.body }).toEqual({
      key,
      status: 403,
      body: NOT_THROUGH_TEAM,
    });
    const direct = await send(call, full);
    expect({ key, status: direct.status }).toEqual({ key, status: e.status });
  });

  const publicRoutes = Object.entries(EXPECTATIONS).filter(([, e]) => e.kind === 'public');

  it.each(publicRoutes)('%s: public, X-Team-Id is ignored', async (key, e) => {
    const call = await e.build(fx, owner);
    for (const team of [undefined, teamId, 'not-a-team']) {
      const res = await send(call, null, team);
      expect({ key, team, status: res.status }).toEqual({ key, team, status: e.status });
    }
  });

  it('lists the owner workspace to a reading member', async () => {
    const project = await fx.project(owner);
    await fx.project(only.read);
    const res = await send(get('/v1/projects?results_per_page=1000'), only.read, teamId);
    const owned = await send(get('/v1/projects?results_per_page=1000'), owner);
    expect(res.status).toBe(200);
    expect(res.body.data).toEqual(owned.body.data);
    expect(res.body.data.map((p: { id: number }) => p.id)).toContain(project);
  });

  describe('account events (payment.*, team_member.*) and handlers made through the team', () => {
    const ACCOUNT_EVENTS_REFUSED = {
      errors: [
        {
          status: 400,
          title:
            'A notification handler created through a team cannot receive account events: payment.created, team_member.invited.',
          field: 'events',
          code: 'validation_failed',
        },
      ],
    };
    const TEAM_EVENTS = [
      'data.created',
      'link.created',
      'link.updated',
      'link.deleted',
      'link.clicks_limit_reached',
      'link.expired',
      'link.destination_broken',
      'link.destination_recovered',
      'domain.verified',
      'domain.disabled',
    ];

    async function makeHandler(user: TestUser, team?: number, events?: string[]) {
      const res = await send(
        post('/v1/notification-handlers', {
          name: team === undefined ? 'Owner hook' : 'Member hook',
          type: 'webhook',
          webhook: 'http://127.0.0.1:9/hook',
          ...(events === undefined ? {} : { events }),
        }),
        user,
        team,
      );
      expect(res.status).toBe(201);
      return res.body.data.id as number;
    }

    async function deliveryEvents(id: number, user: TestUser, team?: number) {
      const res = await send(get(`/v1/notification-handlers/${id}/deliveries`), user, team);
      expect(res.status).toBe(200);
      return (res.body.data as { event: string }[]).map((d) => d.event);
    }

    it("a member's handler gets none of the owner's payments; the owner's own handler does", async () => {
      const mine = await makeHandler(owner);
      const theirs = await makeHandler(only.create, teamId);

      const payments = await send(get('/v1/payments'), only.create, teamId);
      expect({ status: payments.status, body: payments.body }).toEqual({
        status: 403,
        body: NOT_THROUGH_TEAM,
      });
      await t.app.get(PaymentsRecorder).record({
        processor: 'stripe',
        paymentId: `pi_team_${randomBytes(4).toString('hex')}`,
        userId: owner.id,
        email: owner.email,
        name: null,
        planId: null,
        type: 'one_time',
        frequency: 'lifetime',
        currency: 'EUR',
        baseAmount: 900,
        discountAmount: 0,
        totalAmount: 900,
        code: null,
      });
      await fx.invitationFrom(owner);
      await t.app.get(EventDispatcher).drain();

      expect(await deliveryEvents(mine, owner)).toEqual(
        expect.arrayContaining(['payment.created', 'team_member.invited']),
      );
      expect(await deliveryEvents(theirs, only.read, teamId)).toEqual([]);
      const rows = await t.dataSource.query<{ n: number | string }[]>(
        `SELECT COUNT(*) AS "n" FROM "deliveries" WHERE "handler_id" = ${theirs}`,
      );
      expect(Number(rows[0].n)).toBe(0);

      // The default subscription of a handler made through the team leaves account events out.
      const shown = await send(get(`/v1/notification-handlers/${theirs}`), only.read, teamId);
      expect(shown.status).toBe(200);
      expect(shown.body.data.events).toEqual(TEAM_EVENTS);
      expect(shown.body.data.team_id).toBe(teamId);
      const own = await send(get(`/v1/notification-handlers/${mine}`), owner);
      expect(own.body.data.team_id).toBeNull();
    });

    it("a member who re-targets the owner's handler makes it the team's: no account events from then on", async () => {
      const renamed = await makeHandler(owner);
      const retargeted = await makeHandler(owner);
      const rename = await send(
        post(`/v1/notification-handlers/${renamed}`, { name: 'Renamed by a member' }),
        only.update,
        teamId,
      );
      expect(rename.status).toBe(200);
      const move = await send(
        post(`/v1/notification-handlers/${retargeted}`, { webhook: 'http://127.0.0.1:9/member' }),
        only.update,
        teamId,
      );
      expect({ status: move.status, body: move.body }).toEqual({
        status: 200,
        body: { data: { id: retargeted } },
      });
      const moved = await send(get(`/v1/notification-handlers/${retargeted}`), owner);
      expect([moved.body.data.team_id, moved.body.data.events]).toEqual([teamId, TEAM_EVENTS]);
      const kept = await send(get(`/v1/notification-handlers/${renamed}`), owner);
      expect(kept.body.data.team_id).toBeNull();

      await fx.invitationFrom(owner);
      await t.app.get(EventDispatcher).drain();
      expect(await deliveryEvents(retargeted, owner)).toEqual([]);
      expect(await deliveryEvents(renamed, owner)).toEqual(['team_member.invited']);
    });

    it('refuses to subscribe a handler made through the team to account events, on create and update', async () => {
      const created = await send(
        post('/v1/notification-handlers', {
          name: 'Member hook',
          type: 'webhook',
          webhook: 'http://127.0.0.1:9/hook',
          events: ['link.created', 'payment.created', 'team_member.invited'],
        }),
        only.create,
        teamId,
      );
      expect({ status: created.status, body: created.body }).toEqual({
        status: 400,
        body: ACCOUNT_EVENTS_REFUSED,
      });

      const id = await makeHandler(only.create, teamId, ['link.created']);
      const call = post(`/v1/notification-handlers/${id}`, {
        events: ['payment.created', 'team_member.invited'],
      });
      // Neither the member nor the owner can subscribe it: it was made through the team.
      for (const [user, team] of [
        [only.update, teamId],
        [owner, undefined],
      ] as const) {
        const res = await send(call, user, team);
        expect({ status: res.status, body: res.body }).toEqual({
          status: 400,
          body: ACCOUNT_EVENTS_REFUSED,
        });
      }
      const after = await send(get(`/v1/notification-handlers/${id}`), owner);
      expect(after.body.data.events).toEqual(['link.created']);

      // The owner's own handlers may subscribe to them, through the API without X-Team-Id.
      const mine = await makeHandler(owner, undefined, ['payment.created']);
      const own = await send(get(`/v1/notification-handlers/${mine}`), owner);
      expect(own.body.data.events).toEqual(['payment.created']);
    });
  });

  it.each(['abc', '0', '-1', '1.5', '99999999999', ''])(
    'refuses the X-Team-Id value "%s" with 400',
    async (value) => {
      const res = await send(get('/v1/projects'), full, value);
      expect(res.status).toBe(400);
      expect(res.body).toEqual({
        errors: [
          {
            status: 400,
            title: 'The X-Team-Id header must be the id of a team (a positive whole number).',
            field: 'X-Team-Id',
            code: 'validation_failed',
          },
        ],
      });
    },
  );

  it('answers 404 for a team that does not exist, and 401 before any team check', async () => {
    const missing = await send(get('/v1/projects'), full, 999999);
    expect(missing.status).toBe(404);
    expect(missing.body).toEqual(TEAM_NOT_FOUND);
    const anonymous = await send(get('/v1/projects'), null, teamId);
    expect(anonymous.status).toBe(401);
  });
});
