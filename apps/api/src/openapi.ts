import { INestApplication } from '@nestjs/common';
import { DocumentBuilder, OpenAPIObject, SwaggerModule } from '@nestjs/swagger';
import { EVENT_SCHEMAS } from './openapi-events';

/** The OpenAPI document, generated from controllers and DTOs. docs/openapi.json is its copy. */
export function buildOpenApiDocument(app: INestApplication): OpenAPIObject {
  const config = new DocumentBuilder()
    .setTitle('Linkdock API')
    .setDescription(
      'Short links, chat links, static sites, QR codes, custom domains, splash pages, email ' +
        'signatures, teams and notifications. Every route also answers under /api instead of /v1.',
    )
    .setVersion('1.0.0')
    .addBearerAuth(
      { type: 'http', scheme: 'bearer', bearerFormat: 'opaque', description: 'An API key (ld_…).' },
      'bearer',
    )
    .addSecurityRequirements('bearer')
    .build();
  return SwaggerModule.createDocument(app, config, {
    // The bodies webhooks receive (docs/events.md), as components.
    extraModels: EVENT_SCHEMAS,
    operationIdFactory: (controllerKey: string, methodKey: string) =>
      `${controllerKey.replace(/Controller$/, '')}_${methodKey}`,
  });
}
