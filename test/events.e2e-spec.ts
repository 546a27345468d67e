import { Logger } from '@nestjs/common';
import { Webhook } from 'standardwebhooks';
import { VisitRecorder } from '@app/analytics';
import { PlansService } from '@app/billing';
import { Clock } from '@app/common';
import { Db, Outbox } from '@app/database';
import { DestinationChecks } from '@app/links';
import { EVENT_NAMES } from '@app/notifications';
import {
  closeAfterAll,
  createTestApp,
  expectWebhookDocumented,
  startTestDnsServer,
  stripeEvent,
  stripeSignature,
  TestApp,
  TestDnsServer,
  TestUser,
} from '@app/testing';
import { EventDispatcher, RETRY_DELAYS_MS } from '../apps/worker/src/dispatch/event-dispatcher';
import { DomainReverificationJob } from '../apps/worker/src/jobs/domain-reverification.job';
import { LinkExpiryJob } from '../apps/worker/src/jobs/link-expiry.job';
import { MockHttpServer, MockSmtpServer } from './support/mock-servers';

const DATETIME = /^\d{4}-\d{2}-\d{2} \d{2}:\d{2}:\d{2}$/;
const MINUTE = 60_000;
const STRIPE_SECRET = 'whsec_events_0123456789';

describe('Events: outbox, deliveries, retries', () => {
  let t: TestApp;
  let owner: TestUser;
  let stranger: TestUser;
  let dispatcher: EventDispatcher;
  let now: Date;
  let dns: TestDnsServer;
  const http = new MockHttpServer();
  const smtp = new MockSmtpServer();
  const opened = closeAfterAll();

  beforeAll(async () => {
    opened.add(await http.start(), (server) => server.stop());
    dns = opened.add(await startTestDnsServer());
    opened.add(await smtp.start(), (server) => server.stop());
    t = await createTestApp({
      env: {
        ALLOW_PRIVATE_WEBHOOKS: '1',
        NOTIFY_TIMEOUT_MS: '5000',
        DNS_SERVERS: dns.address,
        SMTP_URL: `smtp://127.0.0.1:${smtp.port}`,
        SMTP_FROM: 'Linkdock <bot@links.test>',
        NOTIFY_VENDOR_BASE_URL: `${http.url}/vendor`,
        STRIPE_WEBHOOK_SECRET: STRIPE_SECRET,
      },
    });
    opened.add(t);
    owner = await t.createUser();
    stranger = await t.createUser();
    dispatcher = t.app.get(EventDispatcher);
  });
  beforeEach(async () => {
    // Time moves only when a test moves it, so retries fall due when the test says.
    now = new Date();
    jest.spyOn(t.app.get(Clock), 'now').mockImplementation(() => now);
    await dispatcher.drain();
    http.reset();
  });
  /**
   * The events delivered as JSON, each checked against its `webhooks` entry of the document;
   * not those a test wrote into the outbox itself (`raise`, with partial data).
   */
  const documented = new Set<string>();
  const raised = new Set<string>();
  afterEach(() => {
    for (const request of http.received) {
      const event = String(request.headers['x-linkdock-event']);
      if (
        !(EVENT_NAMES as readonly string[]).includes(event) ||
        request.headers['content-type'] !== 'application/json' ||
        raised.has(String((JSON.parse(request.body) as { id?: unknown }).id))
      ) {
        continue;
      }
      expectWebhookDocumented(request);
      documented.add(event);
    }
  });
  afterEach(() => jest.restoreAllMocks());

  async function handler(path: string, fields: Record<string, unknown> = {}, user = owner) {
    const res = await t.http
      .post('/v1/notification-handlers')
      .set('Authorization', user.auth)
      .send({ name: `hook ${path}`, type: 'webhook', webhook: `${http.url}${path}`, ...fields });
    expect(res.status).toBe(201);
    return res.body.data as { id: number; webhook_secret: string };
  }

  async function disable(id: number, user = owner) {
    const res = await t.http
      .post(`/v1/notification-handlers/${id}`)
      .set('Authorization', user.auth)
      .send({ is_enabled: false });
    expect(res.status).toBe(200);
  }

  async function deliveries(id: number, query = '', user = owner) {
    const res = await t.http
      .get(`/v1/notification-handlers/${id}/deliveries${query}`)
      .set('Authorization', user.auth);
    return res;
  }

  function to(path: string) {
    return http.received.filter((r) => r.url === path);
  }

  async function createLink(location = 'https://example.com/a', user = owner) {
    const res = await t.http
      .post('/v1/links')
      .set('Authorization', user.auth)
      .send({ location_url: location });
    expect(res.status).toBe(201);
    return res.body.data.id as number;
  }

  /** Writes an event straight into the outbox, as a feature's transaction would. */
  async function raise(event: string, data: Record<string, unknown>, handlerIds?: number[]) {
    const db = t.app.get(Db);
    const outbox = t.app.get(Outbox);
    const ids = await db.write(() =>
      outbox.write([{ event, ownerId: owner.id, data, handlerIds }], now),
    );
    for (const id of ids) raised.add(id);
    return ids;
  }

  it('a link created through the API reaches a webhook, signed by the Standard Webhooks scheme', async () => {
    const hook = await handler('/created');
    expect(hook.webhook_secret).toMatch(/^whsec_[A-Za-z0-9+/]{32}$/);
    const id = await createLink('https://example.com/launch');
    await dispatcher.drain();

    const [request] = to('/created');
    expect(to('/created')).toHaveLength(1);
    // The official package checks the signature and the timestamp, not our code.
    const verified = new Webhook(hook.webhook_secret).verify(
      request.body,
      request.headers as Record<string, string>,
    );
    const link = await t.http.get(`/v1/links/${id}`).set('Authorization', owner.auth);
    expect(verified).toEqual({
      id: expect.stringMatching(/^evt_[\w-]{22}$/),
      event: 'link.created',
      created_at: expect.stringMatching(DATETIME),
      data: link.body.data,
    });
    expect(request.headers['content-type']).toBe('application/json');
    expect(request.headers['x-linkdock-event']).toBe('link.created');
    expect(request.headers['webhook-id']).toMatch(/^msg_[\w-]{22}$/);
    // A tampered body fails the same check.
    expect(() =>
      new Webhook(hook.webhook_secret).verify(
        request.body.replace('launch', 'lunch'),
        request.headers as Record<string, string>,
      ),
    ).toThrow();

    const log = await deliveries(hook.id);
    expect(log.status).toBe(200);
    expect(log.body.data).toEqual([
      {
        id: expect.any(Number),
        message_id: request.headers['webhook-id'],
        event_id: (verified as { id: string }).id,
        event: 'link.created',
        status: 'delivered',
        attempts: 1,
        next_attempt_datetime: null,
        last_status_code: 200,
        last_latency_ms: expect.any(Number),
        last_error: null,
        delivered_datetime: expect.stringMatching(DATETIME),
        last_datetime: expect.stringMatching(DATETIME),
        datetime: expect.stringMatching(DATETIME),
      },
    ]);
    await disable(hook.id);
  });

  it('update and delete raise link.updated and link.deleted with the link as it was', async () => {
    const hook = await handler('/lifecycle', { events: ['link.updated', 'link.deleted'] });
    const id = await createLink();
    const upd = await t.http
      .post(`/v1/links/${id}`)
      .set('Authorization', owner.auth)
      .send({ location_url: 'https://example.com/b' });
    expect(upd.status).toBe(200);
    const before = await t.http.get(`/v1/links/${id}`).set('Authorization', owner.auth);
    const del = await t.http.delete(`/v1/links/${id}`).set('Authorization', owner.auth);
    expect(del.status).toBe(200);
    await dispatcher.drain();
    const bodies = to('/lifecycle').map((r) => JSON.parse(r.body) as Record<string, unknown>);
    expect(bodies.map((b) => b.event).sort()).toEqual(['link.deleted', 'link.updated']);
    const deleted = bodies.find((b) => b.event === 'link.deleted')!;
    expect(deleted.data).toEqual(before.body.data);
    const updated = bodies.find((b) => b.event === 'link.updated')!;
    expect((updated.data as { location_url: string }).location_url).toBe('https://example.com/b');
    await disable(hook.id);
  });

  it('the visit that reaches a clicks limit raises link.clicks_limit_reached, once', async () => {
    const hook = await handler('/limit', { events: ['link.clicks_limit_reached'] });
    const res = await t.http
      .post('/v1/links')
      .set('Authorization', owner.auth)
      .send({ location_url: 'https://example.com/limited', clicks_limit: 3 });
    expect(res.status).toBe(201);
    const link = await t.http.get(`/v1/links/${res.body.data.id}`).set('Authorization', owner.auth);
    // A browser's user agent: requests that look like bots are not counted.
    const visit = () =>
      t.http
        .get(`/${link.body.data.url}`)
        .set(
          'User-Agent',
          'Mozilla/5.0 (X11; Linux x86_64) AppleWebKit/537.36 Chrome/126.0 Safari/537.36',
        )
        .redirects(0);
    // Two flushes below the limit, one that reaches it (the gate lets one of its two visits
    // through), one after it: one event, with the link at its limit.
    for (const visits of [1, 1, 2, 1]) {
      for (let i = 0; i < visits; i += 1) await visit();
      await t.app.get(VisitRecorder).flush();
    }
    await dispatcher.drain();
    const bodies = to('/limit').map((r) => JSON.parse(r.body) as { data: { clicks: number } });
    expect(bodies).toHaveLength(1);
    expect(bodies[0]).toMatchObject({
      event: 'link.clicks_limit_reached',
      data: {
        ...link.body.data,
        clicks: 3,
        settings: { ...link.body.data.settings, clicks_limit: 3 },
      },
    });
    await disable(hook.id);
  });

  it('domain.verified when a domain becomes verified, not on a re-check', async () => {
    const hook = await handler('/domains', { events: ['domain.verified'] });
    const created = await t.http
      .post('/v1/domains')
      .set('Authorization', owner.auth)
      .send({ host: 'events.example.com' });
    expect(created.status).toBe(201);
    const id = created.body.data.id as number;
    const domain = await t.http.get(`/v1/domains/${id}`).set('Authorization', owner.auth);
    const { verification } = domain.body.data as { verification: { name: string; value: string } };
    dns.records.set(verification.name, [verification.value]);
    for (let i = 0; i < 2; i += 1) {
      const res = await t.http.post(`/v1/domains/${id}/verify`).set('Authorization', owner.auth);
      expect(res.status).toBe(200);
    }
    await dispatcher.drain();
    const after = await t.http.get(`/v1/domains/${id}`).set('Authorization', owner.auth);
    const bodies = to('/domains').map(
      (r) => JSON.parse(r.body) as { event: string; data: unknown },
    );
    expect(bodies).toHaveLength(1);
    expect(bodies[0].event).toBe('domain.verified');
    expect(bodies[0].data).toEqual({ ...after.body.data, last_datetime: expect.any(String) });
    await disable(hook.id);
  });

  it('team invitations raise invited, accepted and left for the team owner', async () => {
    const hook = await handler('/team', {
      events: ['team_member.invited', 'team_member.accepted', 'team_member.left'],
    });
    const member = await t.createUser();
    const team = await t.http
      .post('/v1/teams')
      .set('Authorization', owner.auth)
      .send({ name: 'Events team' });
    expect(team.status).toBe(201);
    const invite = await t.http
      .post('/v1/team-members')
      .set('Authorization', owner.auth)
      .send({ team_id: team.body.data.id, user_email: member.email });
    expect(invite.status).toBe(201);
    const memberId = invite.body.data.id as number;
    const accept = await t.http
      .post(`/v1/teams-member/${memberId}`)
      .set('Authorization', member.auth)
      .send({ status: 1 });
    expect(accept.status).toBe(200);
    const leave = await t.http
      .delete(`/v1/teams-member/${memberId}`)
      .set('Authorization', member.auth);
    expect(leave.status).toBe(200);
    await dispatcher.drain();
    const bodies = to('/team').map(
      (r) => JSON.parse(r.body) as { event: string; data: Record<string, unknown> },
    );
    expect(bodies.map((b) => b.event)).toEqual([
      'team_member.invited',
      'team_member.accepted',
      'team_member.left',
    ]);
    expect(bodies[0].data).toEqual({
      id: memberId,
      team_id: team.body.data.id,
      team_name: 'Events team',
      user_email: member.email,
      access: { read: true, create: false, update: false, delete: false },
      status: 0,
      datetime: expect.stringMatching(DATETIME),
      last_datetime: null,
    });
    expect(bodies[1].data).toMatchObject({ id: memberId, status: 1 });
    // The invitee is told by email (SMTP is configured here), after the answer.
    for (let i = 0; i < 50 && !smtp.mails.some((m) => m.to.includes(member.email)); i += 1) {
      await new Promise((resolve) => setTimeout(resolve, 50));
    }
    const invitation = smtp.mails.find((m) => m.to.includes(member.email));
    // Quoted-printable: soft line breaks and =3D undone.
    const text = invitation?.raw.replace(/=\r?\n/g, '').replace(/=3D/g, '=') ?? '';
    expect(text).toContain('Subject: You are invited to the team Events team on Linkdock');
    expect(text).toContain(`POST /v1/teams-member/${memberId} with status=1`);
    await disable(hook.id);
  });

  it('a chat handler gets a sentence with the link, an email handler a mail', async () => {
    const slack = await t.http
      .post('/v1/notification-handlers')
      .set('Authorization', owner.auth)
      .send({
        name: 'Chat',
        type: 'slack',
        slack: 'https://hooks.slack.com/services/T000/B000/XXXXXXXXXXXXevents12',
        events: ['link.created'],
      });
    expect(slack.status).toBe(201);
    const mail = await t.http
      .post('/v1/notification-handlers')
      .set('Authorization', owner.auth)
      .send({ name: 'Mail', type: 'email', email: 'ops@example.com', events: ['link.created'] });
    expect(mail.status).toBe(201);
    const id = await createLink('https://example.com/announce');
    await dispatcher.drain();
    const link = await t.http.get(`/v1/links/${id}`).set('Authorization', owner.auth);
    const full = link.body.data.full_url as string;
    const sentence = `${full} was created, pointing to https://example.com/announce. ${full}`;
    const [chat] = to('/vendor/slack/services/T000/B000/XXXXXXXXXXXXevents12');
    expect(JSON.parse(chat.body)).toEqual({ text: `*Link created*\n${sentence}` });
    const mails = smtp.mails.filter((m) => m.to.includes('ops@example.com'));
    expect(mails).toHaveLength(1);
    expect(mails[0].raw).toContain('Subject: Link created');
    expect(mails[0].raw).toContain('Content-Type: text/html');
    await Promise.all([disable(slack.body.data.id), disable(mail.body.data.id)]);
  });

  it('link.expired once per end date, from the worker job', async () => {
    const hook = await handler('/expired', { events: ['link.expired'] });
    const fmt = (d: Date) => d.toISOString().slice(0, 19).replace('T', ' ');
    const end = new Date(now.getTime() + 3_600_000);
    const res = await t.http
      .post('/v1/links')
      .set('Authorization', owner.auth)
      .send({ location_url: 'https://example.com/sale', schedule: 1, end_date: fmt(end) });
    expect(res.status).toBe(201);
    const id = res.body.data.id as number;
    const job = t.app.get(LinkExpiryJob);
    expect(await job.announce()).toBe(0);
    now = new Date(end.getTime() + 1_000);
    expect(await job.announce()).toBe(1);
    expect(await job.announce()).toBe(0);
    // A new end date is announced again when it passes.
    const later = new Date(now.getTime() + 3_600_000);
    const upd = await t.http
      .post(`/v1/links/${id}`)
      .set('Authorization', owner.auth)
      .send({ schedule: 1, end_date: fmt(later) });
    expect(upd.status).toBe(200);
    now = new Date(later.getTime() + 1_000);
    expect(await job.announce()).toBe(1);
    await dispatcher.drain();
    const link = await t.http.get(`/v1/links/${id}`).set('Authorization', owner.auth);
    const bodies = to('/expired').map((r) => JSON.parse(r.body) as { data: unknown });
    expect(bodies).toHaveLength(2);
    expect(bodies[1].data).toEqual(link.body.data);
    await disable(hook.id);
  });

  it('link.destination_broken after 3 failed checks, link.destination_recovered on the next success', async () => {
    const hook = await handler('/health', {
      events: ['link.destination_broken', 'link.destination_recovered'],
    });
    http.answers.set('/dest-health', { status: 503 });
    const id = await createLink(`${http.url}/dest-health`);
    const checks = t.app.get(DestinationChecks);
    for (const broken of [0, 0, 1]) {
      expect(await checks.run({ force: true, linkId: id })).toEqual({ checked: 1, ok: 0, broken });
    }
    await dispatcher.drain();
    const brokenLink = await t.http.get(`/v1/links/${id}`).set('Authorization', owner.auth);
    http.answers.set('/dest-health', { status: 200 });
    expect(await checks.run({ force: true, linkId: id })).toEqual({ checked: 1, ok: 1, broken: 0 });
    await dispatcher.drain();
    const okLink = await t.http.get(`/v1/links/${id}`).set('Authorization', owner.auth);
    const bodies = to('/health').map((r) => JSON.parse(r.body) as { event: string; data: unknown });
    expect(bodies.map((b) => b.event)).toEqual([
      'link.destination_broken',
      'link.destination_recovered',
    ]);
    expect(bodies[0].data).toEqual(brokenLink.body.data);
    expect(bodies[1].data).toEqual(okLink.body.data);
    await disable(hook.id);
  });

  it('a domain whose record is missing on 3 daily checks in a row is disabled, with the reason', async () => {
    const hook = await handler('/disabled', { events: ['domain.disabled'] });
    const created = await t.http
      .post('/v1/domains')
      .set('Authorization', owner.auth)
      .send({ host: 'fading.example.com' });
    const id = created.body.data.id as number;
    const before = await t.http.get(`/v1/domains/${id}`).set('Authorization', owner.auth);
    const { verification } = before.body.data as { verification: { name: string; value: string } };
    dns.records.set(verification.name, [verification.value]);
    expect(
      (await t.http.post(`/v1/domains/${id}/verify`).set('Authorization', owner.auth)).status,
    ).toBe(200);
    const job = t.app.get(DomainReverificationJob);
    dns.records.delete(verification.name);
    expect(await job.check()).toBe(0);
    // A check that finds the record again starts the count over.
    dns.records.set(verification.name, [verification.value]);
    expect(await job.check()).toBe(0);
    dns.records.delete(verification.name);
    expect(await job.check()).toBe(0);
    expect(await job.check()).toBe(0);
    expect(await job.check()).toBe(1);
    await dispatcher.drain();
    const after = await t.http.get(`/v1/domains/${id}`).set('Authorization', owner.auth);
    expect(after.body.data).toMatchObject({
      is_enabled: false,
      verification: { verified_datetime: null },
    });
    const bodies = to('/disabled').map(
      (r) => JSON.parse(r.body) as { event: string; data: Record<string, unknown> },
    );
    expect(bodies).toHaveLength(1);
    expect(bodies[0].data).toEqual({
      ...after.body.data,
      reason: `The TXT record ${verification.name} with the value ${verification.value} was not found on 3 daily checks in a row (last check: no such name (NXDOMAIN)). Publish it again and verify the domain to enable it.`,
    });
    await disable(hook.id);
  });

  it('a visitor filling a collector sends data.created to the handler its block picked', async () => {
    // events: [] — it gets data.created only because the block chose it.
    const hook = await handler('/collected', { events: [] });
    const page = await t.http
      .post('/v1/links')
      .set('Authorization', owner.auth)
      .send({ type: 'biolink', url: 'events-bio' });
    expect(page.status).toBe(201);
    const block = await t.http
      .post('/v1/biolink-blocks')
      .set('Authorization', owner.auth)
      .send({
        link_id: page.body.data.id,
        type: 'email_collector',
        notification_handlers_ids: [hook.id],
      });
    expect(block.status).toBe(201);
    const blockId = block.body.data.id as number;
    const chrome =
      'Mozilla/5.0 (X11; Linux x86_64) AppleWebKit/537.36 (KHTML, like Gecko) Chrome/130.0 Safari/537.36';
    const html = (await t.http.get('/events-bio').set('User-Agent', chrome)).text;
    const token = /name="token" value="([^"]+)"/.exec(html.slice(html.indexOf(`id="b${blockId}"`)));
    expect(token).not.toBeNull();
    const sent = await t.http
      .post(`/events-bio/b/${blockId}`)
      .set('User-Agent', chrome)
      .type('form')
      .send({ token: token![1], name: 'Ada', email: 'ada@example.com', website: '' })
      .redirects(0);
    expect(sent.status).toBe(200);
    await dispatcher.drain();
    const [request] = to('/collected');
    const body = new Webhook(hook.webhook_secret).verify(
      request.body,
      request.headers as Record<string, string>,
    ) as { event: string; data: { id: number } };
    expect(body.event).toBe('data.created');
    const record = await t.http.get(`/v1/data/${body.data.id}`).set('Authorization', owner.auth);
    expect(record.status).toBe(200);
    expect(body.data).toEqual(record.body.data);
    expect(record.body.data.data).toEqual({ name: 'Ada', email: 'ada@example.com' });
    await disable(hook.id);
  });

  it('bulk creation raises one link.created per link', async () => {
    const hook = await handler('/bulk', { events: ['link.created'] });
    const res = await t.http
      .post('/v1/links/bulk')
      .set('Authorization', owner.auth)
      .send([{ location_url: 'https://example.com/1' }, { location_url: 'https://example.com/2' }]);
    expect(res.status).toBe(201);
    await dispatcher.drain();
    const ids = to('/bulk').map((r) => (JSON.parse(r.body) as { data: { id: number } }).data.id);
    expect(ids.sort()).toEqual(res.body.data.map((l: { id: number }) => l.id).sort());
    await disable(hook.id);
  });

  it('a receiver failing twice gets the event again on the third attempt, same message id', async () => {
    const hook = await handler('/flaky', { events: ['link.expired'] });
    http.answers.set('/flaky', { status: 503, body: 'down' });
    await raise('link.expired', { id: 1 });
    await dispatcher.drain();
    let [row] = (await deliveries(hook.id)).body.data;
    expect(row).toMatchObject({ status: 'pending', attempts: 1, last_status_code: 503 });
    expect(row.last_error).toBe('The target answered 503: down');
    // The next try is about a minute later (±10 %): not yet at 50 s.
    now = new Date(now.getTime() + 50_000);
    await dispatcher.drain();
    expect(to('/flaky')).toHaveLength(1);
    now = new Date(now.getTime() + 20_000);
    await dispatcher.drain();
    expect(to('/flaky')).toHaveLength(2);
    http.answers.delete('/flaky');
    now = new Date(now.getTime() + 5.5 * MINUTE);
    await dispatcher.drain();
    [row] = (await deliveries(hook.id)).body.data;
    expect(row).toMatchObject({ status: 'delivered', attempts: 3, last_status_code: 200 });
    const ids = to('/flaky').map((r) => r.headers['webhook-id']);
    expect(ids).toHaveLength(3);
    expect(new Set(ids).size).toBe(1);
    await disable(hook.id);
  });

  it('a receiver that never accepts ends failed after 8 attempts, each logged; 3 days of failures disable the handler', async () => {
    const hook = await handler('/dead', { events: ['link.expired'] });
    http.answers.set('/dead', { status: 500 });
    await raise('link.expired', { id: 2 });
    // Each wait at its longest (+10 % jitter): about 49 hours for all 8 attempts.
    for (const delay of [...RETRY_DELAYS_MS, 0]) {
      await dispatcher.drain();
      now = new Date(now.getTime() + delay * 1.1 + 1_000);
    }
    const [row] = (await deliveries(hook.id)).body.data;
    expect(row).toMatchObject({
      status: 'failed',
      attempts: 8,
      last_status_code: 500,
      next_attempt_datetime: null,
    });
    expect(to('/dead')).toHaveLength(8);
    const failed = await deliveries(hook.id, '?status=failed');
    expect(failed.body.data).toHaveLength(1);
    const still = await t.http
      .get(`/v1/notification-handlers/${hook.id}`)
      .set('Authorization', owner.auth);
    expect(still.body.data).toMatchObject({ is_enabled: true, disabled_reason: null });
    // Over 3 days after the first failure, the next failure turns the handler off.
    now = new Date(now.getTime() + 24 * 3_600_000);
    await raise('link.expired', { id: 3 });
    await dispatcher.drain();
    const got = await t.http
      .get(`/v1/notification-handlers/${hook.id}`)
      .set('Authorization', owner.auth);
    expect(got.body.data.is_enabled).toBe(false);
    expect(got.body.data.disabled_reason).toMatch(
      /^Disabled on \d{4}-\d{2}-\d{2}: every delivery since .* UTC failed \(last error: The target answered 500\)\.$/,
    );
    // Enabling it again clears the reason.
    const on = await t.http
      .post(`/v1/notification-handlers/${hook.id}`)
      .set('Authorization', owner.auth)
      .send({ is_enabled: true });
    expect(on.status).toBe(200);
    const again = await t.http
      .get(`/v1/notification-handlers/${hook.id}`)
      .set('Authorization', owner.auth);
    expect(again.body.data.disabled_reason).toBeNull();
    await disable(hook.id);
  });

  it('a receiver answering 410 Gone fails its delivery at once and turns the handler off, with the reason', async () => {
    const hook = await handler('/gone', { events: ['link.expired'] });
    http.answers.set('/gone', { status: 410, body: 'unsubscribed' });
    await raise('link.expired', { id: 5 });
    await dispatcher.drain();
    const [row] = (await deliveries(hook.id)).body.data;
    expect(row).toMatchObject({
      status: 'failed',
      attempts: 1,
      last_status_code: 410,
      last_error: 'The target answered 410: unsubscribed',
      next_attempt_datetime: null,
    });
    const got = await t.http
      .get(`/v1/notification-handlers/${hook.id}`)
      .set('Authorization', owner.auth);
    expect(got.body.data).toMatchObject({
      is_enabled: false,
      disabled_reason: expect.stringMatching(
        /^Disabled on \d{4}-\d{2}-\d{2}: The target answered 410 Gone: it asks for no more deliveries\.$/,
      ),
    });
    // Nothing more is sent: no retry of that delivery, no delivery of a later event.
    now = new Date(now.getTime() + RETRY_DELAYS_MS[0] * 2);
    await raise('link.expired', { id: 6 });
    await dispatcher.drain();
    expect(to('/gone')).toHaveLength(1);
    // Its /test still answers what the target says, and leaves the handler as it is.
    const probe = await t.http
      .post(`/v1/notification-handlers/${hook.id}/test`)
      .set('Authorization', owner.auth);
    expect(probe.body.data).toEqual({
      ok: false,
      status_code: 410,
      latency_ms: expect.any(Number),
      error: 'The target answered 410: unsubscribed',
    });
  });

  it('a pending delivery of a handler its owner turned off fails at its next attempt, for good', async () => {
    const hook = await handler('/off', { events: ['link.expired'] });
    http.answers.set('/off', { status: 503, body: 'down' });
    await raise('link.expired', { id: 7 });
    await dispatcher.drain();
    let [row] = (await deliveries(hook.id)).body.data;
    expect(row).toMatchObject({ status: 'pending', attempts: 1, last_status_code: 503 });
    await disable(hook.id);
    http.answers.delete('/off');
    now = new Date(now.getTime() + RETRY_DELAYS_MS[0] * 2);
    await dispatcher.drain();
    [row] = (await deliveries(hook.id)).body.data;
    expect(row).toMatchObject({
      status: 'failed',
      attempts: 2,
      last_status_code: null,
      last_error: 'The handler is disabled.',
      next_attempt_datetime: null,
    });
    // Nothing is claimed again, however long one waits, and nothing was sent.
    for (const delay of RETRY_DELAYS_MS) {
      now = new Date(now.getTime() + delay * 1.1 + 1_000);
      await dispatcher.drain();
    }
    const after = (await deliveries(hook.id)).body.data;
    expect(after).toHaveLength(1);
    expect(after[0]).toMatchObject({ status: 'failed', attempts: 2 });
    expect(to('/off')).toHaveLength(1);
  });

  it('a change that rolls back sends nothing', async () => {
    const hook = await handler('/rollback', { events: ['link.expired'] });
    await expect(
      t.app.get(Db).write(async () => {
        const outbox = t.app.get(Outbox);
        await outbox.write([{ event: 'link.expired', ownerId: owner.id, data: {} }], now);
        throw new Error('the change failed');
      }),
    ).rejects.toThrow('the change failed');
    await dispatcher.drain();
    expect(to('/rollback')).toHaveLength(0);
    expect((await deliveries(hook.id)).body.data).toEqual([]);
    await disable(hook.id);
  });

  (process.env.LINKDOCK_TEST_DB === 'postgres' ? it : it.skip)(
    'PostgreSQL: a handler deleted while its event fans out gets no delivery, and nothing is logged as an error',
    async () => {
      const gone = await handler('/gone', { events: ['link.expired'] });
      const kept = await handler('/kept', { events: ['link.expired'] });
      const errors = jest.spyOn(Logger.prototype, 'error');
      // The delete is under way (its row locked, not committed) when the event is written.
      const deleting = t.dataSource.createQueryRunner();
      await deleting.connect();
      try {
        await deleting.startTransaction();
        const [{ pid }] = (await deleting.query('SELECT pg_backend_pid() AS "pid"')) as {
          pid: number;
        }[];
        await deleting.query('DELETE FROM "notification_handlers" WHERE "id" = $1', [gone.id]);
        await raise('link.expired', { id: 11 });
        // The dispatcher's fan-out now waits for the delete's lock.
        for (let waited = 0; ; waited += 10) {
          const waiting = await t.dataSource.query<unknown[]>(
            'SELECT 1 FROM pg_stat_activity WHERE $1 = ANY(pg_blocking_pids("pid"))',
            [pid],
          );
          if (waiting.length > 0) break;
          if (waited > 10_000) throw new Error('the fan-out never waited for the delete');
          await new Promise((resolve) => setTimeout(resolve, 10));
        }
        await deleting.commitTransaction();
      } finally {
        await deleting.release();
      }
      await dispatcher.drain();
      expect(errors.mock.calls).toEqual([]);
      expect(to('/gone')).toHaveLength(0);
      expect(to('/kept').map((r) => JSON.parse(r.body).event)).toEqual(['link.expired']);
      const rows = await t.dataSource.query<unknown[]>(
        'SELECT 1 FROM "deliveries" WHERE "handler_id" = $1',
        [gone.id],
      );
      expect(rows).toEqual([]);
      await disable(kept.id);
    },
  );

  it('subscriptions filter; disabled handlers get nothing; a block’s chosen handlers get data.created', async () => {
    const links = await handler('/only-links', { events: ['link.created'] });
    const none = await handler('/none', { events: [] });
    const off = await handler('/off');
    await disable(off.id);
    const foreign = await handler('/foreign', {}, stranger);
    await raise('data.created', { id: 9 }, [none.id, foreign.id]);
    await raise('link.created', { id: 10 });
    await dispatcher.drain();
    expect(to('/only-links').map((r) => JSON.parse(r.body).event)).toEqual(['link.created']);
    expect(to('/none').map((r) => JSON.parse(r.body).event)).toEqual(['data.created']);
    expect(to('/off')).toHaveLength(0);
    expect(to('/foreign')).toHaveLength(0);
    const got = await t.http
      .get(`/v1/notification-handlers/${links.id}`)
      .set('Authorization', owner.auth);
    expect(got.body.data.events).toEqual(['link.created']);
    await Promise.all([disable(links.id), disable(none.id), disable(foreign.id, stranger)]);
  });

  it('the origin form format carries the record’s keys', async () => {
    const hook = await handler('/form', { events: [], webhook_format: 'form' });
    const [eventId] = await raise(
      'data.created',
      {
        id: 4,
        biolink_block_id: 7,
        link_id: 3,
        project_id: null,
        type: 'email_collector',
        data: { email: 'ana@example.com', name: 'Ana' },
        datetime: '2026-11-24 10:00:00',
      },
      [hook.id],
    );
    await dispatcher.drain();
    const [request] = to('/form');
    expect(request.headers['content-type']).toBe('application/x-www-form-urlencoded');
    expect(Object.fromEntries(new URLSearchParams(request.body))).toEqual({
      id: '4',
      biolink_block_id: '7',
      link_id: '3',
      type: 'email_collector',
      email: 'ana@example.com',
      name: 'Ana',
      datetime: '2026-11-24 10:00:00',
      event: 'data.created',
      event_id: eventId,
      created_at: expect.stringMatching(DATETIME),
    });
    // verify() throws on a bad signature; a form body is checked as it is, unparsed.
    expect(() =>
      new Webhook(hook.webhook_secret).verify(
        request.body,
        request.headers as Record<string, string>,
        { jsonParse: false },
      ),
    ).not.toThrow();
    await disable(hook.id);
  });

  it('retry makes a failed delivery due again; others’ handlers and deliveries are 404', async () => {
    const hook = await handler('/retry', { events: ['link.expired'] });
    const other = await handler('/other', { events: ['link.expired'] });
    http.answers.set('/retry', { status: 500 });
    await raise('link.expired', { id: 5 });
    await dispatcher.drain();
    const [row] = (await deliveries(hook.id)).body.data;
    const [otherRow] = (await deliveries(other.id)).body.data;
    http.answers.delete('/retry');

    const notFound = (code: string) => ({
      errors: [{ status: 404, title: expect.any(String), code }],
    });
    const foreignList = await deliveries(hook.id, '', stranger);
    expect(foreignList.status).toBe(404);
    expect(foreignList.body).toEqual(notFound('notification_handler_not_found'));
    const foreignRetry = await t.http
      .post(`/v1/notification-handlers/${hook.id}/deliveries/${row.id}/retry`)
      .set('Authorization', stranger.auth);
    expect(foreignRetry.status).toBe(404);
    const wrongHandler = await t.http
      .post(`/v1/notification-handlers/${hook.id}/deliveries/${otherRow.id}/retry`)
      .set('Authorization', owner.auth);
    expect(wrongHandler.status).toBe(404);
    expect(wrongHandler.body).toEqual(notFound('delivery_not_found'));

    const retried = await t.http
      .post(`/v1/notification-handlers/${hook.id}/deliveries/${row.id}/retry`)
      .set('Authorization', owner.auth);
    expect(retried.status).toBe(200);
    expect(retried.body.data).toMatchObject({ id: row.id, status: 'pending', attempts: 1 });
    await dispatcher.drain();
    const [after] = (await deliveries(hook.id)).body.data;
    expect(after).toMatchObject({ status: 'delivered', attempts: 2, last_status_code: 200 });
    const bad = await deliveries(hook.id, '?status=lost');
    expect(bad.status).toBe(400);
    await Promise.all([disable(hook.id), disable(other.id)]);
  });

  it('a payment recorded from a signed Stripe checkout reaches the payer’s webhook as payment.created', async () => {
    // The payer is a user of their own: the plan bought here must not limit the owner's tests.
    const payer = await t.createUser();
    const hook = await handler('/paid', { events: ['payment.created'] }, payer);
    const plan = await t.app.get(PlansService).create({
      name: 'Events Pro',
      settings: { links_limit: 1000 },
      price_ids: { stripe: { monthly: 'price_events_m' } },
    });
    // The event is shaped by the `stripe` SDK's own types and signed by its test header helper.
    const created = Math.floor(now.getTime() / 1000);
    const body = stripeEvent(
      'checkout.session.completed',
      {
        id: 'cs_events_1',
        object: 'checkout.session',
        mode: 'subscription',
        status: 'complete',
        payment_status: 'paid',
        client_reference_id: String(payer.id),
        customer: 'cus_events',
        customer_details: { email: 'payer.billing@example.org', name: 'Payer' },
        subscription: 'sub_events',
        invoice: 'in_events_1',
        currency: 'eur',
        amount_subtotal: 999,
        amount_total: 999,
        metadata: { plan_id: String(plan.id), frequency: 'monthly' },
      },
      created,
    );
    const res = await t.http
      .post('/webhooks/stripe')
      .set('Content-Type', 'application/json')
      .set('Stripe-Signature', stripeSignature(body, STRIPE_SECRET, created))
      .send(body);
    expect(res.status).toBe(200);
    expect(res.body).toEqual({ data: { result: 'recorded', payment_id: expect.any(Number) } });
    await dispatcher.drain();

    expect(to('/paid')).toHaveLength(1);
    const [request] = to('/paid');
    const verified = new Webhook(hook.webhook_secret).verify(
      request.body,
      request.headers as Record<string, string>,
    );
    const payment = await t.http
      .get(`/v1/payments/${res.body.data.payment_id}`)
      .set('Authorization', payer.auth);
    expect(payment.status).toBe(200);
    expect(verified).toEqual({
      id: expect.stringMatching(/^evt_[\w-]{22}$/),
      event: 'payment.created',
      created_at: expect.stringMatching(DATETIME),
      data: payment.body.data,
    });
    await disable(hook.id, payer);
  });

  it('checked the deliveries of every event against docs/openapi.json (afterEach)', () => {
    expect([...documented].sort()).toEqual([...EVENT_NAMES].sort());
  });
});
