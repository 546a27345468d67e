import { randomBytes } from 'node:crypto';
import { createServer, IncomingMessage, Server, ServerResponse } from 'node:http';
import { AddressInfo } from 'node:net';
import { Db, Outbox } from '@app/database';
import {
  BUILT,
  closeAfterAll,
  createTestApp,
  createTestDatabase,
  currentTestDb,
  requireBuilt,
  startBuilt,
  stopStarted,
  TestApp,
  waitFor,
} from '@app/testing';
import { EventDispatcher } from '../apps/worker/src/dispatch/event-dispatcher';

/** A receiver that records every request's webhook-id; `hold` keeps requests unanswered. */
class Receiver {
  readonly ids: string[] = [];
  hold = false;
  private readonly held: ServerResponse[] = [];
  private server!: Server;
  url = '';

  async start(): Promise<this> {
    this.server = createServer((req: IncomingMessage, res: ServerResponse) => {
      req.resume();
      req.on('end', () => {
        this.ids.push(String(req.headers['webhook-id']));
        if (this.hold) {
          this.held.push(res);
          return;
        }
        res.writeHead(200).end('ok');
      });
    });
    await new Promise<void>((resolve) => this.server.listen(0, '127.0.0.1', resolve));
    this.url = `http://127.0.0.1:${(this.server.address() as AddressInfo).port}/hook`;
    return this;
  }

  stop(): Promise<void> {
    this.held.forEach((res) => res.destroy());
    this.server.closeAllConnections();
    return new Promise((resolve) => this.server.close(() => resolve()));
  }
}

function duplicates(ids: string[]): number {
  return ids.length - new Set(ids).size;
}

describe('Events with worker processes', () => {
  const opened = closeAfterAll();
  afterAll(() => stopStarted());

  it('a worker killed mid-delivery leaves the delivery to the next one, which delivers it', async () => {
    requireBuilt(BUILT.worker);
    // The built worker reads its database from the environment: a SQLite file both share.
    const database = opened.add(await createTestDatabase('sqlite'), (db) => db.drop());
    const receiver = opened.add(await new Receiver().start(), (r) => r.stop());
    const env = {
      ...database.env,
      SECRETS_KEY: randomBytes(32).toString('base64'),
      ALLOW_PRIVATE_WEBHOOKS: '1',
      EVENTS_LEASE_SECONDS: '3',
      NOTIFY_TIMEOUT_MS: '30000',
    };
    const t = opened.add(await createTestApp({ database, env: { ...env, WORKER: 'external' } }));
    const user = await t.createUser();
    const handler = await t.http
      .post('/v1/notification-handlers')
      .set('Authorization', user.auth)
      .send({ name: 'Slow', type: 'webhook', webhook: receiver.url, events: ['link.created'] });
    expect(handler.status).toBe(201);

    receiver.hold = true;
    const first = startBuilt(BUILT.worker, { ...env, WORKER: 'external' });
    const created = await t.http
      .post('/v1/links')
      .set('Authorization', user.auth)
      .send({ location_url: 'https://example.com/crash' });
    expect(created.status).toBe(201);
    await waitFor(() => receiver.ids.length === 1, 20_000, first.output);
    first.child.kill('SIGKILL');
    expect(await first.exited).toEqual({ code: null, signal: 'SIGKILL' });

    receiver.hold = false;
    const second = startBuilt(BUILT.worker, { ...env, WORKER: 'external' });
    await waitFor(() => receiver.ids.length === 2, 20_000, second.output);
    expect(receiver.ids[1]).toBe(receiver.ids[0]);
    // The second attempt is recorded once the receiver has answered it.
    let after: { body: { data: Array<Record<string, unknown>> } } | undefined;
    for (let i = 0; i < 100; i += 1) {
      after = await t.http
        .get(`/v1/notification-handlers/${handler.body.data.id}/deliveries`)
        .set('Authorization', user.auth);
      if (after.body.data[0]?.status === 'delivered') break;
      await new Promise((resolve) => setTimeout(resolve, 100));
    }
    expect(after!.body.data[0]).toMatchObject({
      message_id: receiver.ids[0],
      status: 'delivered',
      attempts: 2,
      last_status_code: 200,
    });
    second.child.kill('SIGTERM');
    expect(await second.exited).toEqual({ code: 0, signal: null });
  }, 60_000);

  it('two workers on one database deliver 2,000 events exactly once each', async () => {
    const database = opened.add(await createTestDatabase(), (db) => db.drop());
    const receiver = opened.add(await new Receiver().start(), (r) => r.stop());
    const env = {
      SECRETS_KEY: randomBytes(32).toString('base64'),
      ALLOW_PRIVATE_WEBHOOKS: '1',
    };
    // Two complete apps, each with its own connection pool and dispatcher (WORKER=internal).
    const a: TestApp = opened.add(await createTestApp({ database, env }));
    const b: TestApp = opened.add(await createTestApp({ database, env }));
    const user = await a.createUser();
    const handler = await a.http
      .post('/v1/notification-handlers')
      .set('Authorization', user.auth)
      .send({ name: 'Counter', type: 'webhook', webhook: receiver.url, events: ['link.expired'] });
    expect(handler.status).toBe(201);

    const total = 2_000;
    for (let i = 0; i < total; i += 250) {
      await a.app.get(Db).write(() =>
        a.app.get(Outbox).write(
          Array.from({ length: 250 }, (_, j) => ({
            event: 'link.expired',
            ownerId: user.id,
            data: { id: i + j },
          })),
          new Date(),
        ),
      );
      // Each batch wakes one app in-process; the other hears it through LISTEN (PostgreSQL) or
      // its poll.
      b.app.get(EventDispatcher).wake();
    }
    await waitFor(
      () => new Set(receiver.ids).size === total,
      60_000,
      () => '',
    );
    await Promise.all([a.app.get(EventDispatcher).drain(), b.app.get(EventDispatcher).drain()]);
    const dup = duplicates(receiver.ids);
    process.stdout.write(
      `two workers (${currentTestDb()}): ${total} events, ${receiver.ids.length} requests, ${dup} duplicates\n`,
    );
    expect(dup).toBe(0);
    expect(receiver.ids).toHaveLength(total);
  }, 90_000);
});
