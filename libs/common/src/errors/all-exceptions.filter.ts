import type { IncomingMessage, ServerResponse } from 'node:http';
import {
  ArgumentsHost,
  Catch,
  ExceptionFilter,
  HttpException,
  Inject,
  Logger,
  Optional,
} from '@nestjs/common';
import { ThrottlerException } from '@nestjs/throttler';
import type { Request, Response } from 'express';
import { uploadsRemoval } from '../http/upload-cleanup';
import { AppError, RetryLaterError } from './app-error';
import {
  DATABASE_RETRY_AFTER_SECONDS,
  isDatabaseUnavailable,
  translateDatabaseError,
} from './database-errors';
import { ErrorBody, ErrorCode } from './error-codes';

const HTTP_CODES: Record<number, ErrorCode> = {
  400: 'malformed_body',
  401: 'unauthorized',
  403: 'forbidden',
  404: 'route_not_found',
  405: 'method_not_allowed',
  409: 'conflict',
  413: 'payload_too_large',
  415: 'unsupported_media_type',
  422: 'unprocessable',
  429: 'rate_limited',
};

/**
 * Counts an API request that failed before the rate-limit guard saw it (an unknown route, a body
 * that could not be parsed) against the client's address, and writes the rate-limit headers;
 * throws the rate limiter's 429 past the limit. Provided by the auth library.
 */
export interface UncountedRequests {
  count(req: IncomingMessage, res: ServerResponse): Promise<void>;
}
export const UNCOUNTED_REQUESTS = Symbol('UNCOUNTED_REQUESTS');

/** API paths: every answer there carries the rate-limit headers (the contract). */
const API_PATH = /^\/(v1|api)(\/|\?|$)/;

/**
 * Writes `{"errors":[{status,title,field?,code}]}` for every failure. Nothing internal (stack,
 * SQL, driver messages) reaches a client: server faults are logged with the request id instead.
 */
@Catch()
export class AllExceptionsFilter implements ExceptionFilter {
  private readonly logger = new Logger('ExceptionFilter');

  constructor(
    @Optional() @Inject(UNCOUNTED_REQUESTS) private readonly uncounted?: UncountedRequests,
  ) {}

  catch(exception: unknown, host: ArgumentsHost): void {
    const http = host.switchToHttp();
    const req = http.getRequest<Request & { id?: unknown }>();
    const res = http.getResponse<Response>();
    const removal = uploadsRemoval(req);
    if (removal) {
      // The request's upload files go before its answer (see uploadsRemoval).
      removal
        .catch((error: unknown) =>
          this.logger.error({ err: error, req_id: req.id }, 'Could not remove upload files'),
        )
        .then(() => this.settle(exception, req, res))
        .catch((error: unknown) => this.unanswered(error, req, res));
      return;
    }
    this.settle(exception, req, res);
  }

  private settle(exception: unknown, req: Request & { id?: unknown }, res: Response): void {
    if (
      this.uncounted &&
      !res.headersSent &&
      !res.hasHeader('X-RateLimit-Limit') &&
      API_PATH.test(req.originalUrl)
    ) {
      this.uncounted
        .count(req, res)
        .then(
          () => exception,
          // Past the limit the 429 is the answer; a fault of the counting itself is not.
          (failure: unknown) => (failure instanceof ThrottlerException ? failure : exception),
        )
        .then((answer) => this.answer(answer, req, res))
        .catch((error: unknown) => this.unanswered(error, req, res));
      return;
    }
    this.answer(exception, req, res);
  }

  private unanswered(error: unknown, req: Request & { id?: unknown }, res: Response): void {
    this.logger.error({ err: error, req_id: req.id }, 'Could not answer a failed request');
    res.destroy();
  }

  private answer(exception: unknown, req: Request & { id?: unknown }, res: Response): void {
    const error = this.toAppError(exception, req, res);
    // A full image queue is load, not a fault: the client is told when to come back.
    if (error.status >= 500 && error.code !== 'server_busy') {
      this.logger.error({ err: exception, req_id: req.id }, 'Request failed with a server error');
    }
    if (res.headersSent) {
      res.end();
      return;
    }
    if (error.status === 401) {
      // RFC 6750: a 401 names the scheme the client should authenticate with.
      res.setHeader('WWW-Authenticate', 'Bearer realm="Linkdock"');
    }
    if (error instanceof RetryLaterError) {
      res.setHeader('Retry-After', String(error.retryAfterSeconds));
    }
    const body: ErrorBody = { errors: error.toEntries() };
    res.status(error.status).json(body);
  }

  private toAppError(exception: unknown, req: Request & { id?: unknown }, res: Response): AppError {
    if (exception instanceof AppError) {
      return exception;
    }
    if (exception instanceof ThrottlerException) {
      const retry = res.getHeader('Retry-After');
      const wait = retry === undefined ? '' : ` Retry in ${String(retry)} seconds.`;
      return new AppError(
        'rate_limited',
        `You reached the limit of API requests per minute.${wait}`,
      );
    }
    if (isDatabaseUnavailable(exception)) {
      return new RetryLaterError(
        'database_unavailable',
        `The database cannot be reached right now; try again in ${DATABASE_RETRY_AFTER_SECONDS} seconds.`,
        DATABASE_RETRY_AFTER_SECONDS,
      );
    }
    const database = translateDatabaseError(exception);
    if (database) {
      return database;
    }
    const status = httpStatusOf(exception);
    if (status !== undefined && status < 500) {
      return new AppError(
        HTTP_CODES[status] ?? 'malformed_body',
        clientTitle(status, exception, req),
      );
    }
    const requestId =
      typeof req.id === 'string' ? ` Quote request id ${req.id} when reporting it.` : '';
    return new AppError('internal_error', `Something went wrong on our side.${requestId}`);
  }
}

/** Status of a Nest HttpException or of an error raised by multer or other Express middleware. */
function httpStatusOf(exception: unknown): number | undefined {
  if (exception instanceof HttpException) {
    return exception.getStatus();
  }
  if (typeof exception === 'object' && exception !== null) {
    const { status, name, code } = exception as {
      status?: unknown;
      name?: unknown;
      code?: unknown;
    };
    if (name === 'MulterError') {
      return code === 'LIMIT_FILE_SIZE' || code === 'LIMIT_FIELD_VALUE' ? 413 : 400;
    }
    if (typeof status === 'number' && status >= 400 && status < 600) {
      return status;
    }
  }
  return undefined;
}

function clientTitle(status: number, exception: unknown, req: Request): string {
  switch (status) {
    case 404:
      return `No route matches ${req.method} ${req.path}.`;
    case 413:
      return 'The request body is larger than allowed.';
    case 415:
      return 'Send the body as multipart/form-data, application/x-www-form-urlencoded or JSON.';
    case 401:
      return 'A valid API key is required.';
    case 403:
      return 'You do not have access to this resource.';
    case 405:
      return `${req.method} is not allowed on ${req.path}.`;
    default: {
      // Messages of client-side HttpExceptions are written by developers for clients, not internals.
      const message = exception instanceof HttpException ? exception.message : '';
      return message || 'The request could not be understood.';
    }
  }
}
