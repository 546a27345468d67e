import { createHmac } from 'node:crypto';
import { existsSync, readdirSync, readFileSync, writeFileSync } from 'node:fs';
import { join, relative } from 'node:path';
import fc from 'fast-check';
import Stripe from 'stripe';
import { VisitRecorder } from '@app/analytics';
import {
  createTestApp,
  insertDomain,
  startTestDnsServer,
  TestApp,
  TestDnsServer,
  TestUser,
} from '@app/testing';
import {
  apiProblem,
  describeRequest,
  describeResponse,
  domainVisits,
  Failure,
  formatFailures,
  FuzzInput,
  HttpRequest,
  isSendableHeader,
  KNOWN_CASES,
  linkVisits,
  materialize,
  OpenApiDocument,
  Operation,
  operationsOf,
  Outcome,
  percentEncode,
  poolOfPath,
  Raw,
  Ref,
  requestArb,
  send,
} from '@app/testing/fuzz';

/**
 * Property-based fuzz over the OpenAPI document: every operation gets requests built from its
 * schema (mostly fitting values, so they reach deep code) mixed with hostile ones, as JSON, forms
 * and multipart. No answer may be a 5xx, every 4xx keeps the contract's error shape, and the
 * server keeps answering /health. Every integer path parameter is also tried with spellings of a
 * stored id that are not the id (`+9`, `9e0`, `09`...: 404), and the payment webhooks with signed
 * junk (200 or 400 invalid_event). Then everything the fuzz stored is visited as an anonymous
 * visitor. Replay a failure with the same FUZZ_SEED and FUZZ_RUNS (the server's state depends on
 * every earlier request, so replay the whole file). FUZZ_ONLY narrows the operations by a regular
 * expression on `METHOD /path`, FUZZ_DEBUG=1 prints every request and answer, FUZZ_REPORT=<file>
 * writes every failure as JSON. Requests slower than SLOW_MS are printed, never asserted.
 */
const SEED = Number(process.env.FUZZ_SEED ?? 14_014);
const RUNS = Number(process.env.FUZZ_RUNS ?? 80);
const ONLY = process.env.FUZZ_ONLY ? new RegExp(process.env.FUZZ_ONLY) : null;
/** Generous: an 80,000-key body takes seconds of CPU today; a request that never ends is the bug. */
const API_TIMEOUT_MS = 20_000;
const VISIT_TIMEOUT_MS = 5_000;
const SLOW_MS = 2_000;
const MAIN_HOST = 'links.test';

const COMMITTED = JSON.parse(
  readFileSync(join(__dirname, '..', 'docs', 'openapi.json'), 'utf8'),
) as OpenApiDocument;

/** Creates first, then updates (of rows created so far), lists and reads; deletes come last. */
function phase(op: Operation): number {
  const hasId = op.pathParams.length > 0;
  if (op.method === 'delete') return 4;
  if (op.method === 'post') return hasId ? 1 : 0;
  return hasId ? 3 : 2;
}
const ORDERED = operationsOf(COMMITTED)
  .filter((op) => !ONLY || ONLY.test(op.key))
  .sort((a, b) => phase(a) - phase(b));
const BEFORE_VISITS = ORDERED.filter((op) => phase(op) < 4).map((op) => op.key);
const DELETES = ORDERED.filter((op) => phase(op) === 4).map((op) => op.key);

/**
 * CONTRACT.md: a path id is `^[1-9][0-9]*$` below 2^53, anything else is 404. Spellings that
 * `Number()` reads as a stored id (`{id}` is one of the caller's own), and ids that are none.
 */
const ID_FORMS = [
  '%2B{id}',
  '{id}e0',
  '0{id}',
  '%20{id}',
  '{id}%20',
  '{id}.0',
  '{id}%00',
  '0x{id}',
  '0',
  '-1',
  '9007199254740992',
];
const ID_OPERATIONS = ORDERED.filter(
  (op) => op.pathParams.length > 0 && op.pathParams.every((p) => p.schema?.type === 'integer'),
).map((op) => op.key);

/** The payment webhooks are outside the document: signed junk is fuzzed on its own. */
const WEBHOOK_SECRETS = {
  stripe: 'whsec_fuzz_0123456789abcdef',
  paddle: 'pdl_ntfset_01fuzz_test',
  lemonsqueezy: 'lemon-fuzz-secret',
};
type Processor = keyof typeof WEBHOOK_SECRETS;

/** Each processor's own signature over `body`, timestamped now (the app runs on the real clock). */
function signedWebhook(processor: Processor, body: string): HttpRequest {
  const secret = WEBHOOK_SECRETS[processor];
  const now = Math.floor(Date.now() / 1000);
  const headers: Record<string, string> = { 'Content-Type': 'application/json' };
  if (processor === 'stripe') {
    // The stripe package's own test helper, as its docs recommend.
    headers['Stripe-Signature'] = Stripe.webhooks.generateTestHeaderString({
      payload: body,
      secret,
      timestamp: now,
    });
  } else if (processor === 'paddle') {
    // Paddle Billing: ts=…;h1=HMAC-SHA256(ts:body), as @paddle/paddle-node-sdk verifies it.
    const h1 = createHmac('sha256', secret).update(`${now}:${body}`).digest('hex');
    headers['Paddle-Signature'] = `ts=${now};h1=${h1}`;
  } else {
    headers['X-Signature'] = createHmac('sha256', secret).update(body).digest('hex');
  }
  return { method: 'post', url: `/webhooks/${processor}`, headers, body };
}

/** Amounts in every form processors never send, beside fitting ones. */
const amountArb = fc.oneof(
  fc.constantFrom(-5, 1e300, 2 ** 62, 1.5, 1e12, Number.MAX_SAFE_INTEGER, '-5', '1e300', '1.5'),
  fc.integer({ min: 0, max: 100_000 }),
  fc.string({ maxLength: 8 }),
  fc.constant(null),
);

/** Bodies that are events in part: the right envelope around junk, junk around the right amounts. */
const webhookBodyArb: fc.Arbitrary<[Processor, string]> = fc.oneof(
  fc.tuple(
    fc.constantFrom<Processor>('stripe', 'paddle', 'lemonsqueezy'),
    fc.oneof(
      fc.json({ maxDepth: 3 }),
      fc.constantFrom('{}', '[]', 'null', '"x"', '0', 'not json', '', '{"type":'),
    ),
  ),
  fc
    .record({
      type: fc.constantFrom(
        'checkout.session.completed',
        'checkout.session.async_payment_succeeded',
        'checkout.session.async_payment_failed',
        'invoice.paid',
        'invoice_payment.paid',
        'charge.refunded',
        'x',
      ),
      data: fc.oneof(
        fc.jsonValue({ maxDepth: 2 }),
        fc.record({
          object: fc.record(
            {
              id: fc.constantFrom('cs_f', 'in_f', ''),
              mode: fc.constantFrom('payment', 'subscription'),
              payment_status: fc.constantFrom('paid', 'unpaid'),
              currency: fc.constantFrom('jpy', 'eur', 'xxx', ''),
              amount_total: amountArb,
              amount_subtotal: amountArb,
              amount_paid: amountArb,
              amount_refunded: amountArb,
              refunded: fc.boolean(),
              invoice: fc.constantFrom('in_f', 7, null, { id: 'in_f' }),
              payment_intent: fc.constantFrom('pi_f', '', null, { id: 'pi_f' }, 'x'.repeat(300)),
              payment: fc.jsonValue({ maxDepth: 2 }),
              parent: fc.jsonValue({ maxDepth: 3 }),
              lines: fc.oneof(
                fc.jsonValue({ maxDepth: 3 }),
                fc.record({
                  data: fc.array(
                    fc.record(
                      {
                        amount: amountArb,
                        period: fc.record({ start: amountArb, end: amountArb }),
                        parent: fc.jsonValue({ maxDepth: 2 }),
                      },
                      { requiredKeys: [] },
                    ),
                    { maxLength: 3 },
                  ),
                }),
              ),
            },
            { requiredKeys: [] },
          ),
        }),
      ),
    })
    .map((event): [Processor, string] => ['stripe', JSON.stringify(event)]),
  fc
    .record({
      event_type: fc.constantFrom(
        'transaction.completed',
        'transaction.created',
        'adjustment.created',
        'adjustment.updated',
      ),
      data: fc.oneof(
        fc.jsonValue({ maxDepth: 2 }),
        fc.record(
          {
            id: fc.constantFrom('txn_f', 'adj_f', ''),
            action: fc.constantFrom('refund', 'credit'),
            status: fc.constantFrom('approved', 'pending_approval'),
            type: fc.constantFrom('full', 'partial'),
            transaction_id: fc.constantFrom('txn_f', '', 3),
            subscription_id: fc.constantFrom('sub_f', null, 4),
            customer_id: fc.constantFrom('ctm_f', null, {}),
            totals: fc.record({ total: amountArb }),
            currency_code: fc.constantFrom('JPY', 'EUR', 'EURO'),
            details: fc.record({
              totals: fc.record({
                subtotal: amountArb,
                discount: amountArb,
                grand_total: amountArb,
              }),
            }),
          },
          { requiredKeys: [] },
        ),
      ),
    })
    .map((event): [Processor, string] => ['paddle', JSON.stringify(event)]),
  fc
    .record({
      meta: fc.oneof(
        fc.record({
          event_name: fc.constantFrom(
            'order_created',
            'order_refunded',
            'subscription_payment_success',
            'subscription_payment_refunded',
            'x',
          ),
        }),
        fc.jsonValue({ maxDepth: 1 }),
      ),
      data: fc.oneof(
        fc.jsonValue({ maxDepth: 2 }),
        fc.record({
          id: fc.constantFrom('1', 2, ''),
          attributes: fc.record(
            {
              status: fc.constantFrom('paid', 'pending'),
              currency: fc.constantFrom('JPY', 'KWD', ''),
              subtotal: amountArb,
              total: amountArb,
              discount_total: amountArb,
              refunded: fc.boolean(),
              refunded_amount: amountArb,
              customer_id: fc.constantFrom(300, '300', null, -1, 1.5),
              subscription_id: fc.constantFrom(400, null, 'x'),
            },
            { requiredKeys: [] },
          ),
        }),
      ),
    })
    .map((event): [Processor, string] => ['lemonsqueezy', JSON.stringify(event)]),
);

/** One seed per operation, so that operations do not all get the same sequence of choices. */
function seedOf(key: string): number {
  let hash = SEED | 0;
  for (const ch of key) {
    hash = (Math.imul(hash, 31) + ch.charCodeAt(0)) | 0;
  }
  return hash;
}

/** Ids of stored rows per resource: the caller's own, and another user's. */
class Pools {
  private readonly pools = { own: new Map<string, number[]>(), other: new Map<string, number[]>() };

  add(owner: 'own' | 'other', pool: string, id: number): void {
    const list = this.pools[owner].get(pool) ?? [];
    list.push(id);
    this.pools[owner].set(pool, list);
  }

  list(owner: 'own' | 'other', pool: string): number[] {
    return this.pools[owner].get(pool) ?? [];
  }

  resolve = (ref: Ref): number => {
    const list = this.list(ref.owner, ref.pool);
    return list.length === 0 ? 999_999 : list[ref.index % list.length];
  };
}

describe(`Fuzzing the API from its OpenAPI document (FUZZ_SEED=${SEED}, FUZZ_RUNS=${RUNS})`, () => {
  let t: TestApp;
  let dns: TestDnsServer;
  let owner: TestUser;
  let other: TestUser;
  let live: Map<string, Operation>;
  let liveKeys: string[];
  const pools = new Pools();
  const all: Failure[] = [];
  const slow: string[] = [];
  const stats = { requests: 0, notSent: 0, serverErrors: 0, visits: 0 };
  /** Answers per operation and status, to see how deep the requests got. */
  const statuses: Record<string, Record<string, number>> = {};
  const startedAt = Date.now();

  async function create(user: TestUser, path: string, body: Record<string, unknown>) {
    const res = await t.http.post(path).set('Authorization', user.auth).send(body);
    expect([path, res.status, res.body]).toEqual([path, 201, expect.anything()]);
    return (res.body as { data: { id: number } }).data.id;
  }

  /** A project, splash page, domain, links, QR code, signature, handler and team per user. */
  async function fixtures(user: TestUser, side: 'own' | 'other', tag: string, invitee: TestUser) {
    const add = async (pool: string, path: string, body: Record<string, unknown>) => {
      const id = await create(user, path, body);
      pools.add(side, pool, id);
      return id;
    };
    const project = await add('projects', '/v1/projects', { name: `Fixture ${tag}` });
    const splash = await add('splash-pages', '/v1/splash-pages', { name: `Splash ${tag}` });
    await add('domains', '/v1/domains', { host: `api-${tag}.fuzz.example.com` });
    const custom = await insertDomain(t, user.id, `custom-${tag}.fuzz.example.com`);
    pools.add(side, 'domains', custom);
    await add('links', '/v1/links', { location_url: 'https://example.com/', url: `fx-${tag}` });
    await add('links', '/v1/links', {
      location_url: 'https://example.com/secret',
      url: `fx-pw-${tag}`,
      password: 'hunter2',
      project_id: project,
    });
    await add('links', '/v1/links', {
      location_url: 'https://example.com/splash',
      url: `fx-splash-${tag}`,
      splash_page_id: splash,
      sensitive_content: 1,
    });
    await add('links', '/v1/links', {
      location_url: 'https://example.com/on-domain',
      url: `fx-dom-${tag}`,
      domain_id: custom,
    });
    const site = await t.http
      .post('/v1/links')
      .set('Authorization', user.auth)
      .field('type', 'static')
      .field('name', 'Fixture site')
      .field('url', `fx-site-${tag}`)
      .attach('file', Buffer.from('<!doctype html><p>fixture site'), 'index.html');
    expect(site.status).toBe(201);
    pools.add(side, 'links', (site.body as { data: { id: number } }).data.id);
    await add('qr-codes', '/v1/qr-codes', {
      name: 'Fixture',
      type: 'url',
      url: 'https://example.com/',
    });
    await add('signatures', '/v1/signatures', { name: 'Fixture', full_name: 'Ada' });
    await add('notification-handlers', '/v1/notification-handlers', {
      name: 'Fixture',
      type: 'webhook',
      webhook: 'http://127.0.0.1:9/hook',
    });
    const team = await add('teams', '/v1/teams', { name: `Team ${tag}` });
    await add('memberships', '/v1/team-members', { team_id: team, user_email: invitee.email });
  }

  beforeAll(async () => {
    dns = await startTestDnsServer();
    t = await createTestApp({
      env: {
        DNS_SERVERS: dns.address,
        API_RATE_LIMIT: '1000000',
        NOTIFY_TIMEOUT_MS: '500',
        STRIPE_WEBHOOK_SECRET: WEBHOOK_SECRETS.stripe,
        PADDLE_WEBHOOK_SECRET: WEBHOOK_SECRETS.paddle,
        LEMONSQUEEZY_WEBHOOK_SECRET: WEBHOOK_SECRETS.lemonsqueezy,
      },
    });
    owner = await t.createUser();
    other = await t.createUser();
    await fixtures(owner, 'own', 'a', other);
    await fixtures(other, 'other', 'b', owner);
    // Invitations addressed to the caller: `other` invited `owner` above.
    const invitations = await t.http.get('/v1/teams-member').set('Authorization', owner.auth);
    for (const row of (invitations.body as { data: { id: number }[] }).data) {
      pools.add('own', 'invitations', row.id);
    }
    const served = await t.http.get('/v1/openapi.json');
    expect(served.status).toBe(200);
    const doc = served.body as OpenApiDocument;
    live = new Map(operationsOf(doc).map((op) => [op.key, op]));
    liveKeys = [...live.keys()];
  }, 120_000);

  afterAll(async () => {
    const seconds = ((Date.now() - startedAt) / 1000).toFixed(1);
    console.log(
      [
        `Fuzz (FUZZ_SEED=${SEED}, FUZZ_RUNS=${RUNS}): ${stats.requests} API requests` +
          ` (${stats.notSent} not sendable), ${stats.serverErrors} answered 5xx or not at all;` +
          ` ${stats.visits} visitor requests; ${all.length} failures; ${seconds} s.`,
        ...(slow.length > 0 ? [`Slower than ${SLOW_MS} ms:`, ...slow.map((s) => `  ${s}`)] : []),
      ].join('\n'),
    );
    if (process.env.FUZZ_REPORT) {
      writeFileSync(
        process.env.FUZZ_REPORT,
        JSON.stringify({ SEED, RUNS, stats, statuses, slow, failures: all }, null, 2),
      );
    }
    await t?.close();
    await dns?.close();
  });

  function fail(into: Failure[], failure: Failure): void {
    into.push(failure);
    all.push(failure);
  }

  function record(
    scope: string,
    req: HttpRequest,
    outcome: Outcome,
    problem: string | null,
    into: Failure[],
  ) {
    if (outcome.ms > SLOW_MS) {
      slow.push(`${outcome.ms} ms ${scope}: ${describeRequest(req, 120)}`);
    }
    if (problem) {
      fail(into, {
        scope,
        request: describeRequest(req),
        status: outcome.status,
        problem,
        response: describeResponse(outcome),
        requestId: outcome.requestId,
      });
    }
  }

  /** GET /health answers 200: recorded as a failure of `scope` otherwise. */
  async function checkHealth(scope: string, into: Failure[]): Promise<void> {
    const req: HttpRequest = { method: 'get', url: '/health', headers: {}, body: null };
    const outcome = await send(t.http, req, API_TIMEOUT_MS);
    if (outcome?.status !== 200) {
      fail(into, {
        scope,
        request: 'GET /health',
        status: outcome?.status ?? null,
        problem: `/health answered ${outcome?.status ?? 'nothing'} after the batch`,
        response: outcome ? describeResponse(outcome) : '',
        requestId: null,
      });
    }
  }

  function assertNone(failures: Failure[], what: string): void {
    if (failures.length > 0) {
      throw new Error(
        formatFailures(
          failures,
          `${failures.length} failing ${what} (replay: FUZZ_SEED=${SEED} FUZZ_RUNS=${RUNS}; set LINKDOCK_TEST_LOG_LEVEL=error for the server log):`,
        ),
      );
    }
  }

  async function exercise(op: Operation, input: FuzzInput, failures: Failure[]): Promise<void> {
    const req = materialize(op, input, pools.resolve);
    req.headers.Authorization = owner.auth;
    const outcome = await send(t.http, req, API_TIMEOUT_MS);
    if (outcome === null) {
      stats.notSent += 1;
      return;
    }
    stats.requests += 1;
    const counts = (statuses[op.key] ??= {});
    counts[String(outcome.status)] = (counts[String(outcome.status)] ?? 0) + 1;
    if (outcome.status === null || outcome.status >= 500) {
      stats.serverErrors += 1;
    }
    record(op.key, req, outcome, apiProblem(outcome), failures);
    if (process.env.FUZZ_DEBUG) {
      console.log(
        `${outcome.status} ${describeRequest(req, 200)}\n  -> ${describeResponse(outcome)}`,
      );
    }
    const id = (outcome.body as { data?: { id?: unknown } } | null)?.data?.id;
    if (outcome.status === 201 && typeof id === 'number') {
      pools.add(
        'own',
        op.key === 'POST /v1/team-members' ? 'memberships' : poolOfPath(op.path),
        id,
      );
    }
  }

  async function fuzz(key: string): Promise<void> {
    const op = live.get(key);
    if (!op) {
      throw new Error(`${key} is in docs/openapi.json but not in the served document`);
    }
    const failures: Failure[] = [];
    const examples = (KNOWN_CASES[key] ?? []).map((input): [FuzzInput] => [input]);
    await fc.assert(
      fc.asyncProperty(requestArb(op), async (input) => {
        await exercise(op, input, failures);
      }),
      // The examples count as runs: RUNS random requests come after them.
      { seed: seedOf(key), numRuns: RUNS + examples.length, examples },
    );
    await checkHealth(key, failures);
    assertNone(failures, `requests to ${key}`);
  }

  it('serves the document it fuzzes: the operations of docs/openapi.json', () => {
    expect(liveKeys.sort()).toEqual(
      operationsOf(COMMITTED)
        .map((op) => op.key)
        .sort(),
    );
  });

  it.each(BEFORE_VISITS)('%s: no 5xx, 4xx in the error shape, /health still up', fuzz, 300_000);

  it.each(ID_OPERATIONS)(
    '%s: spellings of a stored id that are not the id are a 404 in the error shape',
    async (key) => {
      const op = live.get(key);
      if (!op) {
        throw new Error(`${key} is in docs/openapi.json but not in the served document`);
      }
      const failures: Failure[] = [];
      await fc.assert(
        fc.asyncProperty(fc.constantFrom(...ID_FORMS), fc.nat(50), async (form, index) => {
          const id = pools.resolve(new Ref(poolOfPath(op.path), 'own', index));
          const raw = new Raw(form.replace('{id}', String(id)));
          const input: FuzzInput = {
            ids: op.pathParams.map(() => raw),
            query: [],
            rawQuery: [],
            team: undefined,
            body: null,
          };
          const req = materialize(op, input, pools.resolve);
          req.headers.Authorization = owner.auth;
          const outcome = await send(t.http, req, API_TIMEOUT_MS);
          if (outcome === null) return;
          stats.requests += 1;
          const problem =
            outcome.status === 404 ? apiProblem(outcome) : `status ${outcome.status}, not 404`;
          record(key, req, outcome, problem, failures);
        }),
        { seed: seedOf(`ids ${key}`), numRuns: 2 * ID_FORMS.length },
      );
      assertNone(failures, `id spellings for ${key}`);
    },
    300_000,
  );

  it('answers signed junk to the payment webhooks with 200 or 400 invalid_event, never a 5xx', async () => {
    const failures: Failure[] = [];
    await fc.assert(
      fc.asyncProperty(webhookBodyArb, async ([processor, body]) => {
        const req = signedWebhook(processor, body);
        const outcome = await send(t.http, req, API_TIMEOUT_MS);
        if (outcome === null) return;
        stats.requests += 1;
        const code = (outcome.body as { errors?: { code?: unknown }[] } | null)?.errors?.[0]?.code;
        const problem =
          apiProblem(outcome) ??
          (outcome.status === 200 || (outcome.status === 400 && code === 'invalid_event')
            ? null
            : `status ${outcome.status} ${String(code)}, not 200 or 400 invalid_event`);
        record(`webhook ${processor}`, req, outcome, problem, failures);
      }),
      { seed: seedOf('webhooks'), numRuns: Math.max(RUNS, 100) * 3 },
    );
    await checkHealth('webhooks', failures);
    assertNone(failures, 'signed webhook bodies');
  }, 300_000);

  it('serves what the fuzz stored to anonymous visitors without a 5xx', async () => {
    const failures: Failure[] = [];
    const visitOnce = async (scope: string, req: HttpRequest): Promise<void> => {
      const outcome = await send(t.http, req, VISIT_TIMEOUT_MS);
      if (outcome === null) {
        return;
      }
      stats.visits += 1;
      const problem =
        outcome.status === null
          ? `no answer (${outcome.error ?? 'unknown'})`
          : outcome.status >= 500
            ? `status ${outcome.status}`
            : null;
      record(scope, req, outcome, problem, failures);
    };
    const apiGet = (user: TestUser, url: string) =>
      t.http.get(url).set('Authorization', user.auth).timeout({ response: API_TIMEOUT_MS });

    // Custom domains serve visitors once verified: publish each one's record and verify it.
    for (const [user, owned] of [
      [owner, 'own'],
      [other, 'other'],
    ] as const) {
      for (const id of pools.list(owned, 'domains')) {
        const res = await apiGet(user, `/v1/domains/${id}`);
        const verification = (
          res.body as { data?: { verification?: { name: string; value: string } } }
        ).data?.verification;
        if (verification) {
          dns.records.set(verification.name.toLowerCase(), [verification.value]);
          await t.http.post(`/v1/domains/${id}/verify`).set('Authorization', user.auth);
        }
      }
    }
    const domains = await t.dataSource.query<{ id: number; host: string }[]>(
      'SELECT id, host FROM domains',
    );
    const hostOf = new Map(domains.map((d) => [Number(d.id), d.host]));
    const links = await t.dataSource.query<
      { url: string; domain_id: number; type: string; password_hash: string | null }[]
    >('SELECT url, domain_id, type, password_hash FROM links ORDER BY id');

    const sequences: [string, HttpRequest[]][] = [];
    for (const link of links) {
      const host = Number(link.domain_id) === 0 ? MAIN_HOST : hostOf.get(Number(link.domain_id));
      if (host === undefined || !isSendableHeader(host)) {
        continue;
      }
      sequences.push([
        `visit /${link.url} on ${host}`,
        linkVisits({
          alias: link.url,
          host,
          isStatic: link.type === 'static',
          hasPassword: link.password_hash !== null,
        }),
      ]);
    }
    for (const host of new Set(hostOf.values())) {
      if (isSendableHeader(host)) {
        sequences.push([`visit the domain ${host}`, domainVisits(host)]);
      }
    }
    const get = (url: string): HttpRequest => ({
      method: 'get',
      url,
      headers: { Host: MAIN_HOST },
      body: null,
    });
    // Stored files: QR images (SVG and PNG), logos, backgrounds.
    const uploads = join(t.config.dataDir, 'uploads');
    const files = (
      existsSync(uploads) ? readdirSync(uploads, { recursive: true, withFileTypes: true }) : []
    )
      .filter((entry) => entry.isFile())
      .map((entry) => relative(uploads, join(entry.parentPath, entry.name)));
    const fileRequests = files.map((f) =>
      get(`/uploads/${f.split('/').map(percentEncode).join('/')}`),
    );
    for (const [user] of [[owner], [other]] as const) {
      const qr = await apiGet(user, '/v1/qr-codes?results_per_page=1000');
      for (const row of (qr.body as { data?: { qr_code: string }[] }).data ?? []) {
        const path = new URL(row.qr_code).pathname;
        fileRequests.push(get(path), get(path.replace(/\.svg$/, '.png')));
      }
    }
    fileRequests.push(get('/uploads/%2e%2e/linkdock.sqlite'), get('/uploads/qr-codes/%00.svg'));
    sequences.push(['stored files', fileRequests]);
    const tokens = await t.dataSource.query<{ preview_token: string }[]>(
      'SELECT preview_token FROM signatures',
    );
    sequences.push([
      'signature previews',
      [
        ...tokens.map((row) => get(`/signatures/preview/${percentEncode(row.preview_token)}`)),
        get('/signatures/preview/%ED%A0%80'),
        get(`/signatures/preview/${'A'.repeat(32)}`),
      ],
    ]);

    // Links one after the other within a sequence (the clicks limit, the cache), four at a time.
    const queue = [...sequences];
    const worker = async (): Promise<void> => {
      for (let next = queue.shift(); next; next = queue.shift()) {
        const [scope, requests] = next;
        for (const req of requests) {
          await visitOnce(scope, req);
        }
      }
    };
    await Promise.all([worker(), worker(), worker(), worker()]);

    try {
      await t.app.get(VisitRecorder).flush();
    } catch (error) {
      fail(failures, {
        scope: 'visit recorder',
        request: 'VisitRecorder.flush() after the visits',
        status: null,
        problem: `the visits could not be written: ${String(error)}`,
        response: '',
        requestId: null,
      });
    }
    await checkHealth('visits', failures);
    assertNone(failures, 'visitor requests');
  }, 300_000);

  it.each(DELETES)('%s: no 5xx, 4xx in the error shape, /health still up', fuzz, 300_000);

  it('still answers /health after the whole run', async () => {
    const res = await t.http.get('/health');
    expect(res.status).toBe(200);
  });
});
