import { mkdtempSync, rmSync } from 'node:fs';
import { createServer, Server } from 'node:net';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { ArgumentsHost, Logger } from '@nestjs/common';
import Database from 'better-sqlite3';
import { Client, DatabaseError } from 'pg';
import { QueryFailedError } from 'typeorm';
import { AllExceptionsFilter } from './all-exceptions.filter';
import { isDatabaseUnavailable } from './database-errors';

/** What the filter writes: status, headers and body. */
class RecordingResponse {
  statusCode: number | undefined;
  body: unknown;
  readonly headers: Record<string, string> = {};
  readonly headersSent = false;

  status(code: number): this {
    this.statusCode = code;
    return this;
  }
  json(body: unknown): this {
    this.body = body;
    return this;
  }
  setHeader(name: string, value: string): void {
    this.headers[name.toLowerCase()] = value;
  }
  getHeader(name: string): string | undefined {
    return this.headers[name.toLowerCase()];
  }
  hasHeader(name: string): boolean {
    return name.toLowerCase() in this.headers;
  }
}

function respond(exception: unknown): RecordingResponse {
  const res = new RecordingResponse();
  const req = { method: 'GET', path: '/v1/links', originalUrl: '/v1/links', id: 'req-1' };
  const http = { getRequest: () => req, getResponse: () => res, getNext: () => undefined };
  new AllExceptionsFilter().catch(exception, { switchToHttp: () => http } as ArgumentsHost);
  return res;
}

/** The error pg gives for a connection to `port` on this machine. */
async function connectError(port: number): Promise<unknown> {
  const client = new Client({ host: '127.0.0.1', port, user: 'x', database: 'x' });
  try {
    await client.connect();
  } catch (error) {
    return error;
  } finally {
    await client.end().catch(() => undefined);
  }
  throw new Error('connected');
}

/** PostgreSQL's message for an administrator's shutdown of a backend, as pg parses it. */
function adminShutdown(): DatabaseError {
  const error = new DatabaseError(
    'terminating connection due to administrator command',
    116,
    'error',
  );
  error.code = '57P01';
  error.severity = 'FATAL';
  return error;
}

const UNAVAILABLE = {
  errors: [
    {
      status: 503,
      title: 'The database cannot be reached right now; try again in 5 seconds.',
      code: 'database_unavailable',
    },
  ],
};

describe('AllExceptionsFilter: database unavailable', () => {
  let logError: jest.SpyInstance;
  let closing: Server;
  let closingPort: number;

  beforeAll(async () => {
    // A server that accepts a connection and drops it at once: pg's "Connection terminated".
    closing = createServer((socket) => socket.destroy());
    await new Promise<void>((resolve) => closing.listen(0, '127.0.0.1', resolve));
    closingPort = (closing.address() as { port: number }).port;
  });
  afterAll(() => new Promise<void>((resolve) => closing.close(() => resolve())));
  beforeEach(() => {
    logError = jest.spyOn(Logger.prototype, 'error').mockImplementation(() => undefined);
  });
  afterEach(() => logError.mockRestore());

  it('answers 503 database_unavailable with Retry-After 5 when PostgreSQL refuses connections', async () => {
    // Port 1: nothing listens there.
    const refused = await connectError(1);
    expect(refused).toMatchObject({ code: 'ECONNREFUSED' });
    const res = respond(refused);
    expect(res.statusCode).toBe(503);
    expect(res.headers['retry-after']).toBe('5');
    expect(res.body).toEqual(UNAVAILABLE);
    expect(logError).toHaveBeenCalledWith(
      { err: refused, req_id: 'req-1' },
      'Request failed with a server error',
    );
  });

  it('answers 503 when the connection is dropped (pg: Connection terminated unexpectedly)', async () => {
    const dropped = await connectError(closingPort);
    expect(dropped).toMatchObject({ message: 'Connection terminated unexpectedly' });
    const res = respond(dropped);
    expect([res.statusCode, res.headers['retry-after'], res.body]).toEqual([503, '5', UNAVAILABLE]);
  });

  it('answers 503 for a query cut by an administrator shutdown (57P01) and other 08xxx states', () => {
    for (const error of [
      new QueryFailedError('SELECT 1', [], adminShutdown()),
      new QueryFailedError('SELECT 1', [], new Error('Connection terminated unexpectedly')),
      Object.assign(new DatabaseError('the database system is starting up', 40, 'error'), {
        code: '57P03',
      }),
      Object.assign(new DatabaseError('connection failure', 20, 'error'), { code: '08006' }),
      new Error('timeout exceeded when trying to connect'),
      new AggregateError([Object.assign(new Error('connect'), { code: 'ECONNREFUSED' })]),
    ]) {
      const res = respond(error);
      expect([res.statusCode, res.headers['retry-after'], res.body]).toEqual([
        503,
        '5',
        UNAVAILABLE,
      ]);
    }
  });

  it('answers 503 for a SQLite database locked past the busy timeout', () => {
    const dir = mkdtempSync(join(tmpdir(), 'linkdock-busy-'));
    const holder = new Database(join(dir, 'db.sqlite'));
    const other = new Database(join(dir, 'db.sqlite'), { timeout: 0 });
    try {
      holder.exec('CREATE TABLE t (x INTEGER); BEGIN IMMEDIATE; INSERT INTO t VALUES (1);');
      let busy: unknown;
      try {
        other.exec('INSERT INTO t VALUES (2)');
      } catch (error) {
        busy = error;
      }
      expect(busy).toMatchObject({ code: 'SQLITE_BUSY' });
      const res = respond(new QueryFailedError('INSERT INTO t', [], busy as Error));
      expect([res.statusCode, res.headers['retry-after'], res.body]).toEqual([
        503,
        '5',
        UNAVAILABLE,
      ]);
    } finally {
      holder.close();
      other.close();
      rmSync(dir, { recursive: true, force: true });
    }
  });

  it('keeps other database failures as 500 and constraint violations as 400', () => {
    const syntax = Object.assign(new DatabaseError('syntax error', 20, 'error'), { code: '42601' });
    expect(isDatabaseUnavailable(new QueryFailedError('SELEC', [], syntax))).toBe(false);
    const res = respond(new QueryFailedError('SELEC', [], syntax));
    expect([res.statusCode, res.headers['retry-after']]).toEqual([500, undefined]);
    const duplicate = Object.assign(new DatabaseError('duplicate key', 20, 'error'), {
      code: '23505',
      detail: 'Key (email)=(a@b.c) already exists.',
    });
    expect(respond(new QueryFailedError('INSERT', [], duplicate)).statusCode).toBe(400);
  });
});
