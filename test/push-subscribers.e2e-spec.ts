import { createECDH, createPublicKey, ECDH, randomBytes, verify } from 'node:crypto';
import * as ece from 'http_ece';
import { closeAfterAll, createTestApp, TestApp, TestUser } from '@app/testing';
import { EventDispatcher } from '../apps/worker/src/dispatch/event-dispatcher';
import { MockHttpServer } from './support/mock-servers';

const DATETIME = /^\d{4}-\d{2}-\d{2} \d{2}:\d{2}:\d{2}$/;

/** A browser's side of a push subscription: its P-256 key pair and auth secret. */
function browserKeys(): { ecdh: ECDH; p256dh: string; auth: string } {
  const ecdh = createECDH('prime256v1');
  ecdh.generateKeys();
  return {
    ecdh,
    p256dh: ecdh.getPublicKey().toString('base64url'),
    auth: randomBytes(16).toString('base64url'),
  };
}

/** Checks a VAPID Authorization header (RFC 8292) with node:crypto; returns the JWT claims. */
function checkVapid(header: string, publicKey: string): Record<string, unknown> {
  const match = /^vapid t=([\w-]+\.[\w-]+\.[\w-]+), k=([\w-]+)$/.exec(header);
  expect(match).not.toBeNull();
  const [, jwt, k] = match!;
  expect(k).toBe(publicKey);
  const [head, claims, signature] = jwt.split('.');
  expect(JSON.parse(Buffer.from(head, 'base64url').toString())).toEqual({
    typ: 'JWT',
    alg: 'ES256',
  });
  const point = Buffer.from(k, 'base64url');
  const key = createPublicKey({
    key: {
      kty: 'EC',
      crv: 'P-256',
      x: point.subarray(1, 33).toString('base64url'),
      y: point.subarray(33, 65).toString('base64url'),
    },
    format: 'jwk',
  });
  const ok = verify(
    'sha256',
    Buffer.from(`${head}.${claims}`),
    { key, dsaEncoding: 'ieee-p1363' },
    Buffer.from(signature, 'base64url'),
  );
  expect(ok).toBe(true);
  return JSON.parse(Buffer.from(claims, 'base64url').toString()) as Record<string, unknown>;
}

describe('Push subscribers and web push', () => {
  let t: TestApp;
  let owner: TestUser;
  let stranger: TestUser;
  let vapidKey: string;
  const push = new MockHttpServer();
  const opened = closeAfterAll();

  beforeAll(async () => {
    opened.add(await push.start(), (server) => server.stop());
    t = opened.add(await createTestApp({ env: { ALLOW_PRIVATE_WEBHOOKS: '1' } }));
    owner = await t.createUser();
    stranger = await t.createUser();
    const key = await t.http
      .get('/v1/push-subscribers/vapid-public-key')
      .set('Authorization', owner.auth);
    expect(key.status).toBe(200);
    vapidKey = key.body.data.public_key as string;
    expect(Buffer.from(vapidKey, 'base64url')).toHaveLength(65);
  });
  beforeEach(() => push.reset());

  async function subscribe(keys: { p256dh: string; auth: string }, path: string, user = owner) {
    const res = await t.http
      .post('/v1/push-subscribers')
      .set('Authorization', user.auth)
      .send({ name: 'Laptop', endpoint: `${push.url}${path}`, keys });
    expect(res.status).toBe(201);
    return res.body.data.id as number;
  }

  async function pushHandler(subscriberId: number, user = owner) {
    const res = await t.http
      .post('/v1/notification-handlers')
      .set('Authorization', user.auth)
      .send({
        name: 'Browser',
        type: 'push_subscriber_id',
        push_subscriber_id: String(subscriberId),
        events: ['link.created'],
      });
    return res;
  }

  it('stores a subscription and shows it with its endpoint masked', async () => {
    const keys = browserKeys();
    const id = await subscribe(keys, '/push/show-me-1234');
    const got = await t.http.get(`/v1/push-subscribers/${id}`).set('Authorization', owner.auth);
    expect(got.status).toBe(200);
    expect(got.body).toEqual({
      data: {
        id,
        name: 'Laptop',
        endpoint: `${push.url}/****1234`,
        last_datetime: null,
        datetime: expect.stringMatching(DATETIME),
      },
    });
    // The same browser again updates that subscriber.
    const again = await t.http
      .post('/v1/push-subscribers')
      .set('Authorization', owner.auth)
      .send({ endpoint: `${push.url}/push/show-me-1234`, keys: browserKeys() });
    expect(again.body).toEqual({ data: { id } });
    const foreign = await t.http
      .get(`/v1/push-subscribers/${id}`)
      .set('Authorization', stranger.auth);
    expect(foreign.status).toBe(404);
  });

  it('an event reaches the browser: encrypted for its keys (http_ece) and signed with VAPID', async () => {
    const keys = browserKeys();
    const id = await subscribe(keys, '/push/event');
    const handler = await pushHandler(id);
    expect(handler.status).toBe(201);
    const link = await t.http
      .post('/v1/links')
      .set('Authorization', owner.auth)
      .send({ location_url: 'https://example.com/pushed' });
    expect(link.status).toBe(201);
    await t.app.get(EventDispatcher).drain();

    expect(push.received).toHaveLength(1);
    const [request] = push.received;
    expect(request.url).toBe('/push/event');
    expect(request.headers['content-encoding']).toBe('aes128gcm');
    expect(Number(request.headers.ttl)).toBeGreaterThan(0);
    const claims = checkVapid(String(request.headers.authorization), vapidKey);
    expect(claims).toEqual({
      aud: push.url,
      exp: expect.any(Number),
      sub: expect.stringMatching(/^mailto:/),
    });
    expect(claims.exp as number).toBeGreaterThan(Date.now() / 1000);
    // What a browser would do with the raw bytes: decrypt with its private key and auth secret.
    const read = await t.http
      .get(`/v1/links/${link.body.data.id}`)
      .set('Authorization', owner.auth);
    const plain = ece.decrypt(request.raw, {
      version: 'aes128gcm',
      privateKey: keys.ecdh,
      authSecret: keys.auth,
    });
    expect(JSON.parse(plain.toString('utf8'))).toEqual({
      title: 'Link created',
      body: `${read.body.data.full_url} was created, pointing to https://example.com/pushed. ${read.body.data.full_url}`,
      event: 'link.created',
      event_id: expect.stringMatching(/^evt_/),
      url: read.body.data.full_url,
    });
    const subscriber = await t.http
      .get(`/v1/push-subscribers/${id}`)
      .set('Authorization', owner.auth);
    expect(subscriber.body.data.last_datetime).toMatch(DATETIME);
  });

  it('a push service answering 410 removes the subscriber; the test route reports it', async () => {
    const id = await subscribe(browserKeys(), '/push/gone');
    const handler = await pushHandler(id);
    push.answers.set('/push/gone', { status: 410, body: 'push subscription has unsubscribed' });
    const res = await t.http
      .post(`/v1/notification-handlers/${handler.body.data.id}/test`)
      .set('Authorization', owner.auth);
    expect(res.status).toBe(200);
    expect(res.body).toEqual({
      data: {
        ok: false,
        status_code: 410,
        latency_ms: expect.any(Number),
        error: `The push service answered 410: the browser unsubscribed, so push subscriber ${id} was removed.`,
      },
    });
    const got = await t.http.get(`/v1/push-subscribers/${id}`).set('Authorization', owner.auth);
    expect(got.status).toBe(404);
  });

  it('an event to a subscriber the push service says is gone fails at once, removes it and turns the handler off', async () => {
    const id = await subscribe(browserKeys(), '/push/gone-event');
    const handler = await pushHandler(id);
    push.answers.set('/push/gone-event', {
      status: 410,
      body: 'push subscription has unsubscribed',
    });
    const link = await t.http
      .post('/v1/links')
      .set('Authorization', owner.auth)
      .send({ location_url: 'https://example.com/unread' });
    expect(link.status).toBe(201);
    const dispatcher = t.app.get(EventDispatcher);
    await dispatcher.drain();
    const log = await t.http
      .get(`/v1/notification-handlers/${handler.body.data.id}/deliveries`)
      .set('Authorization', owner.auth);
    const error = `The push service answered 410: the browser unsubscribed, so push subscriber ${id} was removed.`;
    expect(log.body.data).toEqual([
      expect.objectContaining({
        status: 'failed',
        attempts: 1,
        last_status_code: 410,
        last_error: error,
        next_attempt_datetime: null,
      }),
    ]);
    const got = await t.http
      .get(`/v1/notification-handlers/${handler.body.data.id}`)
      .set('Authorization', owner.auth);
    expect(got.body.data).toMatchObject({
      is_enabled: false,
      disabled_reason: expect.stringMatching(/^Disabled on \d{4}-\d{2}-\d{2}: /),
    });
    expect(got.body.data.disabled_reason).toContain(error);
    expect(push.received.filter((r) => r.url === '/push/gone-event')).toHaveLength(1);
    // Turning it on again is refused while it names a subscriber that is gone.
    const on = await t.http
      .post(`/v1/notification-handlers/${handler.body.data.id}`)
      .set('Authorization', owner.auth)
      .send({ is_enabled: true });
    expect(on.status).toBe(400);
    expect(on.body.errors[0]).toMatchObject({ field: 'push_subscriber_id' });
  });

  it('refuses bad subscriptions with 400s naming the field, and others’ subscribers', async () => {
    const good = browserKeys();
    const cases: Array<[Record<string, unknown>, string, string]> = [
      [
        { endpoint: 'ftp://push.example/x', keys: good },
        'endpoint',
        'endpoint must be an https URL of a push service.',
      ],
      [
        {
          endpoint: `${push.url}/p`,
          keys: { p256dh: randomBytes(65).toString('base64url'), auth: good.auth },
        },
        'keys[p256dh]',
        'keys[p256dh] must be a P-256 public key: 65 bytes starting with 0x04, base64url.',
      ],
      [
        {
          endpoint: `${push.url}/p`,
          keys: { p256dh: good.p256dh, auth: randomBytes(8).toString('base64url') },
        },
        'keys[auth]',
        'keys[auth] must be 16 bytes, base64url.',
      ],
    ];
    for (const [body, field, title] of cases) {
      const res = await t.http
        .post('/v1/push-subscribers')
        .set('Authorization', owner.auth)
        .send(body);
      expect(res.status).toBe(400);
      expect(res.body).toEqual({
        errors: [{ status: 400, title, field, code: 'validation_failed' }],
      });
    }
    const missing = await t.http
      .post('/v1/push-subscribers')
      .set('Authorization', owner.auth)
      .send({ endpoint: `${push.url}/p` });
    expect(missing.status).toBe(400);
    expect(missing.body.errors[0]).toMatchObject({ field: 'keys', code: 'validation_failed' });

    const theirs = await subscribe(browserKeys(), '/push/theirs', stranger);
    const handler = await pushHandler(theirs);
    expect(handler.status).toBe(400);
    expect(handler.body).toEqual({
      errors: [
        {
          status: 400,
          title: `push_subscriber_id ${theirs} is not one of your push subscribers.`,
          field: 'push_subscriber_id',
          code: 'validation_failed',
        },
      ],
    });
    const del = await t.http
      .delete(`/v1/push-subscribers/${theirs}`)
      .set('Authorization', owner.auth);
    expect(del.status).toBe(404);
    const own = await t.http
      .delete(`/v1/push-subscribers/${theirs}`)
      .set('Authorization', stranger.auth);
    expect(own.body).toEqual({ data: { id: theirs } });
  });
});
