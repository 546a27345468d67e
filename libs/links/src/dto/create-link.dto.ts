import { ApiPropertyOptional } from '@nestjs/swagger';
import { Transform } from 'class-transformer';
import {
  ArrayMaxSize,
  IsArray,
  IsIn,
  IsOptional,
  IsString,
  Matches,
  MaxLength,
  ValidateIf,
} from 'class-validator';
import {
  IntRange,
  IsFormBoolean,
  IsHexColor,
  IsHttpUrl,
  Required,
  toFormList,
  OptionalReferenceId,
  Trim,
} from '@app/common';
import { BIOLINK_FONTS, REDIRECT_STATUS_CODES, TARGETING_TYPES } from '@app/database';

/** Types creatable through this body; `static` also needs the `file` upload. */
export const CREATABLE_LINK_TYPES = ['link', 'walink', 'static', 'biolink'] as const;
export const MAX_SITE_NAME = 128;
export const MAX_TARGETING_RULES = 100;

const toNumber = ({ value }: { value: unknown }): unknown =>
  typeof value === 'string' && /^\d{1,6}$/.test(value.trim()) ? Number(value) : value;
/** An empty form value means "none". */
const isSet = (value: unknown): boolean => value !== undefined && value !== null && value !== '';

function TargetingList(name: string): PropertyDecorator {
  return (target, key) => {
    ApiPropertyOptional({
      type: [String],
      description: `Targeting rules: ${name}[]; pairs by position with its _key/_value twin`,
    })(target, key);
    Transform(toFormList)(target, key);
    IsOptional()(target, key);
    IsArray()(target, key);
    ArrayMaxSize(MAX_TARGETING_RULES)(target, key);
    IsString({ each: true })(target, key);
    MaxLength(2048, { each: true })(target, key);
  };
}

export class CreateLinkDto {
  @ApiPropertyOptional({ enum: CREATABLE_LINK_TYPES, default: 'link' })
  @IsOptional()
  @IsIn(CREATABLE_LINK_TYPES, { message: 'type must be one of link, walink, static, biolink' })
  type?: (typeof CREATABLE_LINK_TYPES)[number];

  @ApiPropertyOptional({
    description: 'static: the site name (required for static links); biolink: the page name',
    maxLength: MAX_SITE_NAME,
  })
  @Trim()
  @ValidateIf((o: CreateLinkDto) => o.type === 'static' || o.name !== undefined)
  @Required()
  @IsString()
  @MaxLength(MAX_SITE_NAME)
  name?: string;

  /** Documents the file part; the file itself reaches the service through @UploadedOnDisk(). */
  @ApiPropertyOptional({
    type: 'string',
    format: 'binary',
    description:
      'static: a .html page (published as index.html) or a .zip with index.html at its root or inside one top-level folder. Required on create.',
  })
  @IsOptional()
  file?: unknown;

  @ApiPropertyOptional({
    description: 'Destination, http(s) with a host. Required for type link.',
    example: 'https://example.com/page',
  })
  @ValidateIf((o: CreateLinkDto) => (o.type ?? 'link') === 'link' || o.location_url !== undefined)
  @Required()
  @IsHttpUrl()
  location_url?: string;

  @ApiPropertyOptional({
    description: 'Alias: letters, digits, - and _, 3 to 64 characters; random when empty',
    example: 'spring-sale',
  })
  @Trim()
  @IsOptional()
  @IsString()
  @ValidateIf((o: CreateLinkDto) => isSet(o.url))
  @Matches(/^[A-Za-z0-9_-]{3,64}$/, {
    message: 'url must be 3 to 64 letters, digits, - or _',
  })
  url?: string;

  @ApiPropertyOptional({ description: '0 = the main domain', default: 0 })
  @IsOptional()
  @IntRange(0, 2_147_483_647)
  domain_id?: number;

  @OptionalReferenceId('A project of yours; 0 or empty = none')
  project_id?: number;

  @ApiPropertyOptional({
    description: 'A splash page of yours shown before the destination; 0 or empty = none',
  })
  @Transform(({ value }: { value: unknown }) => (value === '' ? 0 : value))
  @IsOptional()
  @IntRange(0, 2_147_483_647)
  splash_page_id?: number;

  @ApiPropertyOptional({ enum: [0, 1], default: 1 })
  @IsOptional()
  @IsFormBoolean()
  is_enabled?: boolean;

  @ApiPropertyOptional({ enum: REDIRECT_STATUS_CODES, default: 302 })
  @Transform(toNumber)
  @IsOptional()
  @IsIn(REDIRECT_STATUS_CODES, { message: 'http_status_code must be one of 301, 302, 307, 308' })
  http_status_code?: (typeof REDIRECT_STATUS_CODES)[number];

  @ApiPropertyOptional({ description: 'Visitor password, at most 64 characters; empty removes it' })
  @IsOptional()
  @IsString()
  @MaxLength(64)
  password?: string;

  @ApiPropertyOptional({ enum: [0, 1], description: 'Use start_date and end_date' })
  @IsOptional()
  @IsFormBoolean()
  schedule?: boolean;

  @ApiPropertyOptional({
    description: 'Y-m-d H:i:s (UTC); empty = open',
    example: '2026-12-01 00:00:00',
  })
  @Trim()
  @IsOptional()
  @ValidateIf((o: CreateLinkDto) => isSet(o.start_date))
  @Matches(/^\d{4}-\d{2}-\d{2} \d{2}:\d{2}:\d{2}$/, { message: 'start_date must be Y-m-d H:i:s' })
  start_date?: string;

  @ApiPropertyOptional({
    description: 'Y-m-d H:i:s (UTC); empty = open',
    example: '2026-12-31 23:59:59',
  })
  @Trim()
  @IsOptional()
  @ValidateIf((o: CreateLinkDto) => isSet(o.end_date))
  @Matches(/^\d{4}-\d{2}-\d{2} \d{2}:\d{2}:\d{2}$/, { message: 'end_date must be Y-m-d H:i:s' })
  end_date?: string;

  @ApiPropertyOptional({ description: 'Visits allowed; 0 or empty = unlimited' })
  @Transform(({ value }: { value: unknown }) => (value === '' ? 0 : value))
  @IsOptional()
  @IntRange(0, 2_000_000_000)
  clicks_limit?: number;

  @ApiPropertyOptional({ description: 'Where visitors go once the link expired or hit its limit' })
  @IsOptional()
  @ValidateIf((o: CreateLinkDto) => isSet(o.expiration_url))
  @IsHttpUrl()
  expiration_url?: string;

  @ApiPropertyOptional({ maxLength: 128 })
  @Trim()
  @IsOptional()
  @IsString()
  @MaxLength(128)
  utm_source?: string;

  @ApiPropertyOptional({ maxLength: 128 })
  @Trim()
  @IsOptional()
  @IsString()
  @MaxLength(128)
  utm_medium?: string;

  @ApiPropertyOptional({ maxLength: 128 })
  @Trim()
  @IsOptional()
  @IsString()
  @MaxLength(128)
  utm_campaign?: string;

  @ApiPropertyOptional({ enum: [0, 1], description: "Append the visitor's query string" })
  @IsOptional()
  @IsFormBoolean()
  forward_query_parameters_is_enabled?: boolean;

  @ApiPropertyOptional({ enum: [0, 1], description: 'Show a warning page before redirecting' })
  @IsOptional()
  @IsFormBoolean()
  sensitive_content?: boolean;

  @ApiPropertyOptional({ enum: ['false', ...TARGETING_TYPES] })
  @Trim()
  @IsOptional()
  @IsIn(['false', '', ...TARGETING_TYPES], {
    message: `targeting_type must be one of false, ${TARGETING_TYPES.join(', ')}`,
  })
  targeting_type?: string;

  @TargetingList('targeting_country_code_key') targeting_country_code_key?: string[];
  @TargetingList('targeting_country_code_value') targeting_country_code_value?: string[];
  @TargetingList('targeting_continent_code_key') targeting_continent_code_key?: string[];
  @TargetingList('targeting_continent_code_value') targeting_continent_code_value?: string[];
  @TargetingList('targeting_device_type_key') targeting_device_type_key?: string[];
  @TargetingList('targeting_device_type_value') targeting_device_type_value?: string[];
  @TargetingList('targeting_os_name_key') targeting_os_name_key?: string[];
  @TargetingList('targeting_os_name_value') targeting_os_name_value?: string[];
  @TargetingList('targeting_browser_name_key') targeting_browser_name_key?: string[];
  @TargetingList('targeting_browser_name_value') targeting_browser_name_value?: string[];
  @TargetingList('targeting_browser_language_key') targeting_browser_language_key?: string[];
  @TargetingList('targeting_browser_language_value') targeting_browser_language_value?: string[];
  @TargetingList('targeting_rotation_key') targeting_rotation_key?: string[];
  @TargetingList('targeting_rotation_value') targeting_rotation_value?: string[];

  @ApiPropertyOptional({
    description: 'walink: digits with the country code (a leading + and spaces are dropped)',
    example: '15551234567',
  })
  @Transform(({ value }: { value: unknown }) =>
    typeof value === 'string' ? value.replace(/[\s()+-]/g, '') : value,
  )
  @ValidateIf((o: CreateLinkDto) => o.type === 'walink' || o.phone_number !== undefined)
  @Required()
  @Matches(/^[1-9]\d{6,14}$/, {
    message: 'phone_number must be 7 to 15 digits including the country code',
  })
  phone_number?: string;

  @ApiPropertyOptional({ description: 'walink: the prefilled chat message', maxLength: 1024 })
  @IsOptional()
  @IsString()
  @MaxLength(1024)
  message?: string;

  @ApiPropertyOptional({
    type: 'string',
    format: 'binary',
    description: 'biolink: the avatar (PNG, JPEG, WebP, GIF or SVG, 2 MB; stored as a PNG)',
  })
  @IsOptional()
  avatar?: unknown;

  @ApiPropertyOptional({ enum: [0, 1], description: 'biolink: 1 removes the avatar' })
  @IsOptional()
  @IsFormBoolean()
  avatar_remove?: boolean;

  @ApiPropertyOptional({
    type: String,
    nullable: true,
    maxLength: 120,
    description:
      'The title chat apps and social sites show when they unfurl the link (og:title); empty or null removes it',
  })
  @IsOptional()
  @IsString()
  @MaxLength(120)
  preview_title?: string | null;

  @ApiPropertyOptional({
    type: String,
    nullable: true,
    maxLength: 300,
    description: 'The description of the link preview (og:description); empty or null removes it',
  })
  @IsOptional()
  @IsString()
  @MaxLength(300)
  preview_description?: string | null;

  @ApiPropertyOptional({
    type: 'string',
    format: 'binary',
    description:
      'The image of the link preview (PNG, JPEG, WebP or GIF, 5 MB; stored as a 1200x630 JPEG, cropped from the centre)',
  })
  @IsOptional()
  preview_image?: unknown;

  @ApiPropertyOptional({ enum: [0, 1], description: '1 removes the preview image' })
  @IsOptional()
  @IsFormBoolean()
  preview_image_remove?: boolean;

  @ApiPropertyOptional({ description: 'biolink: the heading of the page', maxLength: 128 })
  @Trim()
  @IsOptional()
  @IsString()
  @MaxLength(128)
  title?: string;

  @ApiPropertyOptional({ description: 'biolink: the text under the heading', maxLength: 1024 })
  @Trim()
  @IsOptional()
  @IsString()
  @MaxLength(1024)
  description?: string;

  @ApiPropertyOptional({ description: 'biolink: #rrggbb', example: '#f4f4f5' })
  @IsOptional()
  @IsHexColor()
  background_color?: string;

  @ApiPropertyOptional({
    description: 'biolink: #rrggbb, the second colour of a top-to-bottom gradient; empty = solid',
  })
  @Transform(({ value }: { value: unknown }) => (value === '' ? null : value))
  @IsOptional()
  @IsHexColor()
  background_color_two?: string | null;

  @ApiPropertyOptional({ description: 'biolink: #rrggbb', example: '#18181b' })
  @IsOptional()
  @IsHexColor()
  text_color?: string;

  @ApiPropertyOptional({ description: 'biolink: #rrggbb', example: '#18181b' })
  @IsOptional()
  @IsHexColor()
  button_color?: string;

  @ApiPropertyOptional({ description: 'biolink: #rrggbb', example: '#ffffff' })
  @IsOptional()
  @IsHexColor()
  button_text_color?: string;

  @ApiPropertyOptional({ enum: BIOLINK_FONTS, description: 'biolink: a system font family' })
  @IsOptional()
  @IsIn(BIOLINK_FONTS, { message: `font must be one of ${BIOLINK_FONTS.join(', ')}` })
  font?: (typeof BIOLINK_FONTS)[number];

  @ApiPropertyOptional({ description: 'biolink: the page title for search engines', maxLength: 70 })
  @Trim()
  @IsOptional()
  @IsString()
  @MaxLength(70)
  seo_title?: string;

  @ApiPropertyOptional({ description: 'biolink: the meta description', maxLength: 160 })
  @Trim()
  @IsOptional()
  @IsString()
  @MaxLength(160)
  seo_description?: string;

  @ApiPropertyOptional({ enum: [0, 1], description: 'biolink: ask search engines not to index' })
  @IsOptional()
  @IsFormBoolean()
  seo_noindex?: boolean;
}
