import { createHmac } from 'node:crypto';
import { Webhook } from 'standardwebhooks';
import { EVENT_NAMES, oauth1Header } from '@app/notifications';
import { closeAfterAll, createTestApp, TestApp, TestUser } from '@app/testing';
import { MockHttpServer, MockSmtpServer } from './support/mock-servers';

const DATETIME = /^\d{4}-\d{2}-\d{2} \d{2}:\d{2}:\d{2}$/;
const SLACK = 'https://hooks.slack.com/services/T000/B000/XXXXXXXXXXXXsecret1234';
const DISCORD = 'https://discord.com/api/webhooks/123456/AbCdEfGhIjKl_secret-5678';
const TEAMS = 'https://contoso.webhook.office.com/webhookb2/abc/IncomingWebhook/def/ghi9876';
const GCHAT = 'https://chat.googleapis.com/v1/spaces/AAA/messages?key=k&token=tok4321';
const TG_TOKEN = '123456789:AAHdqTcvCH1vGWJxfSeofSAs0K5PALDsaw';

describe('Notification handlers', () => {
  let t: TestApp;
  let owner: TestUser;
  let stranger: TestUser;
  const http = new MockHttpServer();
  const smtp = new MockSmtpServer();
  const opened = closeAfterAll();

  beforeAll(async () => {
    opened.add(await http.start(), (server) => server.stop());
    opened.add(await smtp.start(), (server) => server.stop());
    t = await createTestApp({
      env: {
        ALLOW_PRIVATE_WEBHOOKS: '1',
        NOTIFY_TIMEOUT_MS: '5000',
        NOTIFY_VENDOR_BASE_URL: `${http.url}/vendor`,
        TELEGRAM_API_URL: `${http.url}/telegram`,
        X_API_URL: `${http.url}/x`,
        SMTP_URL: `smtp://127.0.0.1:${smtp.port}`,
        SMTP_FROM: 'Linkdock <bot@links.test>',
        TWILIO_API_URL: `${http.url}/twilio`,
        TWILIO_ACCOUNT_SID: 'AC0123456789',
        TWILIO_AUTH_TOKEN: 'twilio-token',
        TWILIO_FROM: '+15550001111',
        WHATSAPP_API_URL: `${http.url}/whatsapp/v21.0`,
        WHATSAPP_TOKEN: 'wa-token',
        WHATSAPP_PHONE_NUMBER_ID: '1098765',
      },
    });
    opened.add(t);
    owner = await t.createUser();
    stranger = await t.createUser();
  });
  beforeEach(() => http.reset());

  async function create(fields: Record<string, unknown>, user = owner) {
    const res = await t.http
      .post('/v1/notification-handlers')
      .set('Authorization', user.auth)
      .send(fields);
    expect(res.status).toBe(201);
    return res.body as { data: { id: number; webhook_secret?: string } };
  }

  async function test(id: number) {
    const res = await t.http
      .post(`/v1/notification-handlers/${id}/test`)
      .set('Authorization', owner.auth);
    return res;
  }

  const OK_OUTCOME = (status: number) => ({
    data: { ok: true, status_code: status, latency_ms: expect.any(Number), error: null },
  });

  describe('create and read back', () => {
    it('email: from a form, enabled by default, settings shown as given', async () => {
      const res = await t.http
        .post('/v1/notification-handlers')
        .set('Authorization', owner.auth)
        .field({ name: 'Work email', type: 'email', email: 'hey@example.com' });
      expect(res.status).toBe(201);
      expect(res.body).toEqual({ data: { id: expect.any(Number) } });
      const got = await t.http
        .get(`/v1/notification-handlers/${res.body.data.id}`)
        .set('Authorization', owner.auth);
      expect(got.status).toBe(200);
      expect(got.body).toEqual({
        data: {
          id: res.body.data.id,
          type: 'email',
          name: 'Work email',
          settings: { email: 'hey@example.com' },
          is_enabled: true,
          events: [...EVENT_NAMES],
          team_id: null,
          disabled_reason: null,
          last_datetime: null,
          datetime: expect.stringMatching(DATETIME),
        },
      });
    });

    it.each([
      ['slack', { slack: SLACK }, { slack: 'https://hooks.slack.com/****1234' }],
      ['discord', { discord: DISCORD }, { discord: 'https://discord.com/****5678' }],
      [
        'microsoft_teams',
        { microsoft_teams: TEAMS },
        { microsoft_teams: 'https://contoso.webhook.office.com/****9876' },
      ],
      [
        'google_chat',
        { google_chat: GCHAT },
        { google_chat: 'https://chat.googleapis.com/****4321' },
      ],
      [
        'telegram',
        { telegram: TG_TOKEN, telegram_chat_id: '-100123' },
        { telegram: '****Dsaw', telegram_chat_id: '-100123' },
      ],
      ['twilio', { twilio: '+15551234567' }, { twilio: '+15551234567' }],
      ['twilio_call', { twilio_call: '+15551234567' }, { twilio_call: '+15551234567' }],
      ['whatsapp', { whatsapp: '+447700900123' }, { whatsapp: '+447700900123' }],
      [
        'x',
        {
          x_consumer_key: 'ck_0123456789abcd',
          x_consumer_secret: 'cs_0123456789abcdefgh',
          x_access_token: '12345-at0123456789xyz1',
          x_access_token_secret: 'ats_0123456789abcd9999',
        },
        {
          x_consumer_key: '****abcd',
          x_consumer_secret: '****efgh',
          x_access_token: '****xyz1',
          x_access_token_secret: '****9999',
        },
      ],
    ])('%s: secrets are masked in the response', async (type, fields, shown) => {
      const { data } = await create({ name: type, type, ...fields, is_enabled: 0 });
      const got = await t.http
        .get(`/v1/notification-handlers/${data.id}`)
        .set('Authorization', owner.auth);
      expect(got.body.data).toEqual({
        id: data.id,
        type,
        name: type,
        settings: shown,
        is_enabled: false,
        events: [...EVENT_NAMES],
        team_id: null,
        disabled_reason: null,
        last_datetime: null,
        datetime: expect.stringMatching(DATETIME),
      });
    });

    it('stores secrets encrypted: the row holds no secret in clear text', async () => {
      const { data } = await create({ name: 'S', type: 'slack', slack: SLACK });
      const rows: Array<{ settings_encrypted: string }> = await t.dataSource.query(
        `SELECT settings_encrypted FROM notification_handlers WHERE id = ${data.id}`,
      );
      expect(rows[0].settings_encrypted).toMatch(/^v1\.[\w-]+\.[\w-]+\.[\w-]+$/);
      expect(rows[0].settings_encrypted).not.toContain('secret1234');
      expect(rows[0].settings_encrypted).not.toContain('hooks.slack.com');
    });

    it('webhook: returns a generated signing secret once, masked afterwards', async () => {
      const { data } = await create({ name: 'Hook', type: 'webhook', webhook: `${http.url}/hook` });
      expect(data).toEqual({
        id: expect.any(Number),
        webhook_secret: expect.stringMatching(/^whsec_[A-Za-z0-9+/]{32}$/),
      });
      const got = await t.http
        .get(`/v1/notification-handlers/${data.id}`)
        .set('Authorization', owner.auth);
      expect(got.body.data.settings).toEqual({
        webhook: 'http://127.0.0.1:' + new URL(http.url).port + '/****hook',
        webhook_secret: `****${data.webhook_secret!.slice(-4)}`,
      });
    });
  });

  describe('test deliveries reach the mock servers', () => {
    it('webhook: signed JSON with a timestamp', async () => {
      const secret = 'my-webhook-secret-0123456789';
      const { data } = await create({
        name: 'Hook',
        type: 'webhook',
        webhook: `${http.url}/hook?x=1`,
        webhook_secret: secret,
      });
      const res = await test(data.id);
      expect(res.status).toBe(200);
      expect(res.body).toEqual(OK_OUTCOME(200));
      expect(http.received).toHaveLength(1);
      const [got] = http.received;
      expect(got.method).toBe('POST');
      expect(got.url).toBe('/hook?x=1');
      expect(got.headers['content-type']).toBe('application/json');
      expect(got.headers['x-linkdock-event']).toBe('test');
      const timestamp = got.headers['x-linkdock-timestamp'] as string;
      expect(Math.abs(Number(timestamp) - Date.now() / 1000)).toBeLessThan(300);
      const expected = createHmac('sha256', secret)
        .update(`${timestamp}.${got.body}`)
        .digest('hex');
      expect(got.headers['x-linkdock-signature']).toBe(`sha256=${expected}`);
      // The same body and Standard Webhooks headers as an event; a secret chosen by hand is the
      // key bytes, given to the library as whsec_ + its base64 (docs/events.md).
      expect(got.headers['webhook-id']).toMatch(/^msg_[A-Za-z0-9_-]{22}$/);
      expect(got.headers['webhook-timestamp']).toBe(timestamp);
      const payload = new Webhook(`whsec_${Buffer.from(secret).toString('base64')}`).verify(
        got.body,
        got.headers as Record<string, string>,
      );
      expect(payload).toEqual({
        id: expect.stringMatching(/^evt_[A-Za-z0-9_-]{22}$/),
        event: 'test',
        created_at: expect.stringMatching(DATETIME),
        data: { notification_handler_id: data.id, type: 'webhook' },
      });
    });

    it('webhook: the test delivery verifies with standardwebhooks and a generated secret, JSON or form', async () => {
      const json = await create({ name: 'Std', type: 'webhook', webhook: `${http.url}/std` });
      const form = await create({
        name: 'Std form',
        type: 'webhook',
        webhook: `${http.url}/std-form`,
        webhook_format: 'form',
      });
      for (const { data } of [json, form]) {
        expect((await test(data.id)).body).toEqual(OK_OUTCOME(200));
      }
      const [first, second] = http.received;
      const headers = (r: typeof first) => r.headers as Record<string, string>;
      expect(
        new Webhook(String(json.data.webhook_secret)).verify(first.body, headers(first)),
      ).toEqual({
        id: expect.stringMatching(/^evt_/),
        event: 'test',
        created_at: expect.stringMatching(DATETIME),
        data: { notification_handler_id: json.data.id, type: 'webhook' },
      });
      // A form body: verified unparsed (docs/events.md, "Verifying a form body"), then read.
      expect(second.headers['content-type']).toBe('application/x-www-form-urlencoded');
      expect(
        new Webhook(String(form.data.webhook_secret)).verify(second.body, headers(second), {
          jsonParse: false,
        }),
      ).toBeUndefined();
      expect(Object.fromEntries(new URLSearchParams(second.body))).toEqual({
        notification_handler_id: String(form.data.id),
        type: 'webhook',
        event: 'test',
        event_id: expect.stringMatching(/^evt_/),
        created_at: expect.stringMatching(DATETIME),
      });
      // Each test is its own message: a new webhook-id every time.
      expect(first.headers['webhook-id']).not.toBe(second.headers['webhook-id']);
    });

    it('webhook: a refusing target is a 200 with ok false, the status and an excerpt', async () => {
      http.answers.set('/down', { status: 503, body: 'maintenance' });
      const { data } = await create({ name: 'Down', type: 'webhook', webhook: `${http.url}/down` });
      const res = await test(data.id);
      expect(res.status).toBe(200);
      expect(res.body).toEqual({
        data: {
          ok: false,
          status_code: 503,
          latency_ms: expect.any(Number),
          error: 'The target answered 503: maintenance',
        },
      });
    });

    it.each([
      [
        'slack',
        SLACK,
        '/vendor/slack/services/T000/B000/XXXXXXXXXXXXsecret1234',
        {
          text: '*Linkdock test notification*\nThis is a test message for the notification handler "slack".',
        },
      ],
      [
        'discord',
        DISCORD,
        '/vendor/discord/api/webhooks/123456/AbCdEfGhIjKl_secret-5678',
        {
          embeds: [
            {
              title: 'Linkdock test notification',
              description: 'This is a test message for the notification handler "discord".',
              color: 0x2563eb,
            },
          ],
        },
      ],
      [
        'google_chat',
        GCHAT,
        '/vendor/google_chat/v1/spaces/AAA/messages?key=k&token=tok4321',
        {
          text: '*Linkdock test notification*\nThis is a test message for the notification handler "google_chat".',
        },
      ],
      [
        'microsoft_teams',
        TEAMS,
        '/vendor/microsoft_teams/webhookb2/abc/IncomingWebhook/def/ghi9876',
        {
          text: '**Linkdock test notification**\n\nThis is a test message for the notification handler "microsoft_teams".',
        },
      ],
    ])('%s: the vendor webhook payload', async (type, url, path, payload) => {
      const { data } = await create({ name: type, type, [type]: url });
      const res = await test(data.id);
      expect(res.body).toEqual(OK_OUTCOME(200));
      expect(http.received).toEqual([
        expect.objectContaining({ method: 'POST', url: path, body: JSON.stringify(payload) }),
      ]);
      expect(http.received[0].headers['content-type']).toBe('application/json');
    });

    it('telegram: Bot API sendMessage with the chat id and escaped HTML', async () => {
      const { data } = await create({
        name: 'TG <b>',
        type: 'telegram',
        telegram: TG_TOKEN,
        telegram_chat_id: '@mychannel',
      });
      expect((await test(data.id)).body).toEqual(OK_OUTCOME(200));
      expect(http.received).toHaveLength(1);
      expect(http.received[0].url).toBe(`/telegram/bot${TG_TOKEN}/sendMessage`);
      expect(JSON.parse(http.received[0].body)).toEqual({
        chat_id: '@mychannel',
        text: '<b>Linkdock test notification</b>\nThis is a test message for the notification handler &quot;TG &lt;b&gt;&quot;.',
        parse_mode: 'HTML',
        disable_web_page_preview: true,
      });
    });

    it('twilio: Messages API with basic auth', async () => {
      http.answers.set('/twilio/2010-04-01/Accounts/AC0123456789/Messages.json', {
        status: 201,
        body: '{}',
      });
      const { data } = await create({ name: 'SMS', type: 'twilio', twilio: '+15551234567' });
      expect((await test(data.id)).body).toEqual(OK_OUTCOME(201));
      const [got] = http.received;
      expect(got.url).toBe('/twilio/2010-04-01/Accounts/AC0123456789/Messages.json');
      expect(got.headers.authorization).toBe(
        `Basic ${Buffer.from('AC0123456789:twilio-token').toString('base64')}`,
      );
      expect(Object.fromEntries(new URLSearchParams(got.body))).toEqual({
        To: '+15551234567',
        From: '+15550001111',
        Body: 'Linkdock test notification: This is a test message for the notification handler "SMS".',
      });
    });

    it('twilio_call: Calls API with inline TwiML', async () => {
      const { data } = await create({
        name: 'Call',
        type: 'twilio_call',
        twilio_call: '+15551234567',
      });
      expect((await test(data.id)).body).toEqual(OK_OUTCOME(200));
      const [got] = http.received;
      expect(got.url).toBe('/twilio/2010-04-01/Accounts/AC0123456789/Calls.json');
      expect(Object.fromEntries(new URLSearchParams(got.body))).toEqual({
        To: '+15551234567',
        From: '+15550001111',
        Twiml:
          '<Response><Say>Linkdock test notification: This is a test message for the notification handler &quot;Call&quot;.</Say></Response>',
      });
    });

    it('whatsapp: Cloud API text message with a bearer token', async () => {
      const { data } = await create({ name: 'WA', type: 'whatsapp', whatsapp: '+447700900123' });
      expect((await test(data.id)).body).toEqual(OK_OUTCOME(200));
      const [got] = http.received;
      expect(got.url).toBe('/whatsapp/v21.0/1098765/messages');
      expect(got.headers.authorization).toBe('Bearer wa-token');
      expect(JSON.parse(got.body)).toEqual({
        messaging_product: 'whatsapp',
        to: '447700900123',
        type: 'text',
        text: {
          preview_url: false,
          body: 'Linkdock test notification\nThis is a test message for the notification handler "WA".',
        },
      });
    });

    it('email: through SMTP to the address', async () => {
      const { data } = await create({ name: 'Mail', type: 'email', email: 'ops@example.com' });
      const res = await test(data.id);
      expect(res.body).toEqual(OK_OUTCOME(250));
      expect(smtp.mails).toHaveLength(1);
      expect(smtp.mails[0]).toMatchObject({ from: 'bot@links.test', to: ['ops@example.com'] });
      expect(smtp.mails[0].raw).toContain('Subject: Linkdock test notification');
      expect(smtp.mails[0].raw).toContain('This is a test message for the notification handler');
    });

    it('x: a post through API v2, signed with OAuth 1.0a', async () => {
      const keys = {
        x_consumer_key: 'ck_0123456789abcd',
        x_consumer_secret: 'cs_0123456789abcd',
        x_access_token: '12345-at_0123456789abcd',
        x_access_token_secret: 'ats_0123456789ab',
      };
      http.answers.set('/x/2/tweets', { status: 201, body: '{"data":{"id":"1"}}' });
      const { data } = await create({ name: 'X', type: 'x', ...keys });
      expect((await test(data.id)).body).toEqual(OK_OUTCOME(201));
      const [got] = http.received;
      expect(got.url).toBe('/x/2/tweets');
      expect(JSON.parse(got.body)).toEqual({
        text: 'Linkdock test notification: This is a test message for the notification handler "X".',
      });
      const params = Object.fromEntries(
        [...(got.headers.authorization ?? '').matchAll(/(\w+)="([^"]*)"/g)].map((m) => [
          m[1],
          decodeURIComponent(m[2]),
        ]),
      );
      expect(params).toMatchObject({
        oauth_consumer_key: keys.x_consumer_key,
        oauth_token: keys.x_access_token,
        oauth_signature_method: 'HMAC-SHA1',
        oauth_version: '1.0',
      });
      const expected = oauth1Header(
        'POST',
        `${http.url}/x/2/tweets`,
        {
          consumerKey: keys.x_consumer_key,
          consumerSecret: keys.x_consumer_secret,
          token: keys.x_access_token,
          tokenSecret: keys.x_access_token_secret,
        },
        {},
        params.oauth_nonce,
        Number(params.oauth_timestamp),
      );
      expect(got.headers.authorization).toBe(expected);
    });

    // push_subscriber_id: delivered to a local push service in push-subscribers.e2e-spec.ts.
  });

  describe('update', () => {
    it('changes name and is_enabled, keeps the secret when not sent', async () => {
      const { data } = await create({ name: 'Old', type: 'slack', slack: SLACK });
      const res = await t.http
        .post(`/v1/notification-handlers/${data.id}`)
        .set('Authorization', owner.auth)
        .field({ name: 'New', is_enabled: '0' });
      expect(res.status).toBe(200);
      expect(res.body).toEqual({ data: { id: data.id } });
      const got = await t.http
        .get(`/v1/notification-handlers/${data.id}`)
        .set('Authorization', owner.auth);
      expect(got.body.data).toEqual({
        id: data.id,
        type: 'slack',
        name: 'New',
        settings: { slack: 'https://hooks.slack.com/****1234' },
        is_enabled: false,
        events: [...EVENT_NAMES],
        team_id: null,
        disabled_reason: null,
        last_datetime: expect.stringMatching(DATETIME),
        datetime: expect.stringMatching(DATETIME),
      });
      expect((await test(data.id)).body).toEqual(OK_OUTCOME(200));
    });

    it("switching the type needs the new kind's fields and drops the old ones", async () => {
      const { data } = await create({ name: 'Switch', type: 'slack', slack: SLACK });
      const bad = await t.http
        .post(`/v1/notification-handlers/${data.id}`)
        .set('Authorization', owner.auth)
        .send({ type: 'email' });
      expect(bad.status).toBe(400);
      expect(bad.body).toEqual({
        errors: [
          {
            status: 400,
            title: 'email is required for type email.',
            field: 'email',
            code: 'validation_failed',
          },
        ],
      });
      await t.http
        .post(`/v1/notification-handlers/${data.id}`)
        .set('Authorization', owner.auth)
        .send({ type: 'email', email: 'x@example.com' })
        .expect(200);
      const got = await t.http
        .get(`/v1/notification-handlers/${data.id}`)
        .set('Authorization', owner.auth);
      expect(got.body.data).toMatchObject({ type: 'email', settings: { email: 'x@example.com' } });
    });
  });

  it('lists with type and is_enabled filters, search and order', async () => {
    const user = await t.createUser();
    const a = await create({ name: 'Alpha', type: 'email', email: 'a@example.com' }, user);
    const b = await create(
      { name: 'Beta', type: 'email', email: 'b@example.com', is_enabled: 0 },
      user,
    );
    await create({ name: 'Gamma', type: 'slack', slack: SLACK }, user);
    const res = await t.http
      .get('/v1/notification-handlers?type=email&order_by=name&order_type=ASC')
      .set('Authorization', user.auth);
    expect(res.status).toBe(200);
    expect(res.body.data.map((h: { id: number }) => h.id)).toEqual([a.data.id, b.data.id]);
    expect(res.body.meta).toEqual({
      page: 1,
      results_per_page: 25,
      total: 2,
      total_results: 2,
      total_pages: 1,
    });
    const enabled = await t.http
      .get('/v1/notification-handlers?is_enabled=0')
      .set('Authorization', user.auth);
    expect(enabled.body.data.map((h: { name: string }) => h.name)).toEqual(['Beta']);
    const search = await t.http
      .get('/v1/notification-handlers?search=amm&search_by=name')
      .set('Authorization', user.auth);
    expect(search.body.data.map((h: { name: string }) => h.name)).toEqual(['Gamma']);
    const bad = await t.http
      .get('/v1/notification-handlers?type=pager')
      .set('Authorization', user.auth);
    expect(bad.status).toBe(400);
    expect(bad.body.errors[0]).toMatchObject({ field: 'type', code: 'invalid_list_parameter' });
  });

  it('survives secrets it cannot read (another SECRETS_KEY): empty settings, 422 on test, fixed by sending the fields', async () => {
    const { data } = await create({ name: 'Rekeyed', type: 'slack', slack: SLACK });
    const other = await create({ name: 'Readable', type: 'email', email: 'a@example.com' });
    const sql =
      t.dataSource.options.type === 'postgres'
        ? 'UPDATE notification_handlers SET settings_encrypted = $1 WHERE id = $2'
        : 'UPDATE notification_handlers SET settings_encrypted = ? WHERE id = ?';
    await t.dataSource.query(sql, ['v1.AAAAAAAAAAAAAAAA.AAAAAAAAAAAAAAAAAAAAAA.AAAA', data.id]);

    const got = await t.http
      .get(`/v1/notification-handlers/${data.id}`)
      .set('Authorization', owner.auth);
    expect(got.status).toBe(200);
    expect(got.body.data.settings).toEqual({});
    const list = await t.http
      .get('/v1/notification-handlers?results_per_page=1000')
      .set('Authorization', owner.auth);
    expect(list.status).toBe(200);
    expect(list.body.data.map((h: { id: number }) => h.id)).toEqual(
      expect.arrayContaining([data.id, other.data.id]),
    );
    const res = await test(data.id);
    expect(res.status).toBe(422);
    expect(res.body).toEqual({
      errors: [
        {
          status: 422,
          title:
            'The secrets of this handler cannot be read with the current SECRETS_KEY; send its fields again.',
          code: 'unprocessable',
        },
      ],
    });
    const missing = await t.http
      .post(`/v1/notification-handlers/${data.id}`)
      .set('Authorization', owner.auth)
      .send({ name: 'Still rekeyed' });
    expect(missing.status).toBe(400);
    expect(missing.body.errors[0]).toMatchObject({
      field: 'slack',
      title: 'slack is required for type slack.',
    });
    await t.http
      .post(`/v1/notification-handlers/${data.id}`)
      .set('Authorization', owner.auth)
      .send({ slack: SLACK })
      .expect(200);
    expect((await test(data.id)).body).toEqual(OK_OUTCOME(200));
  });

  it("deletes a user's handlers with the user", async () => {
    const user = await t.createUser();
    await create({ name: 'Gone', type: 'email', email: 'a@example.com' }, user);
    await t.dataSource.query(`DELETE FROM users WHERE id = ${user.id}`);
    expect(
      await t.dataSource.query(`SELECT id FROM notification_handlers WHERE user_id = ${user.id}`),
    ).toEqual([]);
  });

  it('deletes, then answers 404', async () => {
    const { data } = await create({ name: 'Doomed', type: 'email', email: 'a@example.com' });
    const res = await t.http
      .delete(`/v1/notification-handlers/${data.id}`)
      .set('Authorization', owner.auth);
    expect(res.status).toBe(200);
    expect(res.body).toEqual({ data: { id: data.id } });
    expect(
      (await t.http.get(`/v1/notification-handlers/${data.id}`).set('Authorization', owner.auth))
        .status,
    ).toBe(404);
  });

  const V = 'validation_failed';
  it.each([
    ['a missing name', { type: 'email', email: 'a@b.co' }, 'name', 'name is required.'],
    [
      'a long name',
      { name: 'x'.repeat(65), type: 'email', email: 'a@b.co' },
      'name',
      'name must be at most 64 characters.',
    ],
    ['a missing type', { name: 'n' }, 'type', 'type is required.'],
    [
      'an unknown type',
      { name: 'n', type: 'pager' },
      'type',
      'type must be one of email, webhook, slack, discord, telegram, microsoft_teams, twilio, twilio_call, whatsapp, x, google_chat, push_subscriber_id.',
    ],
    ['a missing email', { name: 'n', type: 'email' }, 'email', 'email is required for type email.'],
    [
      'a bad email',
      { name: 'n', type: 'email', email: 'nope' },
      'email',
      'email must be an email address.',
    ],
    [
      'a webhook that is not http(s)',
      { name: 'n', type: 'webhook', webhook: 'ftp://example.com/x' },
      'webhook',
      'webhook must be an http(s) URL.',
    ],
    [
      'a javascript: webhook',
      { name: 'n', type: 'webhook', webhook: 'javascript:alert(1)' },
      'webhook',
      'webhook must be an http(s) URL.',
    ],
    [
      'a short webhook secret',
      { name: 'n', type: 'webhook', webhook: 'https://example.com', webhook_secret: 'short' },
      'webhook_secret',
      'webhook_secret must be 16 to 128 printable characters without spaces.',
    ],
    [
      'a slack URL on another host',
      { name: 'n', type: 'slack', slack: 'https://evil.example.com/services/x' },
      'slack',
      'slack must be a Slack incoming-webhook URL (https://hooks.slack.com/services/...).',
    ],
    [
      'a plain-http slack URL',
      { name: 'n', type: 'slack', slack: 'http://hooks.slack.com/services/T/B/X' },
      'slack',
      'slack must be a Slack incoming-webhook URL (https://hooks.slack.com/services/...).',
    ],
    [
      'a discord URL without a token',
      { name: 'n', type: 'discord', discord: 'https://discord.com/api/webhooks/123' },
      'discord',
      'discord must be a Discord webhook URL (https://discord.com/api/webhooks/{id}/{token}).',
    ],
    [
      'a teams URL on another host',
      {
        name: 'n',
        type: 'microsoft_teams',
        microsoft_teams: 'https://webhook.office.com.evil.io/x',
      },
      'microsoft_teams',
      'microsoft_teams must be a Teams webhook URL (https://....webhook.office.com/... or a Workflows URL on logic.azure.com or powerplatform.com).',
    ],
    [
      'a google chat URL without the key',
      {
        name: 'n',
        type: 'google_chat',
        google_chat: 'https://chat.googleapis.com/v1/spaces/A/messages',
      },
      'google_chat',
      'google_chat must be a Google Chat webhook URL (https://chat.googleapis.com/v1/spaces/.../messages?key=...).',
    ],
    [
      'a bad bot token',
      { name: 'n', type: 'telegram', telegram: 'token', telegram_chat_id: '1' },
      'telegram',
      'telegram must be a bot token as given by @BotFather (123456789:AA...).',
    ],
    [
      'a bad chat id',
      { name: 'n', type: 'telegram', telegram: TG_TOKEN, telegram_chat_id: 'abc' },
      'telegram_chat_id',
      'telegram_chat_id must be a chat id (a number) or a @channelname.',
    ],
    [
      'a phone number that is not E.164',
      { name: 'n', type: 'twilio', twilio: '555-1234' },
      'twilio',
      'twilio must be a phone number in E.164 form (+15551234567).',
    ],
    [
      'a whatsapp number without +',
      { name: 'n', type: 'whatsapp', whatsapp: '447700900123' },
      'whatsapp',
      'whatsapp must be a phone number in E.164 form (+15551234567).',
    ],
    [
      'a bad push subscriber id',
      { name: 'n', type: 'push_subscriber_id', push_subscriber_id: 'abc' },
      'push_subscriber_id',
      'push_subscriber_id must be the id of a push subscriber.',
    ],
    [
      'a field that is not text',
      { name: 'n', type: 'email', email: 5 },
      'email',
      'email must be text.',
    ],
    [
      'is_enabled that is not 0/1',
      { name: 'n', type: 'email', email: 'a@b.co', is_enabled: 'yes' },
      'is_enabled',
      'is_enabled must be 0 or 1.',
    ],
  ])('refuses %s with 400 naming the field', async (_case, fields, field, title) => {
    const res = await t.http
      .post('/v1/notification-handlers')
      .set('Authorization', owner.auth)
      .send(fields);
    expect(res.status).toBe(400);
    expect(res.body).toEqual({ errors: [{ status: 400, title, field, code: V }] });
  });

  it('refuses x without all four keys, naming each missing one', async () => {
    const res = await t.http
      .post('/v1/notification-handlers')
      .set('Authorization', owner.auth)
      .send({ name: 'n', type: 'x', x_consumer_key: 'ck_0123456789abcd' });
    expect(res.status).toBe(400);
    expect(res.body.errors.map((e: { field: string }) => e.field)).toEqual([
      'x_consumer_secret',
      'x_access_token',
      'x_access_token_secret',
    ]);
  });

  describe("another user's handler is a 404, like a missing one", () => {
    let id: number;
    beforeAll(async () => {
      id = (await create({ name: 'Private', type: 'webhook', webhook: `${http.url}/private` })).data
        .id;
    });
    const notFound = {
      errors: [
        {
          status: 404,
          title: 'The notification handler you are looking for does not exist.',
          code: 'notification_handler_not_found',
        },
      ],
    };

    it.each([
      ['GET', ''],
      ['POST', ''],
      ['POST', '/test'],
      ['DELETE', ''],
    ])('on %s %s, and nothing is sent or changed', async (method, suffix) => {
      const req = t.http[method.toLowerCase() as 'get' | 'post' | 'delete'](
        `/v1/notification-handlers/${id}${suffix}`,
      ).set('Authorization', stranger.auth);
      const res = method === 'POST' ? await req.send({ name: 'Hijacked' }) : await req;
      expect(res.status).toBe(404);
      expect(res.body).toEqual(notFound);
      expect(http.received).toEqual([]);
      const got = await t.http
        .get(`/v1/notification-handlers/${id}`)
        .set('Authorization', owner.auth);
      expect(got.body.data.name).toBe('Private');
    });

    it('in lists', async () => {
      const res = await t.http.get('/v1/notification-handlers').set('Authorization', stranger.auth);
      expect(res.body.data.map((h: { id: number }) => h.id)).not.toContain(id);
    });
  });

  it.each([
    ['GET', '/v1/notification-handlers'],
    ['GET', '/v1/notification-handlers/1'],
    ['POST', '/v1/notification-handlers'],
    ['POST', '/v1/notification-handlers/1'],
    ['POST', '/v1/notification-handlers/1/test'],
    ['DELETE', '/v1/notification-handlers/1'],
  ])('answers %s %s without a key with 401', async (method, path) => {
    const res = await t.http[method.toLowerCase() as 'get' | 'post' | 'delete'](path);
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

describe('Notification handlers with the SSRF guard on (the default)', () => {
  let t: TestApp;
  let user: TestUser;
  const http = new MockHttpServer();
  const opened = closeAfterAll();

  beforeAll(async () => {
    opened.add(await http.start(), (server) => server.stop());
    t = opened.add(await createTestApp({ env: { NOTIFY_TIMEOUT_MS: '5000' } }));
    user = await t.createUser();
  });

  it.each([
    [() => `${http.url}/hook`, '127.0.0.1'],
    [() => `http://[::1]:${new URL(http.url).port}/hook`, '::1'],
    [() => 'http://169.254.169.254/latest/meta-data/', '169.254.169.254'],
    [() => 'http://10.0.0.8/hook', '10.0.0.8'],
    [() => `http://localhost:${new URL(http.url).port}/hook`, 'localhost'],
  ])(
    'refuses a webhook to %p: 200 with ok false, nothing reaches the server',
    async (url, host) => {
      const created = await t.http
        .post('/v1/notification-handlers')
        .set('Authorization', user.auth)
        .send({ name: 'Inside', type: 'webhook', webhook: url() });
      expect(created.status).toBe(201);
      const res = await t.http
        .post(`/v1/notification-handlers/${created.body.data.id}/test`)
        .set('Authorization', user.auth);
      expect(res.status).toBe(200);
      expect(res.body).toEqual({
        data: {
          ok: false,
          status_code: null,
          latency_ms: expect.any(Number),
          error: `The host ${host} resolves to a private, loopback or link-local address, which is not allowed.`,
        },
      });
      expect(http.received).toEqual([]);
    },
  );

  it.each([
    [
      'twilio',
      'Delivery for twilio needs TWILIO_ACCOUNT_SID, TWILIO_AUTH_TOKEN and TWILIO_FROM on the server.',
    ],
    [
      'twilio_call',
      'Delivery for twilio_call needs TWILIO_ACCOUNT_SID, TWILIO_AUTH_TOKEN and TWILIO_FROM on the server.',
    ],
    [
      'whatsapp',
      'Delivery for whatsapp needs WHATSAPP_TOKEN and WHATSAPP_PHONE_NUMBER_ID on the server.',
    ],
  ])('refuses %s delivery without its server credentials with 400', async (type, title) => {
    const created = await t.http
      .post('/v1/notification-handlers')
      .set('Authorization', user.auth)
      .send({ name: type, type, [type]: '+15551234567' });
    expect(created.status).toBe(201);
    const res = await t.http
      .post(`/v1/notification-handlers/${created.body.data.id}/test`)
      .set('Authorization', user.auth);
    expect(res.status).toBe(400);
    expect(res.body).toEqual({
      errors: [{ status: 400, title, field: 'type', code: 'channel_unavailable' }],
    });
  });

  it('refuses email delivery without SMTP_URL with 400 channel_unavailable', async () => {
    const created = await t.http
      .post('/v1/notification-handlers')
      .set('Authorization', user.auth)
      .send({ name: 'Mail', type: 'email', email: 'a@example.com' });
    const res = await t.http
      .post(`/v1/notification-handlers/${created.body.data.id}/test`)
      .set('Authorization', user.auth);
    expect(res.status).toBe(400);
    expect(res.body).toEqual({
      errors: [
        {
          status: 400,
          title: 'Delivery for email needs SMTP_URL to be configured on the server.',
          field: 'type',
          code: 'channel_unavailable',
        },
      ],
    });
  });
});
