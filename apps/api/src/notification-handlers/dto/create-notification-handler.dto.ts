import { applyDecorators } from '@nestjs/common';
import { ApiProperty, ApiPropertyOptional } from '@nestjs/swagger';
import { Transform } from 'class-transformer';
import { ArrayMaxSize, IsArray, IsIn, IsOptional, IsString, MaxLength } from 'class-validator';
import { IsFormBoolean, Required, toFormList, Trim } from '@app/common';
import {
  ALL_HANDLER_FIELDS,
  EVENT_NAMES,
  HANDLER_TYPES,
  type HandlerType,
} from '@app/notifications';

/** `name`, `type`, `is_enabled` and the per-kind fields of origin-api.md §9 (checked per kind). */
export class CreateNotificationHandlerDto {
  @ApiProperty({ maxLength: 64, example: 'Work email' })
  @Trim()
  @Required()
  @MaxLength(64, { message: 'name must be at most 64 characters' })
  @IsString({ message: 'name must be text' })
  name!: string;

  @ApiProperty({ enum: HANDLER_TYPES, example: 'email' })
  @Required()
  @IsIn(HANDLER_TYPES, { message: `type must be one of ${HANDLER_TYPES.join(', ')}` })
  type!: HandlerType;

  @ApiPropertyOptional({ type: Boolean, description: '0 or 1; default 1' })
  @IsOptional()
  @IsFormBoolean()
  is_enabled?: boolean;

  @ApiPropertyOptional({
    type: [String],
    enum: EVENT_NAMES,
    description:
      'The events this handler receives (docs/events.md); default all. As a form: events[]=link.created&events[]=data.created. A bio-page block that picks this handler sends it its data.created whatever this list says.',
  })
  @IsOptional()
  @Transform(toFormList)
  @IsArray({ message: 'events must be a list of event names' })
  @ArrayMaxSize(EVENT_NAMES.length, { message: `events has at most ${EVENT_NAMES.length} names` })
  @IsIn(EVENT_NAMES, {
    each: true,
    message: `events must name events of ${EVENT_NAMES.join(', ')}`,
  })
  events?: string[];

  @ApiPropertyOptional({
    enum: ['json', 'form'],
    description:
      "type webhook: json (default; {id, event, created_at, data}) or form (the origin's form-urlencoded keys)",
  })
  @IsOptional()
  @IsIn(['json', 'form'], { message: 'webhook_format must be json or form' })
  webhook_format?: 'json' | 'form';
}

const FIELD_DOCS: Record<string, string> = {
  email: 'type email: the address to write to',
  webhook: 'type webhook: any http(s) URL; receives signed JSON',
  webhook_secret:
    'type webhook: signing secret (16-128 characters; Standard Webhooks form whsec_<base64 key> when generated); generated when absent',
  slack: 'type slack: https://hooks.slack.com/... incoming-webhook URL',
  discord: 'type discord: https://discord.com/api/webhooks/{id}/{token}',
  telegram: 'type telegram: bot token, as 123456789:AA...',
  telegram_chat_id: 'type telegram: chat id (number) or @channelname',
  microsoft_teams:
    'type microsoft_teams: https://*.webhook.office.com/... or Workflows (logic.azure.com / powerplatform.com) URL',
  google_chat:
    'type google_chat: https://chat.googleapis.com/v1/spaces/.../messages?key=...&token=...',
  x_consumer_key: 'type x: API key',
  x_consumer_secret: 'type x: API key secret',
  x_access_token: 'type x: access token',
  x_access_token_secret: 'type x: access token secret',
  push_subscriber_id: 'type push_subscriber_id: id of a push subscriber',
  twilio: 'type twilio: phone number for SMS, E.164 (+15551234567)',
  twilio_call: 'type twilio_call: phone number to call, E.164',
  whatsapp: 'type whatsapp: phone number, E.164',
};

// Per-kind fields are accepted as text here; which are required and their format depend on
// `type`, so the service checks them (and reports each problem with its field).
for (const field of ALL_HANDLER_FIELDS) {
  applyDecorators(
    ApiPropertyOptional({ type: String, maxLength: 512, description: FIELD_DOCS[field] }),
    IsOptional(),
    Trim(),
    MaxLength(512, { message: `${field} must be at most 512 characters` }),
    IsString({ message: `${field} must be text` }),
  )(CreateNotificationHandlerDto.prototype, field);
}
