import { ApiProperty, ApiPropertyOptional } from '@nestjs/swagger';
import { EVENT_NAMES } from '@app/notifications';
import { DomainResponse } from './domains/domain.mapper';
import { LinkResponse } from './links/link.mapper';
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
