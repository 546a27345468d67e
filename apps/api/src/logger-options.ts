import { RequestMethod } from '@nestjs/common';
import type { Params } from 'nestjs-pino';
import pino from 'pino';
import { pinoHttp, type HttpLogger } from 'pino-http';
import { assignRequestId } from '@app/common';
import { AppConfig } from '@app/config';

/**
 * JSON logs, one line per request, tagged with the request id; secrets are redacted. The HTTP
 * middleware is mounted on the Express app itself so that every response, including /health and
 * unknown routes, gets its X-Request-Id.
 */
export function createHttpLogger(config: AppConfig): HttpLogger {
  const logger = pino({
    level: config.logLevel,
    redact: ['req.headers.authorization', 'req.headers.cookie', 'res.headers["set-cookie"]'],
  });
  return pinoHttp({
    logger,
    genReqId: assignRequestId,
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
