import { createServer, type Server, type Socket, connect } from 'node:net';
import {
  closeAfterAll,
  createTestApp,
  createTestDatabase,
  TEST_POSTGRES_URL,
  TestApp,
} from '@app/testing';

/**
 * A TCP proxy in front of PostgreSQL that can be cut (connections dropped, the port refusing) and
 * opened again on the same port: PostgreSQL going down and coming back, as the app sees it.
 */
class CuttableProxy {
  private server: Server | null = null;
  private readonly sockets = new Set<Socket>();
  port = 0;

  constructor(private readonly target: URL) {}

  async open(): Promise<void> {
    const server = createServer((client) => {
      const upstream = connect(Number(this.target.port || 5432), this.target.hostname);
      for (const socket of [client, upstream]) {
        this.sockets.add(socket);
        socket.on('close', () => this.sockets.delete(socket));
        socket.on('error', () => {
          client.destroy();
          upstream.destroy();
        });
      }
      client.pipe(upstream).pipe(client);
    });
    await new Promise<void>((resolve) => server.listen(this.port, '127.0.0.1', resolve));
    this.port = (server.address() as { port: number }).port;
    this.server = server;
  }

  async cut(): Promise<void> {
    const server = this.server;
    this.server = null;
    for (const socket of this.sockets) socket.destroy();
    if (server) await new Promise<void>((resolve) => server.close(() => resolve()));
  }

  close(): Promise<void> {
    return this.cut();
  }
}

describe('PostgreSQL unavailable', () => {
  const opened = closeAfterAll();
  let t: TestApp;
  let proxy: CuttableProxy;

  beforeAll(async () => {
    // Closed newest first: the app, then its schema, then the proxy the app shuts down through.
    proxy = opened.add(new CuttableProxy(new URL(TEST_POSTGRES_URL)));
    await proxy.open();
    const database = opened.add(await createTestDatabase('postgres'), (db) => db.drop());
    const url = new URL(database.env.DATABASE_URL);
    url.host = `127.0.0.1:${proxy.port}`;
    t = opened.add(
      await createTestApp({
        database: { ...database, env: { ...database.env, DATABASE_URL: url.toString() } },
        env: { API_RATE_LIMIT: '1000000' },
      }),
    );
  });

  it('answers 503 database_unavailable with Retry-After while PostgreSQL is down, then recovers', async () => {
    const user = await t.createUser();
    const up = await t.http.get('/v1/links').set('Authorization', user.auth);
    expect(up.status).toBe(200);

    await proxy.cut();
    for (const path of ['/v1/links', '/v1/user']) {
      const down = await t.http.get(path).set('Authorization', user.auth);
      expect(down.status).toBe(503);
      expect(down.headers['retry-after']).toBe('5');
      expect(down.body).toEqual({
        errors: [
          {
            status: 503,
            title: 'The database cannot be reached right now; try again in 5 seconds.',
            code: 'database_unavailable',
          },
        ],
      });
    }

    await proxy.open();
    const back = await t.http.get('/v1/links').set('Authorization', user.auth);
    expect(back.status).toBe(200);
  });
});
