import { AsyncLocalStorage } from 'node:async_hooks';
import type { IncomingMessage, ServerResponse } from 'node:http';
import type { Params } from 'nestjs-pino';
import pino from 'pino';
import { assignRequestId } from '@app/common';
import { AppConfig } from '@app/config';

/** What every line logged while a request is served says of it. */
interface RequestFields {
  id: string;
  method: string | undefined;
  url: string;
  remoteAddress: string | undefined;
}

/** The request being served, for the lines logged meanwhile (by services, through Nest's Logger). */
const serving = new AsyncLocalStorage<RequestFields>();

/** The request logging middleware, and the logger behind it. */
export interface HttpLogger {
  (req: IncomingMessage, res: ServerResponse, next: () => void): void;
  logger: pino.Logger;
  /** Writes `text` as it is (not a JSON line) to the log's stream, after the lines queued in it. */
  print: (text: string) => void;
}

/**
 * JSON logs, one line per request (id, method, URL, client address, status, time), and the
 * request on every line logged while it is served; secrets are redacted wherever a line carries
 * headers. The middleware is mounted on the Express app itself so that every response, including
 * /health and unknown routes, gets its X-Request-Id.
 *
 * The lines are pino-http's, without its cost: pino-http makes two child loggers for every
 * request (serialising the request into each) and nestjs-pino then keeps the request's child in
 * an async context of its own, together about a fifth of a short API request's CPU. Here a
 * request costs one async context; the request's fields join only the lines that are written.
 *
 * Standard output is written asynchronously: lines logged while a write is under way go out
 * together in the next one, so a busy server makes one write per batch of requests, not one per
 * request. Whatever is still buffered is written synchronously on exit (pino registers that).
 */
export function createHttpLogger(
  config: AppConfig,
  destination: pino.DestinationStream = pino.destination({ dest: 1, sync: false }),
): HttpLogger {
  const logger = pino(
    {
      level: config.logLevel,
      redact: ['req.headers.authorization', 'req.headers.cookie', 'res.headers["set-cookie"]'],
      // A new object each time: pino merges the line's own fields into it.
      mixin: () => {
        const req = serving.getStore();
        return req === undefined ? {} : { req };
      },
    },
    destination,
  );
  // The request lines carry only the fields below, never headers: they need neither the
  // redaction nor the mixin, which took about half of the cost of writing one (bench:api).
  const requests = pino({ level: config.logLevel }, destination);
  const middleware = ((req, res, next) => {
    const id = assignRequestId(req, res);
    (req as { id?: string }).id = id;
    const fields: RequestFields = {
      id,
      method: req.method,
      url: (req as { originalUrl?: string }).originalUrl ?? req.url ?? '',
      remoteAddress: req.socket?.remoteAddress,
    };
    const started = Date.now();
    const done = (): void => {
      res.off('finish', done);
      res.off('close', done);
      logCompleted(requests, req, res, fields, Date.now() - started);
    };
    res.on('finish', done);
    res.on('close', done);
    serving.run(fields, next);
  }) as HttpLogger;
  middleware.logger = logger;
  middleware.print = (text) => destination.write(text);
  return middleware;
}

/** The request's line, as pino-http wrote it: warn for 4xx, error for 5xx. */
function logCompleted(
  logger: pino.Logger,
  req: IncomingMessage,
  res: ServerResponse,
  fields: RequestFields,
  responseTime: number,
): void {
  const status = res.statusCode;
  const line = { req: fields, res: { statusCode: status }, responseTime };
  if (status >= 500) {
    logger.error(line, 'request errored');
    return;
  }
  const message =
    !req.readableAborted && res.writableEnded ? 'request completed' : 'request aborted';
  if (status >= 400) {
    logger.warn(line, message);
  } else {
    logger.info(line, message);
  }
}

/**
 * nestjs-pino (Nest's Logger, for services) writes through the same logger; its own per-request
 * middleware is not mounted, since the mixin above already adds the request to each line.
 */
export function loggerModuleParams(httpLogger: HttpLogger): Params {
  return {
    pinoHttp: { logger: httpLogger.logger },
    useExisting: true,
    forRoutes: [],
  };
}
