import { Clock } from '@app/common';
import { DomainsRepository, LinksRepository } from '@app/database';
import { DestinationChecks } from '@app/links';
import { createTestApp, expectDocumented, TestApp, TestUser } from '@app/testing';
import { EventDispatcher } from '../apps/worker/src/dispatch/event-dispatcher';
import { DestinationChecksJob } from '../apps/worker/src/jobs/destination-checks.job';
import { runCommand } from './support/cli';
import { MockHttpServer } from './support/mock-servers';

const DATETIME = /^\d{4}-\d{2}-\d{2} \d{2}:\d{2}:\d{2}$/;

describe('Destination health', () => {
  let t: TestApp;
  let owner: TestUser;
  let now: Date;
  const http = new MockHttpServer();

  beforeAll(async () => {
    await http.start();
    // The outbound switch webhooks use: on here, so the local server may be checked.
    t = await createTestApp({ env: { ALLOW_PRIVATE_WEBHOOKS: '1', NOTIFY_TIMEOUT_MS: '5000' } });
    owner = await t.createUser();
  });
  afterAll(async () => {
    await t?.close();
    await http.stop();
  });
  beforeEach(() => {
    now = new Date();
    jest.spyOn(t.app.get(Clock), 'now').mockImplementation(() => now);
    http.reset();
  });
  afterEach(() => jest.restoreAllMocks());

  const cli = (...argv: string[]) => runCommand(t.config, ...argv);

  async function createLink(location: string): Promise<number> {
    const res = await t.http
      .post('/v1/links')
      .set('Authorization', owner.auth)
      .send({ location_url: location });
    expect(res.status).toBe(201);
    return (res.body as { data: { id: number } }).data.id;
  }

  async function health(id: number) {
    const res = expectDocumented(
      await t.http.get(`/v1/links/${id}`).set('Authorization', owner.auth),
    );
    expect(res.status).toBe(200);
    const d = (res.body as { data: Record<string, unknown> }).data;
    return {
      status: d.destination_status,
      code: d.destination_status_code,
      checked: d.destination_checked_datetime,
    };
  }

  it('500 three times makes a link broken with the event delivered, 200 makes it ok again', async () => {
    const hook = await t.http
      .post('/v1/notification-handlers')
      .set('Authorization', owner.auth)
      .send({
        name: 'health',
        type: 'webhook',
        webhook: `${http.url}/hook`,
        events: ['link.destination_broken', 'link.destination_recovered'],
      });
    expect(hook.status).toBe(201);
    const id = await createLink(`${http.url}/dest?x=1`);
    expect(await health(id)).toEqual({ status: 'unknown', code: null, checked: null });
    http.answers.set('/dest', { status: 500, body: 'down' });

    for (const broken of [0, 0, 1]) {
      const run = await cli('links:check-destinations', '--link-id', String(id));
      expect(run.code).toBe(0);
      expect(run.result).toEqual({ checked: 1, ok: 0, broken });
    }
    // HEAD first, then a GET of the first bytes, each time.
    const dest = http.received.filter((r) => r.url === '/dest?x=1');
    expect(dest.map((r) => r.method)).toEqual(['HEAD', 'GET', 'HEAD', 'GET', 'HEAD', 'GET']);
    expect(dest[1].headers.range).toBe('bytes=0-1023');
    expect(await health(id)).toEqual({
      status: 'broken',
      code: 500,
      checked: expect.stringMatching(DATETIME),
    });
    const listed = expectDocumented(
      await t.http.get('/v1/links?destination_status=broken').set('Authorization', owner.auth),
    );
    expect(listed.status).toBe(200);
    expect((listed.body as { data: Array<{ id: number }> }).data.map((l) => l.id)).toEqual([id]);

    await t.app.get(EventDispatcher).drain();
    const link = await t.http.get(`/v1/links/${id}`).set('Authorization', owner.auth);
    const events = () =>
      http.received
        .filter((r) => r.url === '/hook')
        .map((r) => JSON.parse(r.body) as { event: string; data: unknown });
    expect(events().map((e) => e.event)).toEqual(['link.destination_broken']);
    expect(events()[0].data).toEqual(link.body.data);

    // A fourth failure raises nothing new.
    await cli('links:check-destinations', '--link-id', String(id));
    http.answers.set('/dest', { status: 200, body: 'up' });
    const back = await cli('links:check-destinations', '--email', owner.email);
    expect(back.result).toEqual({ checked: 1, ok: 1, broken: 0 });
    expect(await health(id)).toEqual({
      status: 'ok',
      code: 200,
      checked: expect.stringMatching(DATETIME),
    });
    await t.app.get(EventDispatcher).drain();
    expect(events().map((e) => e.event)).toEqual([
      'link.destination_broken',
      'link.destination_recovered',
    ]);
    const none = await t.http
      .get('/v1/links?destination_status=broken')
      .set('Authorization', owner.auth);
    expect((none.body as { data: unknown[] }).data).toEqual([]);
  });

  it('the daily job checks each link at most once a day', async () => {
    const id = await createLink(`${http.url}/daily`);
    const checks = t.app.get(DestinationChecks);
    const first = await checks.run({ userId: owner.id });
    expect(first.checked).toBeGreaterThanOrEqual(1);
    expect(await health(id)).toMatchObject({ status: 'ok', code: 200 });
    expect(await checks.run({ userId: owner.id })).toEqual({ checked: 0, ok: 0, broken: 0 });
    now = new Date(now.getTime() + 24 * 3_600_000 + 1_000);
    const next = await checks.run({ userId: owner.id, linkId: id });
    expect(next).toEqual({ checked: 1, ok: 1, broken: 0 });
    expect(t.app.get(DestinationChecksJob).offBecause).toBeNull();
  });

  it('401, 403, 405 and 429 are no failures; 404 and 410 are', async () => {
    const checks = t.app.get(DestinationChecks);
    for (const [status, failed] of [
      [401, false],
      [403, false],
      [405, false],
      [429, false],
      [404, true],
      [410, true],
      [503, true],
    ] as const) {
      http.answers.set(`/s${status}`, { status });
      expect(await checks.probe(`${http.url}/s${status}`)).toEqual({ statusCode: status, failed });
    }
  });

  it('never fetches a private address when the outbound switch is off', async () => {
    const config = {
      ...t.config,
      notifications: { ...t.config.notifications, allowPrivateWebhooks: false },
    };
    const strict = new DestinationChecks(
      t.app.get(LinksRepository),
      t.app.get(DomainsRepository),
      t.app.get(Clock),
      config,
    );
    expect(await strict.probe(`${http.url}/private`)).toEqual({ statusCode: null, failed: true });
    expect(http.received).toEqual([]);
  });

  it('a bad filter value is a 400; --link-id must be a number', async () => {
    const res = await t.http
      .get('/v1/links?destination_status=dead')
      .set('Authorization', owner.auth);
    expect(res.status).toBe(400);
    expect((res.body as { errors: Array<{ code: string }> }).errors[0].code).toBe(
      'invalid_list_parameter',
    );
    const run = await cli('links:check-destinations', '--link-id', 'x');
    expect(run.code).not.toBe(0);
    expect(JSON.parse(run.error!)).toEqual({
      errors: [
        {
          status: 400,
          code: 'validation_failed',
          title: '--link-id must be a whole number.',
          field: 'link-id',
        },
      ],
    });
  });
});
