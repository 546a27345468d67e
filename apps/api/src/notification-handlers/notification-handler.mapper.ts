import { ApiProperty, ApiPropertyOptional } from '@nestjs/swagger';
import { formatDateTime } from '@app/common';
import { NotificationHandlerEntity } from '@app/database';
import {
  EVENT_NAMES,
  HANDLER_TYPES,
  type HandlerSettings,
  maskSettings,
  TEAM_EVENT_NAMES,
} from '@app/notifications';

export class NotificationHandlerResponse {
  @ApiProperty({ example: 1 }) id!: number;
  @ApiProperty({ enum: HANDLER_TYPES, example: 'slack' }) type!: string;
  @ApiProperty({ example: 'Team channel' }) name!: string;
  @ApiProperty({
    type: 'object',
    additionalProperties: { type: 'string' },
    example: { slack: 'https://hooks.slack.com/****Xy9z' },
    description:
      'The per-kind fields. Secrets (tokens, x keys, webhook URLs, webhook_secret) are masked: **** and their last 4 characters; a URL keeps its origin.',
  })
  settings!: HandlerSettings;
  @ApiProperty({ example: true }) is_enabled!: boolean;
  @ApiProperty({
    type: [String],
    enum: EVENT_NAMES,
    description:
      'The events this handler receives (all of them unless chosen; for a handler created through a team, all but the account events payment.* and team_member.*).',
  })
  events!: string[];
  @ApiProperty({
    type: 'integer',
    nullable: true,
    example: null,
    description:
      'The team through which a member created this handler (X-Team-Id), or null when the owner created it. Such a handler never receives account events (docs/events.md).',
  })
  team_id!: number | null;
  @ApiProperty({
    type: String,
    nullable: true,
    example: null,
    description:
      'Why Linkdock turned this handler off (every delivery failing for 3 days); cleared when it is enabled again.',
  })
  disabled_reason!: string | null;
  @ApiProperty({ type: String, nullable: true, example: null }) last_datetime!: string | null;
  @ApiProperty({ example: '2026-11-21 10:00:00' }) datetime!: string;
}

export class CreatedNotificationHandlerResponse {
  @ApiProperty({ example: 1 }) id!: number;
  @ApiPropertyOptional({
    description:
      'Only for a webhook created without webhook_secret: the generated signing secret, shown this once.',
  })
  webhook_secret?: string;
}

export class TestDeliveryResponse {
  @ApiProperty({ description: 'Whether the target accepted the message (2xx, or SMTP success).' })
  ok!: boolean;
  @ApiProperty({ type: 'integer', nullable: true, description: 'HTTP status, or SMTP reply code.' })
  status_code!: number | null;
  @ApiProperty({ type: 'integer', description: 'Time the delivery took, in milliseconds.' })
  latency_ms!: number;
  @ApiProperty({ type: String, nullable: true, description: 'Why it failed, when it did.' })
  error!: string | null;
}

export function toNotificationHandlerResponse(
  entity: NotificationHandlerEntity,
  settings: HandlerSettings,
): NotificationHandlerResponse {
  return {
    id: entity.id,
    type: entity.type,
    name: entity.name,
    settings: maskSettings(settings),
    is_enabled: entity.is_enabled,
    events: subscribedEvents(entity.events, entity.team_id !== null),
    team_id: entity.team_id,
    disabled_reason: entity.disabled_reason,
    last_datetime: formatDateTime(entity.last_datetime),
    datetime: formatDateTime(entity.datetime),
  };
}

/**
 * The stored subscription as a list: null (never chosen) is every event a handler of its kind may
 * receive, which for one made through a team leaves out the account events.
 */
export function subscribedEvents(stored: string | null, throughTeam = false): string[] {
  const all: string[] = throughTeam ? [...TEAM_EVENT_NAMES] : [...EVENT_NAMES];
  if (stored === null) return all;
  try {
    const list = JSON.parse(stored) as unknown;
    return Array.isArray(list)
      ? list.filter((v): v is string => typeof v === 'string' && (!throughTeam || all.includes(v)))
      : [];
  } catch {
    return all;
  }
}
