import type { AddressInfo } from 'node:net';
import { connect } from 'node:net';
import { createTestApp, TestApp } from '@app/testing';

interface RawResponse {
  statusLine: string;
  headers: Record<string, string>;
  body: string;
}

/** Writes bytes on a fresh connection and reads until the server closes it. */
function exchange(port: number, raw: string): Promise<RawResponse> {
  return new Promise((resolve, reject) => {
    const socket = connect(port, '127.0.0.1');
    const chunks: Buffer[] = [];
    socket.on('data', (chunk: Buffer) => chunks.push(chunk));
    // The server may close while the rest of an oversized request is still being written.
    socket.on('error', (error: NodeJS.ErrnoException) => {
      if (error.code !== 'ECONNRESET' && error.code !== 'EPIPE') {
        reject(error);
      }
    });
    socket.on('close', () => {
      const text = Buffer.concat(chunks).toString('utf8');
      const split = text.indexOf('\r\n\r\n');
      const [statusLine, ...lines] = text.slice(0, split).split('\r\n');
      const headers: Record<string, string> = {};
      for (const line of lines) {
        const colon = line.indexOf(':');
        headers[line.slice(0, colon).toLowerCase()] = line.slice(colon + 1).trim();
      }
      resolve({ statusLine, headers, body: text.slice(split + 4) });
    });
    socket.write(raw);
  });
}

describe('Requests the HTTP parser refuses', () => {
  let t: TestApp;
  let port: number;

  beforeAll(async () => {
    t = await createTestApp();
    const server = t.app.getHttpServer();
    await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
    port = (server.address() as AddressInfo).port;
  });
  afterAll(() => t?.close());

  function expectErrorShape(res: RawResponse, status: number, code: string, title: string): void {
    expect(res.headers['content-type']).toBe('application/json; charset=utf-8');
    expect(res.headers['content-length']).toBe(String(Buffer.byteLength(res.body)));
    expect(res.headers['connection']).toBe('close');
    expect(res.headers['x-request-id']).toMatch(/^[0-9a-f-]{36}$/);
    expect(JSON.parse(res.body)).toEqual({ errors: [{ status, title, code }] });
  }

  it('answers headers over 16 KB with 431 in the error shape', async () => {
    const res = await exchange(
      port,
      `GET /v1/user HTTP/1.1\r\nHost: links.test\r\nX-Padding: ${'a'.repeat(20_000)}\r\n\r\n`,
    );
    expect(res.statusLine).toBe('HTTP/1.1 431 Request Header Fields Too Large');
    expectErrorShape(
      res,
      431,
      'request_header_fields_too_large',
      'The request headers are too large: send at most 16 KB of headers.',
    );
  });

  it('answers a malformed request line with 400 in the error shape', async () => {
    const res = await exchange(port, 'GET /v1/user NOT-HTTP\r\nHost: links.test\r\n\r\n');
    expect(res.statusLine).toBe('HTTP/1.1 400 Bad Request');
    expectErrorShape(res, 400, 'malformed_request', 'The request is not valid HTTP/1.1.');
  });

  it('answers a malformed header line with 400 in the error shape', async () => {
    const res = await exchange(port, 'GET /v1/user HTTP/1.1\r\nHost links.test\r\n\r\n');
    expect(res.statusLine).toBe('HTTP/1.1 400 Bad Request');
    expectErrorShape(res, 400, 'malformed_request', 'The request is not valid HTTP/1.1.');
  });

  it('still serves well-formed requests on the same server', async () => {
    const res = await exchange(
      port,
      'GET /health HTTP/1.1\r\nHost: links.test\r\nConnection: close\r\n\r\n',
    );
    expect(res.statusLine).toBe('HTTP/1.1 200 OK');
  });
});
