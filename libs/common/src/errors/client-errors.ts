import { randomUUID } from 'node:crypto';
import { STATUS_CODES } from 'node:http';
import type { Duplex } from 'node:stream';
import { AppError } from './app-error';
import { ErrorBody } from './error-codes';

/** node's default header limit (`--max-http-header-size`), for the title of a 431. */
const MAX_HEADER_KB = 16;

/** The parser's error codes that have an answer of their own; any other is a 400. */
const BY_CODE: Record<string, () => AppError> = {
  HPE_HEADER_OVERFLOW: () =>
    new AppError(
      'request_header_fields_too_large',
      `The request headers are too large: send at most ${MAX_HEADER_KB} KB of headers.`,
    ),
  HPE_CHUNK_EXTENSIONS_OVERFLOW: () =>
    new AppError('payload_too_large', 'The chunk extensions of the request body are too large.'),
  ERR_HTTP_REQUEST_TIMEOUT: () =>
    new AppError('request_timeout', 'The request was not received in time.'),
};

/**
 * The HTTP server's `clientError` listener: a request node's parser refuses (headers over the
 * limit, a malformed request line or header, a timeout) gets the contract's error body instead of
 * node's empty one, then the connection closes. A connection that is already gone, or one whose
 * current response has started, is only destroyed: writing to it would corrupt that response.
 */
export function answerClientError(err: Error & { code?: string }, socket: Duplex): void {
  const inFlight = (socket as { _httpMessage?: { headersSent?: boolean } | null })._httpMessage;
  if (err.code === 'ECONNRESET' || !socket.writable || inFlight?.headersSent) {
    socket.destroy();
    return;
  }
  const error =
    BY_CODE[err.code ?? '']?.() ??
    new AppError('malformed_request', 'The request is not valid HTTP/1.1.');
  const body: ErrorBody = { errors: error.toEntries() };
  const json = JSON.stringify(body);
  const head = [
    `HTTP/1.1 ${error.status} ${STATUS_CODES[error.status] ?? ''}`,
    'Content-Type: application/json; charset=utf-8',
    `Content-Length: ${Buffer.byteLength(json)}`,
    'Cache-Control: no-store',
    'X-Content-Type-Options: nosniff',
    `X-Request-Id: ${randomUUID()}`,
    'Connection: close',
  ];
  socket.end(`${head.join('\r\n')}\r\n\r\n${json}`, () => socket.destroy());
}
