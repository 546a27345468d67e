import type { IncomingMessage, ServerResponse } from 'node:http';
import { RequestMethod } from '@nestjs/common';
import type { Params } from 'nestjs-pino';
import pino from 'pino';
import { pinoHttp, type HttpLogger } from 'pino-http';
import { assignRequestId } from '@app/common';
import { AppConfig } from '@app/config';

/**
 * JSON logs, one line per request (id, method, URL, client address, status, time), tagged with
 * the request id; secrets are redacted wherever a log line carries headers. The HTTP
 * middleware is mounted on the Express app itself so that every response, including /health and
 * unknown routes, gets its X-Request-Id.
 */
export function createHttpLogger(config: AppConfig): HttpLogger {
  const logger = pino(
    {
      level: config.logLevel,
      redact: ['req.headers.authorization', 'req.headers.cookie', 'res.headers["set-cookie"]'],
    },
    // Asynchronous: lines logged while a write is under way go out together in the next one, so
    // a busy server makes one write per batch of requests, not one per request. Whatever is
    // still buffered is written synchronously on exit (pino registers that).
    pino.destination({ dest: 1, sync: false }),
  );
  return pinoHttp({
    logger,
    genReqId: assignRequestId,
    // One short line per request: pino-http's default serializers copy every header of the
    // request and the response into each line (and the redaction then walks them).
    wrapSerializers: false,
    serializers: {
      req: (req: IncomingMessage & { id?: unknown; originalUrl?: string }) => ({
        id: req.id,
        method: req.method,
        url: req.originalUrl ?? req.url,
        remoteAddress: req.socket?.remoteAddress,
      }),
      res: (res: ServerResponse) => ({ statusCode: res.statusCode }),
      err: pino.stdSerializers.err,
    },
    customLogLevel: (_req, res, err) =>
      err || res.statusCode >= 500 ? 'error' : res.statusCode >= 400 ? 'warn' : 'info',
  });
}

/** nestjs-pino reuses that logger and binds it to each request for services' logs. */
export function loggerModuleParams(httpLogger: HttpLogger): Params {
  return {
    pinoHttp: { logger: httpLogger.logger },
    useExisting: true,
    forRoutes: [{ path: '{*path}', method: RequestMethod.ALL }],
  };
}
