import { createServer, type Server } from 'node:http';
import { type AddressInfo, connect } from 'node:net';
import { Writable } from 'node:stream';
import type { AppConfig } from '@app/config';
import { createHttpLogger, type HttpLogger } from './logger-options';

interface Line {
  level: number;
  msg: string;
  req?: { id: string; method: string; url: string; remoteAddress: string };
  res?: { statusCode: number };
  responseTime?: number;
}

describe(createHttpLogger.name, () => {
  let lines: Line[];
  let http: HttpLogger;
  let server: Server;
  let base: string;
  /** What the handler behind the middleware does. */
  let handle: (res: import('node:http').ServerResponse) => void;

  beforeEach(async () => {
    lines = [];
    const sink = new Writable({
      write(chunk: Buffer, _encoding, done) {
        for (const text of chunk.toString('utf8').split('\n').filter(Boolean)) {
          lines.push(JSON.parse(text) as Line);
        }
        done();
      },
    });
    http = createHttpLogger({ logLevel: 'info' } as AppConfig, sink);
    server = createServer((req, res) => http(req, res, () => handle(res)));
    await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
    base = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
  });

  afterEach(async () => {
    await new Promise<void>((resolve) => server.close(() => resolve()));
  });

  /** The lines once the response's own line is written. */
  async function settled(count: number): Promise<Line[]> {
    for (let i = 0; i < 100 && lines.length < count; i += 1) {
      await new Promise((resolve) => setTimeout(resolve, 5));
    }
    return lines;
  }

  it('writes one line per request, and the request on lines logged while it is served', async () => {
    handle = (res) => {
      setImmediate(() => {
        http.logger.info('inside the handler');
        res.end('ok');
      });
    };
    const response = await fetch(`${base}/v1/user?x=1`, {
      headers: { 'x-request-id': 'trace-12345678' },
    });
    expect(response.status).toBe(200);
    expect(response.headers.get('x-request-id')).toBe('trace-12345678');
    http.logger.info('outside any request');
    const [inside, completed, outside] = await settled(3);
    const req = {
      id: 'trace-12345678',
      method: 'GET',
      url: '/v1/user?x=1',
      remoteAddress: '127.0.0.1',
    };
    expect(inside).toMatchObject({ level: 30, msg: 'inside the handler', req });
    expect(completed).toMatchObject({
      level: 30,
      msg: 'request completed',
      req,
      res: { statusCode: 200 },
    });
    expect(typeof completed.responseTime).toBe('number');
    // The request line has pino's fields like every other line, and nothing more.
    expect(Object.keys(completed).sort()).toEqual(
      ['hostname', 'level', 'msg', 'pid', 'req', 'res', 'responseTime', 'time'].sort(),
    );
    expect(Object.keys(inside).sort()).toEqual(['hostname', 'level', 'msg', 'pid', 'req', 'time']);
    expect(outside).toMatchObject({ level: 30, msg: 'outside any request' });
    expect(outside.req).toBeUndefined();
  });

  it('gives each request its own id, and logs 4xx as warnings and 5xx as errors', async () => {
    const statuses = [404, 503];
    handle = (res) => {
      res.statusCode = statuses.shift() ?? 200;
      res.end();
    };
    const first = await fetch(`${base}/a`);
    const second = await fetch(`${base}/b`, { method: 'POST' });
    const [notFound, failed] = await settled(2);
    expect([first.status, second.status]).toEqual([404, 503]);
    expect(notFound).toMatchObject({
      level: 40,
      msg: 'request completed',
      req: { id: first.headers.get('x-request-id'), method: 'GET', url: '/a' },
      res: { statusCode: 404 },
    });
    expect(failed).toMatchObject({
      level: 50,
      msg: 'request errored',
      req: { id: second.headers.get('x-request-id'), method: 'POST', url: '/b' },
      res: { statusCode: 503 },
    });
    expect(first.headers.get('x-request-id')).toMatch(/^[0-9a-f-]{36}$/);
    expect(first.headers.get('x-request-id')).not.toBe(second.headers.get('x-request-id'));
  });

  it('logs a request whose client went away before the answer as aborted, once', async () => {
    let closed: () => void = () => undefined;
    const gone = new Promise<void>((resolve) => (closed = resolve));
    handle = (res) => {
      res.on('close', () => setImmediate(closed));
    };
    // A raw connection that sends a request and hangs up without waiting for the answer.
    const socket = connect((server.address() as AddressInfo).port, '127.0.0.1');
    socket.write('GET /slow HTTP/1.1\r\nHost: x\r\n\r\n');
    await new Promise((resolve) => setTimeout(resolve, 50));
    socket.destroy();
    await gone;
    const [aborted] = await settled(1);
    await new Promise((resolve) => setTimeout(resolve, 20));
    expect(lines).toHaveLength(1);
    expect(aborted).toMatchObject({ level: 30, msg: 'request aborted', req: { url: '/slow' } });
  });
});
