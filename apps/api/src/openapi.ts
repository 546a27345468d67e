import { INestApplication } from '@nestjs/common';
import {
  DocumentBuilder,
  getSchemaPath,
  OpenAPIObject,
  type PathItemObject,
  SwaggerModule,
} from '@nestjs/swagger';
import { ErrorBodyDto } from '@app/common';
import { EVENT_SCHEMAS, eventWebhooks } from './openapi-events';
import { OPENAPI_TAGS } from './openapi-tags';

/** The OpenAPI document, generated from controllers and DTOs. docs/openapi.json is its copy. */
export function buildOpenApiDocument(app: INestApplication): OpenAPIObject {
  const builder = new DocumentBuilder()
    .setTitle('Linkdock API')
    .setDescription(
      'Short links, chat links, static sites, QR codes, custom domains, splash pages, email ' +
        'signatures, teams and notifications. Every route also answers under /api instead of /v1.',
    )
    .setOpenAPIVersion('3.1.0')
    .setVersion('1.0.0')
    // The committed document: the server that serves it (a URL relative to the document's own);
    // the one served at /v1/openapi.json and in Swagger UI names APP_URL instead.
    .addServer('/', 'The Linkdock that serves this document')
    .addBearerAuth(
      { type: 'http', scheme: 'bearer', bearerFormat: 'opaque', description: 'An API key (ld_…).' },
      'bearer',
    )
    .addSecurityRequirements('bearer');
  for (const tag of OPENAPI_TAGS) builder.addTag(tag.name, tag.description);
  const config = builder.build();
  // The same licence as package.json and the LICENSE file (SPDX identifier).
  config.info.license = { name: 'MIT', url: 'https://opensource.org/license/mit' };
  const document = SwaggerModule.createDocument(app, config, {
    // The bodies webhooks receive (docs/events.md), as components.
    extraModels: EVENT_SCHEMAS,
    operationIdFactory: (controllerKey: string, methodKey: string) =>
      `${controllerKey.replace(/Controller$/, '')}_${methodKey}`,
  });
  document.paths['/metrics'] = METRICS_PATH;
  document.components!.securitySchemes!.metrics = {
    type: 'http',
    scheme: 'bearer',
    description: 'METRICS_TOKEN (not an API key).',
  };
  document.webhooks = eventWebhooks();
  return withoutNullable(document);
}

/**
 * GET /metrics is middleware (metrics.service.ts), not a controller: its operation by hand. On
 * the API port it is served only when METRICS_TOKEN is set; METRICS_PORT serves the same path on
 * a port of its own (where the token is optional): the operation's second server.
 */
const METRICS_PATH: PathItemObject = {
  get: {
    servers: [
      { url: '/', description: 'The API port, when METRICS_TOKEN is set' },
      {
        url: 'http://{host}:{port}',
        description:
          'METRICS_PORT: a port of its own that serves only /metrics (the bearer is needed only ' +
          'when METRICS_TOKEN is set); the worker serves its own metrics on its METRICS_PORT',
        variables: {
          host: { default: 'localhost', description: 'The host the process runs on' },
          port: {
            default: '9464',
            description:
              'METRICS_PORT (unset by default; docker-compose.yml gives the worker 9464)',
          },
        },
      },
    ],
    operationId: 'Metrics_scrape',
    tags: ['operations'],
    summary: 'Prometheus metrics of the API process (METRICS_TOKEN, not an API key)',
    description:
      'Served on this port only when METRICS_TOKEN is set, with `Authorization: Bearer ' +
      '<METRICS_TOKEN>`; unset, the path answers 404 as any unknown one. METRICS_PORT serves ' +
      'the same answer on a port of its own. Not rate-limited.',
    security: [{ metrics: [] }],
    responses: {
      '200': {
        description: 'The Prometheus text exposition format 0.0.4.',
        content: { 'text/plain; version=0.0.4; charset=utf-8': { schema: { type: 'string' } } },
      },
      '401': {
        description: 'The bearer is missing or is not METRICS_TOKEN.',
        headers: {
          'WWW-Authenticate': { schema: { type: 'string', example: 'Bearer realm="metrics"' } },
        },
        content: { 'application/json': { schema: { $ref: getSchemaPath(ErrorBodyDto) } } },
      },
    },
  },
};

/**
 * @nestjs/swagger writes OpenAPI 3.0's `nullable: true`, which 3.1 (JSON Schema 2020-12) dropped:
 * each becomes `null` among the schema's types (and among its `enum` values).
 */
export function withoutNullable<T>(node: T): T {
  if (Array.isArray(node)) {
    return node.map((item: unknown) => withoutNullable(item)) as T;
  }
  if (node === null || typeof node !== 'object') {
    return node;
  }
  // `nullable` as a keyword (a boolean), not a property named so (a schema).
  const nullable = (node as Record<string, unknown>).nullable;
  const out: Record<string, unknown> = {};
  for (const [key, value] of Object.entries(node)) {
    if (key !== 'nullable' || typeof value !== 'boolean') out[key] = withoutNullable(value);
  }
  if (nullable !== true) {
    return out as T;
  }
  if (typeof out.type !== 'string') {
    throw new Error(`A nullable schema without one type: ${JSON.stringify(node)}`);
  }
  out.type = [out.type, 'null'];
  const values: unknown = out.enum;
  if (Array.isArray(values) && !values.includes(null)) {
    out.enum = [...(values as unknown[]), null];
  }
  return out as T;
}
