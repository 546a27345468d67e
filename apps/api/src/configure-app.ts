import { RequestMethod, Type } from '@nestjs/common';
import { NestFactory } from '@nestjs/core';
import { NestExpressApplication } from '@nestjs/platform-express';
import { SwaggerModule } from '@nestjs/swagger';
import express, { type NextFunction, type Request, type Response } from 'express';
import { Logger } from 'nestjs-pino';
import {
  answerClientError,
  apiResponseHeaders,
  bodyParserErrors,
  EnvelopeExpressAdapter,
  jsonBodyLimits,
  NestLogger,
} from '@app/common';
import { AppConfig } from '@app/config';
import { findAssetsDir } from '@app/signatures';
import { ObjectStore } from '@app/storage';
import { AppModule } from './app.module';
import { BULK_PATH, bulkBodyParsers } from './links/bulk/bulk-body-parser';
import { createHttpLogger, type HttpLogger } from './logger-options';
import { MetricsService } from './metrics/metrics.service';
import { buildOpenApiDocument } from './openapi';
import { serveUploads } from './serve-uploads';

export const API_PREFIX = 'v1';
/** The origin product's base path; the same handlers answer there. */
export const ORIGIN_PREFIX = 'api';
const BODY_LIMIT = '1mb';
/** The processors' webhooks (billing/webhooks), outside the API prefix. */
const WEBHOOKS_PATH = '/webhooks';

/** Builds the whole application, configured exactly as production runs it (tests use this too). */
export async function createApp(
  config: AppConfig,
  options: { httpLogger?: HttpLogger; extraModules?: Type[] } = {},
): Promise<NestExpressApplication> {
  const httpLogger = options.httpLogger ?? createHttpLogger(config);
  const app = await NestFactory.create<NestExpressApplication>(
    AppModule.forRoot(config, httpLogger, options.extraModules),
    new EnvelopeExpressAdapter(config.appUrl),
    // A failure is thrown to the caller (main.ts reports it in one line) instead of being logged
    // with its stack, Nest's buffered start-up lines with it, before Nest ends the process.
    { bodyParser: false, bufferLogs: true, autoFlushLogs: false, abortOnError: false },
  );
  app.useLogger(new NestLogger(app.get(Logger)));
  app.flushLogs();
  // Requests node's parser refuses never reach Express: answer them in the error shape here.
  app.getHttpServer().on('clientError', answerClientError);
  app.disable('x-powered-by');
  // No ETag on JSON answers: every API response is `Cache-Control: no-store`, so no client keeps
  // a copy to revalidate, and hashing each body cost about 1.5 % of a 25-link list's CPU.
  // Files (static sites, uploads, signature assets) carry ETags of their own.
  app.set('etag', false);
  app.use(httpLogger);
  const metrics = app.get(MetricsService);
  app.use(metrics.timeRequests);
  app.use('/metrics', metrics.answerMainPort);
  app.set('query parser', 'simple');
  app.use(originAlias);
  app.use(`/${API_PREFIX}`, apiResponseHeaders);
  // POST /v1/links/bulk takes up to 1,000 links: its own, larger bounds (links/bulk).
  app.use(BULK_PATH, bulkBodyParsers());
  // The processors' webhooks are verified over the exact bytes they signed: kept raw.
  app.use(WEBHOOKS_PATH, express.raw({ type: () => true, limit: BODY_LIMIT }));
  app.useBodyParser('json', { limit: BODY_LIMIT });
  app.useBodyParser('urlencoded', { limit: BODY_LIMIT, extended: true, parameterLimit: 1000 });
  app.use(jsonBodyLimits);
  app.use(bodyParserErrors);
  // Social icons of email signatures; immutable content, so caches may keep them.
  app.useStaticAssets(findAssetsDir(), {
    prefix: '/assets/',
    index: false,
    maxAge: '7d',
    fallthrough: true,
  });
  app.use('/uploads', serveUploads(app.get(ObjectStore)));
  app.setGlobalPrefix(API_PREFIX, {
    exclude: [
      'health',
      { path: 'signatures/preview/:token', method: RequestMethod.GET },
      { path: 'webhooks/stripe', method: RequestMethod.POST },
      { path: 'webhooks/paddle', method: RequestMethod.POST },
      { path: 'webhooks/lemonsqueezy', method: RequestMethod.POST },
    ],
  });
  // Exit through process.exit once shut down, so pino's exit handler writes out the buffered log.
  app.enableShutdownHooks(undefined, { useProcessExit: true });

  const document = buildOpenApiDocument(app);
  SwaggerModule.setup(
    'docs',
    app,
    { ...document, servers: [{ url: config.appUrl }] },
    {
      jsonDocumentUrl: `${API_PREFIX}/openapi.json`,
      customSiteTitle: 'Linkdock API',
      // The key entered in Authorize survives a reload (kept in the page's localStorage).
      swaggerOptions: { persistAuthorization: true },
    },
  );
  return app;
}

/** `/api/...` is served by the `/v1/...` handlers; `originalUrl` keeps `/api` for list links. */
function originAlias(req: Request, _res: Response, next: NextFunction): void {
  const url = req.url;
  if (url === `/${ORIGIN_PREFIX}` || /^\/api[/?]/.test(url)) {
    req.url = `/${API_PREFIX}${url.slice(ORIGIN_PREFIX.length + 1)}`;
  }
  next();
}
