import type { Type } from '@nestjs/common';
import {
  ApiProperty,
  ApiPropertyOptional,
  getSchemaPath,
  type PathItemObject,
} from '@nestjs/swagger';
import { LinkResponse } from '@app/links';
import { EVENT_NAMES, type EventName } from '@app/notifications';
import { DomainResponse } from './domains/domain.mapper';
import { TeamMemberResponse } from './teams/team.mapper';

/**
 * What a webhook receives (docs/events.md): these classes only describe the payloads in the
 * OpenAPI document (components), so that receivers can generate types from it.
 */
abstract class EventBase {
  @ApiProperty({
    example: 'evt_Jm3vQ8xk2Yp0aR7bC1dE4f',
    description: 'Unique per event; the same on retries.',
  })
  id!: string;
  @ApiProperty({ example: '2026-11-24 10:00:00', description: 'Y-m-d H:i:s, UTC.' })
  created_at!: string;
}

export class LinkEventPayload extends EventBase {
  @ApiProperty({
    enum: [
      'link.created',
      'link.updated',
      'link.deleted',
      'link.clicks_limit_reached',
      'link.expired',
      'link.destination_broken',
      'link.destination_recovered',
    ],
  })
  event!: string;
  @ApiProperty({ type: LinkResponse, description: 'The link as GET /v1/links/{id} returns it.' })
  data!: LinkResponse;
}

export class DomainEventData extends DomainResponse {
  @ApiPropertyOptional({
    description: 'domain.disabled only: which record was missing and what DNS answered.',
  })
  reason?: string;
}

export class DomainEventPayload extends EventBase {
  @ApiProperty({ enum: ['domain.verified', 'domain.disabled'] }) event!: string;
  @ApiProperty({ type: DomainEventData }) data!: DomainEventData;
}

export class TeamMemberEventData extends TeamMemberResponse {
  @ApiProperty({ example: 'Marketing' }) team_name!: string;
}

export class TeamMemberEventPayload extends EventBase {
  @ApiProperty({ enum: ['team_member.invited', 'team_member.accepted', 'team_member.left'] })
  event!: string;
  @ApiProperty({ type: TeamMemberEventData }) data!: TeamMemberEventData;
}

export class RecordEventPayload extends EventBase {
  @ApiProperty({ enum: ['data.created', 'payment.created'] }) event!: string;
  @ApiProperty({
    type: 'object',
    additionalProperties: true,
    description:
      'The record as GET /v1/data/{id} (or the payment as GET /v1/payments/{id}) returns it.',
  })
  data!: Record<string, unknown>;
}

/** Every event name, for clients that switch on it. */
export class EventNames {
  @ApiProperty({ enum: EVENT_NAMES, isArray: true }) events!: string[];
}

export const EVENT_SCHEMAS = [
  LinkEventPayload,
  DomainEventPayload,
  TeamMemberEventPayload,
  RecordEventPayload,
  EventNames,
];

/** The payload component of each event of the catalogue (a missing event fails to compile). */
export const EVENT_PAYLOADS: Record<EventName, Type<unknown>> = {
  'data.created': RecordEventPayload,
  'payment.created': RecordEventPayload,
  'link.created': LinkEventPayload,
  'link.updated': LinkEventPayload,
  'link.deleted': LinkEventPayload,
  'link.clicks_limit_reached': LinkEventPayload,
  'link.expired': LinkEventPayload,
  'link.destination_broken': LinkEventPayload,
  'link.destination_recovered': LinkEventPayload,
  'domain.verified': DomainEventPayload,
  'domain.disabled': DomainEventPayload,
  'team_member.invited': TeamMemberEventPayload,
  'team_member.accepted': TeamMemberEventPayload,
  'team_member.left': TeamMemberEventPayload,
};

const WEBHOOK_HEADERS = [
  {
    name: 'webhook-id',
    description:
      "The delivery's message id (`msg_…`), the same on every retry: de-duplicate on it.",
    schema: { type: 'string', pattern: '^msg_' },
  },
  {
    name: 'webhook-timestamp',
    description: 'Seconds since 1970 when this attempt was sent.',
    schema: { type: 'string', pattern: '^[0-9]+$' },
  },
  {
    name: 'webhook-signature',
    description:
      '`v1,` + base64 of HMAC-SHA256 over `{webhook-id}.{webhook-timestamp}.{body}` under the ' +
      "handler's secret (Standard Webhooks; several space-separated while a secret is rotated).",
    schema: { type: 'string', pattern: '^v1,' },
  },
  {
    name: 'X-Linkdock-Event',
    description: 'The event name.',
    schema: { type: 'string', enum: [...EVENT_NAMES] },
  },
  {
    name: 'X-Linkdock-Signature',
    description:
      "Linkdock's own `sha256=<hex>` over `{timestamp}.{body}`, kept for receivers written against it.",
    schema: { type: 'string', pattern: '^sha256=[0-9a-f]{64}$' },
  },
].map((header) => ({ ...header, in: 'header' as const, required: true }));

/**
 * OpenAPI 3.1 `webhooks`: what a `webhook` notification handler receives, one entry per event
 * of the catalogue (docs/events.md).
 */
export function eventWebhooks(): Record<string, PathItemObject> {
  const webhooks: Record<string, PathItemObject> = {};
  for (const name of EVENT_NAMES) {
    webhooks[name] = {
      post: {
        operationId: `event_${name.replace('.', '_')}`,
        summary: `The ${name} event`,
        description:
          'Sent to each enabled `webhook` handler subscribed to the event, signed by the ' +
          'Standard Webhooks scheme. Any 2xx is a delivery; anything else is retried (1 min to ' +
          '24 h, 8 attempts); 410 Gone disables the handler.',
        tags: ['notification-handlers'],
        security: [],
        parameters: WEBHOOK_HEADERS,
        requestBody: {
          required: true,
          content: {
            'application/json': {
              schema: {
                allOf: [
                  { $ref: getSchemaPath(EVENT_PAYLOADS[name]) },
                  { type: 'object', properties: { event: { const: name } } },
                ],
              },
            },
          },
        },
        responses: {
          '200': { description: 'Any 2xx: delivered; the body is not read.' },
          '410': {
            description:
              'Gone: no more deliveries. The delivery fails at once and the handler is disabled.',
          },
        },
      },
    } as PathItemObject;
  }
  return webhooks;
}
