import { INestApplication } from '@nestjs/common';
import { DocumentBuilder, OpenAPIObject, SwaggerModule } from '@nestjs/swagger';
import { EVENT_SCHEMAS } from './openapi-events';
import { OPENAPI_TAGS } from './openapi-tags';

/** The OpenAPI document, generated from controllers and DTOs. docs/openapi.json is its copy. */
export function buildOpenApiDocument(app: INestApplication): OpenAPIObject {
  const builder = new DocumentBuilder()
    .setTitle('Linkdock API')
    .setDescription(
      'Short links, chat links, static sites, QR codes, custom domains, splash pages, email ' +
        'signatures, teams and notifications. Every route also answers under /api instead of /v1.',
    )
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
  return SwaggerModule.createDocument(app, config, {
    // The bodies webhooks receive (docs/events.md), as components.
    extraModels: EVENT_SCHEMAS,
    operationIdFactory: (controllerKey: string, methodKey: string) =>
      `${controllerKey.replace(/Controller$/, '')}_${methodKey}`,
  });
}
