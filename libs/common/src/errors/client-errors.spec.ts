import type { Duplex } from 'node:stream';
import { answerClientError } from './client-errors';

class FakeSocket {
  writable = true;
  written = '';
  destroyed = false;
  _httpMessage: { headersSent: boolean } | null = null;

  end(data: string, done: () => void): void {
    this.written += data;
    done();
  }

  destroy(): void {
    this.destroyed = true;
  }
}

function errorWithCode(code: string): Error & { code: string } {
  return Object.assign(new Error(code), { code });
}

function answer(code: string, socket = new FakeSocket()): FakeSocket {
  answerClientError(errorWithCode(code), socket as unknown as Duplex);
  return socket;
}

function parse(raw: string): { statusLine: string; headers: string[]; body: unknown } {
  const split = raw.indexOf('\r\n\r\n');
  const [statusLine, ...headers] = raw.slice(0, split).split('\r\n');
  return { statusLine, headers, body: JSON.parse(raw.slice(split + 4)) };
}

describe(answerClientError.name, () => {
  it.each([
    [
      'HPE_HEADER_OVERFLOW',
      'HTTP/1.1 431 Request Header Fields Too Large',
      {
        status: 431,
        title: 'The request headers are too large: send at most 16 KB of headers.',
        code: 'request_header_fields_too_large',
      },
    ],
    [
      'HPE_CHUNK_EXTENSIONS_OVERFLOW',
      'HTTP/1.1 413 Payload Too Large',
      {
        status: 413,
        title: 'The chunk extensions of the request body are too large.',
        code: 'payload_too_large',
      },
    ],
    [
      'ERR_HTTP_REQUEST_TIMEOUT',
      'HTTP/1.1 408 Request Timeout',
      { status: 408, title: 'The request was not received in time.', code: 'request_timeout' },
    ],
    [
      'HPE_INVALID_METHOD',
      'HTTP/1.1 400 Bad Request',
      { status: 400, title: 'The request is not valid HTTP/1.1.', code: 'malformed_request' },
    ],
  ])('answers %s with %s in the error shape and closes', (code, statusLine, entry) => {
    const socket = answer(code);
    const res = parse(socket.written);

    expect(res.statusLine).toBe(statusLine);
    expect(res.headers).toEqual(
      expect.arrayContaining([
        'Content-Type: application/json; charset=utf-8',
        `Content-Length: ${Buffer.byteLength(JSON.stringify(res.body))}`,
        'Connection: close',
        'Cache-Control: no-store',
        'X-Content-Type-Options: nosniff',
      ]),
    );
    expect(res.body).toEqual({ errors: [entry] });
    expect(socket.destroyed).toBe(true);
  });

  it('only destroys a connection the peer reset', () => {
    const socket = answer('ECONNRESET');
    expect(socket.written).toBe('');
    expect(socket.destroyed).toBe(true);
  });

  it('only destroys a socket that can no longer be written', () => {
    const socket = new FakeSocket();
    socket.writable = false;
    answer('HPE_HEADER_OVERFLOW', socket);
    expect(socket.written).toBe('');
    expect(socket.destroyed).toBe(true);
  });

  it('does not write into a response that has already started', () => {
    const socket = new FakeSocket();
    socket._httpMessage = { headersSent: true };
    answer('HPE_INVALID_METHOD', socket);
    expect(socket.written).toBe('');
    expect(socket.destroyed).toBe(true);
  });

  it('answers when the connection carries a response that has not started', () => {
    const socket = new FakeSocket();
    socket._httpMessage = { headersSent: false };
    answer('HPE_INVALID_METHOD', socket);
    expect(socket.written).toMatch(/^HTTP\/1\.1 400 Bad Request\r\n/);
  });
});
