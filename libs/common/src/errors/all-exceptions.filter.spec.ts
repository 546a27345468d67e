import { existsSync, mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import {
  ArgumentsHost,
  BadRequestException,
  ConflictException,
  MethodNotAllowedException,
  ForbiddenException,
  InternalServerErrorException,
  Logger,
  NotFoundException,
  UnsupportedMediaTypeException,
} from '@nestjs/common';
import { ThrottlerException } from '@nestjs/throttler';
import type { Request, Response } from 'express';
import { QueryFailedError } from 'typeorm';
import { AllExceptionsFilter } from './all-exceptions.filter';
import { AppError, RetryLaterError } from './app-error';
import { bodyParserErrors } from './body-parser-errors';

interface FakeRequest {
  method: string;
  path: string;
  id?: unknown;
  files?: Array<{ path?: string }>;
}

class FakeResponse {
  statusCode: number | undefined;
  body: unknown;
  ended = false;

  constructor(
    private readonly headers: Record<string, string> = {},
    readonly headersSent = false,
  ) {}

  status(code: number): this {
    this.statusCode = code;
    return this;
  }

  json(body: unknown): this {
    this.body = body;
    return this;
  }

  getHeader(name: string): string | undefined {
    return this.headers[name.toLowerCase()];
  }

  setHeader(name: string, value: string): void {
    this.headers[name.toLowerCase()] = value;
  }

  end(): void {
    this.ended = true;
  }
}

const REQUEST: FakeRequest = { method: 'GET', path: '/v1/nowhere', id: 'req-1234abcd' };

function hostFor(req: FakeRequest, res: FakeResponse): ArgumentsHost {
  const http = { getRequest: () => req, getResponse: () => res, getNext: () => undefined };
  return { switchToHttp: () => http } as unknown as ArgumentsHost;
}

function respond(
  exception: unknown,
  res = new FakeResponse(),
  req: FakeRequest = REQUEST,
): FakeResponse {
  new AllExceptionsFilter().catch(exception, hostFor(req, res));
  return res;
}

/** What the exception filter receives once the Express error middleware has run. */
function throughBodyParserErrors(error: unknown): unknown {
  let forwarded: unknown;
  bodyParserErrors(error, {} as Request, {} as Response, (err?: unknown) => {
    forwarded = err;
  });
  return forwarded;
}

function queryFailed(driverError: Record<string, unknown>): QueryFailedError {
  return new QueryFailedError('INSERT INTO users ...', [], Object.assign(new Error(), driverError));
}

describe(AllExceptionsFilter.name, () => {
  let logError: jest.SpyInstance;

  beforeEach(() => {
    logError = jest.spyOn(Logger.prototype, 'error').mockImplementation(() => undefined);
  });

  afterEach(() => {
    logError.mockRestore();
  });

  it('writes every problem of an AppError with its status', () => {
    const res = respond(
      new AppError('validation_failed', [
        { title: 'name is required.', field: 'name' },
        { title: 'color must be a colour as #rrggbb.', field: 'color' },
        { title: 'Something about the whole body.' },
      ]),
    );

    expect(res.statusCode).toBe(400);
    expect(res.body).toEqual({
      errors: [
        { status: 400, title: 'name is required.', field: 'name', code: 'validation_failed' },
        {
          status: 400,
          title: 'color must be a colour as #rrggbb.',
          field: 'color',
          code: 'validation_failed',
        },
        { status: 400, title: 'Something about the whole body.', code: 'validation_failed' },
      ],
    });
    expect(logError).not.toHaveBeenCalled();
  });

  it('rejects an unknown route with 404 route_not_found naming method and path', () => {
    const res = respond(new NotFoundException('Cannot POST /v1/nope'), new FakeResponse(), {
      method: 'POST',
      path: '/v1/nope',
    });

    expect(res.statusCode).toBe(404);
    expect(res.body).toEqual({
      errors: [{ status: 404, title: 'No route matches POST /v1/nope.', code: 'route_not_found' }],
    });
  });

  it('rejects a throttled request with 429 rate_limited and the Retry-After wait', () => {
    const res = respond(new ThrottlerException(), new FakeResponse({ 'retry-after': '42' }));

    expect(res.statusCode).toBe(429);
    expect(res.body).toEqual({
      errors: [
        {
          status: 429,
          title: 'You reached the limit of API requests per minute. Retry in 42 seconds.',
          code: 'rate_limited',
        },
      ],
    });
  });

  it('answers a busy server with 503 server_busy and its Retry-After, logging no fault', () => {
    const logged = jest.spyOn(Logger.prototype, 'error').mockImplementation(() => undefined);
    const res = respond(
      new RetryLaterError('server_busy', 'The server is busy processing images.', 5),
    );

    expect(res.statusCode).toBe(503);
    expect(res.getHeader('Retry-After')).toBe('5');
    expect(res.body).toEqual({
      errors: [
        { status: 503, title: 'The server is busy processing images.', code: 'server_busy' },
      ],
    });
    expect(logged).not.toHaveBeenCalled();
    logged.mockRestore();
  });

  it('rejects a throttled request without Retry-After without a wait', () => {
    expect(respond(new ThrottlerException()).body).toEqual({
      errors: [
        {
          status: 429,
          title: 'You reached the limit of API requests per minute.',
          code: 'rate_limited',
        },
      ],
    });
  });

  it('rejects a body that is not JSON, as translated by bodyParserErrors, with 400 malformed_body', () => {
    const res = respond(throughBodyParserErrors({ status: 400, type: 'entity.parse.failed' }));

    expect(res.statusCode).toBe(400);
    expect(res.body).toEqual({
      errors: [
        { status: 400, title: 'The request body is not valid JSON.', code: 'malformed_body' },
      ],
    });
  });

  it('answers an untranslated 400 from middleware without its details', () => {
    const res = respond({ status: 400, type: 'request.aborted', message: 'socket hang up' });

    expect(res.statusCode).toBe(400);
    expect(res.body).toEqual({
      errors: [
        { status: 400, title: 'The request could not be understood.', code: 'malformed_body' },
      ],
    });
  });

  it('rejects a body that is too large with 413 payload_too_large', () => {
    const res = respond({ status: 413, type: 'entity.too.large', limit: 1048576 });

    expect(res.statusCode).toBe(413);
    expect(res.body).toEqual({
      errors: [
        {
          status: 413,
          title: 'The request body is larger than allowed.',
          code: 'payload_too_large',
        },
      ],
    });
  });

  it('rejects a file that is too large for multer with 413', () => {
    const res = respond({ name: 'MulterError', code: 'LIMIT_FILE_SIZE', field: 'file' });

    expect(res.statusCode).toBe(413);
    expect(res.body).toEqual({
      errors: [
        {
          status: 413,
          title: 'The request body is larger than allowed.',
          code: 'payload_too_large',
        },
      ],
    });
  });

  it.each([
    [
      new UnsupportedMediaTypeException(),
      {
        status: 415,
        title: 'Send the body as multipart/form-data, application/x-www-form-urlencoded or JSON.',
        code: 'unsupported_media_type',
      },
    ],
    [
      new ForbiddenException(),
      { status: 403, title: 'You do not have access to this resource.', code: 'forbidden' },
    ],
    [
      new ConflictException('The domain is being verified; try again in a minute.'),
      {
        status: 409,
        title: 'The domain is being verified; try again in a minute.',
        code: 'conflict',
      },
    ],
    [
      new MethodNotAllowedException(),
      { status: 405, title: 'GET is not allowed on /v1/nowhere.', code: 'method_not_allowed' },
    ],
    [
      new BadRequestException('Validation failed (numeric string is expected)'),
      {
        status: 400,
        title: 'Validation failed (numeric string is expected)',
        code: 'malformed_body',
      },
    ],
  ])('turns Nest exception %p into its client error', (exception, entry) => {
    const res = respond(exception);

    expect(res.statusCode).toBe(entry.status);
    expect(res.body).toEqual({ errors: [entry] });
  });

  it('rejects a duplicate in SQLite with 400 already_exists naming the field', () => {
    const res = respond(
      queryFailed({
        code: 'SQLITE_CONSTRAINT_UNIQUE',
        message: 'UNIQUE constraint failed: users.email',
      }),
    );

    expect(res.statusCode).toBe(400);
    expect(res.body).toEqual({
      errors: [
        {
          status: 400,
          title: 'The email is already taken; choose another.',
          field: 'email',
          code: 'already_exists',
        },
      ],
    });
  });

  it('rejects a duplicate in PostgreSQL with 400 already_exists naming the field', () => {
    const res = respond(
      queryFailed({
        code: '23505',
        message: 'duplicate key value violates unique constraint "UQ_users_email"',
        detail: 'Key (email)=(a@b.c) already exists.',
      }),
    );

    expect(res.statusCode).toBe(400);
    expect(res.body).toEqual({
      errors: [
        {
          status: 400,
          title: 'The email is already taken; choose another.',
          field: 'email',
          code: 'already_exists',
        },
      ],
    });
  });

  it('names the last column of a composite unique key', () => {
    const res = respond(
      queryFailed({
        code: 'SQLITE_CONSTRAINT_UNIQUE',
        message: 'UNIQUE constraint failed: links.domain_id, links.alias',
      }),
    );

    expect(res.body).toEqual({
      errors: [
        {
          status: 400,
          title: 'The alias is already taken; choose another.',
          field: 'alias',
          code: 'already_exists',
        },
      ],
    });
  });

  it('rejects a foreign key violation in SQLite with 400 invalid_reference', () => {
    const res = respond(
      queryFailed({
        code: 'SQLITE_CONSTRAINT_FOREIGNKEY',
        message: 'FOREIGN KEY constraint failed',
      }),
    );

    expect(res.statusCode).toBe(400);
    expect(res.body).toEqual({
      errors: [
        { status: 400, title: 'A referenced resource does not exist.', code: 'invalid_reference' },
      ],
    });
  });

  it('rejects a foreign key violation in PostgreSQL with 400 invalid_reference naming the field', () => {
    const res = respond(
      queryFailed({
        code: '23503',
        detail: 'Key (project_id)=(9) is not present in table "projects".',
      }),
    );

    expect(res.statusCode).toBe(400);
    expect(res.body).toEqual({
      errors: [
        {
          status: 400,
          title: 'A referenced resource does not exist.',
          field: 'project_id',
          code: 'invalid_reference',
        },
      ],
    });
  });

  it.each(['22021', '22P05'])(
    'rejects text PostgreSQL cannot store (%s: a NUL, or a character of no encoding) with 400',
    (code) => {
      const res = respond(queryFailed({ code, message: 'invalid byte sequence for encoding' }));
      expect([res.statusCode, res.body]).toEqual([
        400,
        {
          errors: [
            {
              status: 400,
              title: 'A value has a character that cannot be stored.',
              code: 'validation_failed',
            },
          ],
        },
      ]);
    },
  );

  it('hides a server fault behind 500 internal_error with the request id', () => {
    const error = new Error('SELECT secret FROM x');
    const res = respond(error);

    expect(res.statusCode).toBe(500);
    expect(res.body).toEqual({
      errors: [
        {
          status: 500,
          title:
            'Something went wrong on our side. Quote request id req-1234abcd when reporting it.',
          code: 'internal_error',
        },
      ],
    });
    expect(JSON.stringify(res.body)).not.toMatch(/SELECT|secret/);
    expect(logError).toHaveBeenCalledWith(
      { err: error, req_id: 'req-1234abcd' },
      'Request failed with a server error',
    );
  });

  it('hides a query that failed for no client reason behind 500', () => {
    const res = respond(
      new QueryFailedError('SELECT secret FROM x', [], new Error('no such table: x')),
    );

    expect(res.statusCode).toBe(500);
    expect(JSON.stringify(res.body)).not.toMatch(/SELECT|secret|no such table/);
  });

  it('hides a 5xx HttpException behind 500 internal_error', () => {
    const res = respond(new InternalServerErrorException('SELECT secret FROM x'), undefined, {
      method: 'GET',
      path: '/v1/x',
    });

    expect(res.statusCode).toBe(500);
    expect(res.body).toEqual({
      errors: [{ status: 500, title: 'Something went wrong on our side.', code: 'internal_error' }],
    });
  });

  it('only ends a response whose headers were already sent', () => {
    const res = respond(new Error('late'), new FakeResponse({}, true));

    expect(res.ended).toBe(true);
    expect(res.statusCode).toBeUndefined();
    expect(res.body).toBeUndefined();
  });

  it("removes the request's upload files, then answers", async () => {
    const dir = mkdtempSync(join(tmpdir(), 'filter-'));
    const path = join(dir, 'a.upload');
    writeFileSync(path, 'zip');
    try {
      const res = new FakeResponse();
      const answered = new Promise<boolean>((resolve) => {
        res.json = (body: unknown) => {
          res.body = body;
          resolve(existsSync(path));
          return res;
        };
      });
      const req = { ...REQUEST, files: [{ path }, {}] };
      respond(new AppError('validation_failed', 'name must be a string.', 'name'), res, req);
      expect({ fileWhenAnswered: await answered, status: res.statusCode, body: res.body }).toEqual({
        fileWhenAnswered: false,
        status: 400,
        body: {
          errors: [
            {
              status: 400,
              title: 'name must be a string.',
              field: 'name',
              code: 'validation_failed',
            },
          ],
        },
      });
    } finally {
      rmSync(dir, { recursive: true, force: true });
    }
  });
});
