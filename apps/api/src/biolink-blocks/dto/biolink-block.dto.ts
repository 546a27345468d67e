import { applyDecorators } from '@nestjs/common';
import { ApiProperty, ApiPropertyOptional, OmitType, PartialType } from '@nestjs/swagger';
import { Allow, IsIn, IsOptional } from 'class-validator';
import { IntRange, IsFormBoolean, Required } from '@app/common';
import { BIOLINK_BLOCK_TYPES, type BiolinkBlockType } from '@app/database';
import { BLOCK_SETTINGS } from './block-settings.dto';

/** `link_id`, `type`, `order`, `is_enabled` and the per-type fields (checked per type). */
export class CreateBiolinkBlockDto {
  @ApiProperty({ description: 'The bio page (a link of type biolink) of yours', example: 1 })
  @Required()
  @IntRange(1, 2_147_483_647)
  link_id!: number;

  @ApiProperty({ enum: BIOLINK_BLOCK_TYPES, example: 'email_collector' })
  @Required()
  @IsIn(BIOLINK_BLOCK_TYPES, { message: `type must be one of ${BIOLINK_BLOCK_TYPES.join(', ')}` })
  type!: BiolinkBlockType;

  @ApiPropertyOptional({ description: 'Position on the page, ascending; default after the last' })
  @IsOptional()
  @IntRange(0, 1_000_000)
  order?: number;

  @ApiPropertyOptional({ type: Boolean, description: '0 or 1; default 1' })
  @IsOptional()
  @IsFormBoolean()
  is_enabled?: boolean;

  @ApiPropertyOptional({
    type: 'string',
    format: 'binary',
    description: 'type image: the picture (PNG, JPEG, WebP, GIF or SVG, 2 MB); required on create',
  })
  @IsOptional()
  image?: unknown;
}

const DOCS: Record<string, string> = {
  name: 'link: the button text (required); collectors: the submit button text',
  location_url: 'link (required), image: where the block leads, http(s)',
  text: 'heading, paragraph: the text (required)',
  heading_type: 'heading: h1, h2 or h3',
  image_alt: 'image: the alternative text',
  title: 'collectors: the form title',
  description: 'collectors: the text above the form',
  thank_you_message: 'collectors: shown after a successful send',
  thank_you_url: 'collectors: where the visitor goes (303) after a send, instead of the message',
  agreement_text: 'collectors: consent text; when set the visitor must tick the box',
  agreement_url: 'collectors: link of the consent text',
  notification_handlers_ids: 'collectors: notification handlers of yours that get data.created',
  timezone: 'appointment_calendar: IANA time zone of the opening hours',
  days: 'appointment_calendar: open days, mon…sun',
  start_time: 'appointment_calendar: HH:MM local opening time',
  end_time: 'appointment_calendar: HH:MM local closing time',
  duration_value: 'appointment_calendar: slot length',
  duration_type: 'appointment_calendar: minutes or hours',
  max_days_ahead: 'appointment_calendar: how many days ahead slots are offered (1-90)',
  min_notice_minutes: 'appointment_calendar: the earliest bookable slot is this far ahead',
};

const LIST_FIELDS = new Set(['notification_handlers_ids', 'days']);
const ALL_FIELDS = [
  ...new Set(Object.values(BLOCK_SETTINGS).flatMap((settings) => Object.keys(new settings()))),
];

// Per-type fields pass through as sent: which apply, which are required and their rules depend on
// the block's type, so the service checks them with the type's settings class (block-settings.dto.ts).
for (const field of ALL_FIELDS) {
  applyDecorators(
    LIST_FIELDS.has(field)
      ? ApiPropertyOptional({ type: [String], description: DOCS[field] })
      : ApiPropertyOptional({
          type: String,
          description: DOCS[field] ?? `socials: ${field} handle`,
        }),
    Allow(),
  )(CreateBiolinkBlockDto.prototype, field);
}

/** Partial update: absent fields keep their value. The type and the page do not change. */
export class UpdateBiolinkBlockDto extends PartialType(
  OmitType(CreateBiolinkBlockDto, ['link_id', 'type'] as const),
) {}
for (const field of ALL_FIELDS) {
  Allow()(UpdateBiolinkBlockDto.prototype, field);
}
