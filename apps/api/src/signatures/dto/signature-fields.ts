import { applyDecorators } from '@nestjs/common';
import { ApiPropertyOptional } from '@nestjs/swagger';
import { Transform } from 'class-transformer';
import {
  IsIn,
  IsOptional,
  IsString,
  Matches,
  MaxLength,
  ValidateBy,
  ValidateIf,
  ValidationArguments,
} from 'class-validator';
import {
  EMAIL_MAX_LENGTH,
  IntRange,
  IsEmailAddress,
  IsFormBoolean,
  IsHexColor,
  isHttpUrl,
  normalizeHttpUrl,
  NoUrlCredentials,
  Trim,
} from '@app/common';
import {
  COLOR_KEYS,
  DEFAULT_SETTINGS,
  FONT_FAMILIES,
  SIZE_BOUNDS,
  SOCIAL_NETWORKS,
  TEXT_KEYS,
  URL_KEYS,
} from '@app/signatures';

type Decorator = PropertyDecorator;
const msg =
  (text: string) =>
  ({ property }: ValidationArguments): string =>
    `${property} ${text}`;

/** '' clears a text setting, so the format rules apply only to a non-empty value. */
const unlessEmpty = (): Decorator =>
  ValidateIf((_object: object, value: unknown) => value !== undefined && value !== '');

const TEXT_LIMITS: Record<(typeof TEXT_KEYS)[number], number> = {
  sign_off: 128,
  full_name: 128,
  job_title: 128,
  department: 128,
  company: 128,
  address: 256,
  phone_number: 32,
  disclaimer: 1024,
};

function text(max: number): Decorator {
  return applyDecorators(
    ApiPropertyOptional({ type: String, maxLength: max }),
    IsOptional(),
    Trim(),
    MaxLength(max, { message: msg(`must be at most ${max} characters`) }),
    IsString({ message: msg('must be text') }),
  );
}

function httpUrl(): Decorator {
  return applyDecorators(
    ApiPropertyOptional({ type: String, format: 'uri', description: 'http(s) URL, or empty.' }),
    IsOptional(),
    Trim(),
    unlessEmpty(),
    MaxLength(512, { message: msg('must be at most 512 characters') }),
    NoUrlCredentials(),
    ValidateBy(
      {
        name: 'isHttpUrl',
        validator: { validate: (value: unknown) => typeof value === 'string' && isHttpUrl(value) },
      },
      { message: msg('must be an http(s) URL') },
    ),
    IsString({ message: msg('must be text') }),
    // Stored as the URL parser writes it (punycode host, percent-encoded path and query).
    Transform(({ value }: { value: unknown }) =>
      typeof value === 'string' ? (normalizeHttpUrl(value) ?? value) : value,
    ),
  );
}

/** A plain handle: letters, digits, dot, dash, underscore; a leading @ is dropped. */
function handle(what: string): Decorator {
  return applyDecorators(
    ApiPropertyOptional({ type: String, description: `${what} handle (not a URL), or empty.` }),
    IsOptional(),
    Transform(({ value }: { value: unknown }) =>
      typeof value === 'string' ? value.trim().replace(/^@/, '') : value,
    ),
    unlessEmpty(),
    Matches(/^[A-Za-z0-9._-]{1,100}$/, {
      message: msg('must be a plain handle (letters, digits, dot, dash or underscore)'),
    }),
    IsString({ message: msg('must be text') }),
  );
}

/** Applies the validation and documentation of every `settings` key to a DTO class. */
export function decorateSettingsFields(target: object): void {
  const apply = (key: string, decorator: Decorator): void => decorator(target, key);
  for (const key of TEXT_KEYS) apply(key, text(TEXT_LIMITS[key]));
  for (const key of URL_KEYS) apply(key, httpUrl());
  for (const key of COLOR_KEYS) {
    apply(
      key,
      applyDecorators(
        ApiPropertyOptional({
          type: String,
          example: DEFAULT_SETTINGS[key],
          pattern: '^#[0-9a-fA-F]{6}$',
        }),
        IsOptional(),
        IsHexColor(),
      ),
    );
  }
  for (const [key, [min, max]] of Object.entries(SIZE_BOUNDS)) {
    apply(
      key,
      applyDecorators(
        ApiPropertyOptional({
          type: 'integer',
          minimum: min,
          maximum: max,
          example: DEFAULT_SETTINGS[key as keyof typeof SIZE_BOUNDS],
        }),
        IsOptional(),
        IntRange(min, max),
      ),
    );
  }
  for (const network of SOCIAL_NETWORKS) apply(network, handle(network));
  apply('telegram', handle('Telegram'));
  apply('facebook_messenger', handle('Messenger'));
  apply(
    'whatsapp',
    applyDecorators(
      ApiPropertyOptional({
        type: String,
        example: '+15551234567',
        description: 'Phone number in E.164 form, or empty.',
      }),
      IsOptional(),
      Trim(),
      unlessEmpty(),
      Matches(/^\+[1-9]\d{6,14}$/, {
        message: msg('must be a phone number in E.164 form, e.g. +15551234567'),
      }),
      IsString({ message: msg('must be text') }),
    ),
  );
  apply(
    'email',
    applyDecorators(
      ApiPropertyOptional({ type: String, format: 'email' }),
      IsOptional(),
      Trim(),
      unlessEmpty(),
      MaxLength(EMAIL_MAX_LENGTH, {
        message: msg(`must be at most ${EMAIL_MAX_LENGTH} characters`),
      }),
      IsEmailAddress({ message: msg('must be an email address') }),
      IsString({ message: msg('must be text') }),
    ),
  );
  apply(
    'direction',
    applyDecorators(
      ApiPropertyOptional({ enum: ['ltr', 'rtl'], default: 'ltr' }),
      IsOptional(),
      IsIn(['ltr', 'rtl'], { message: msg('must be ltr or rtl') }),
    ),
  );
  apply(
    'font_family',
    applyDecorators(
      ApiPropertyOptional({ enum: Object.keys(FONT_FAMILIES), default: 'arial' }),
      IsOptional(),
      IsIn(Object.keys(FONT_FAMILIES), {
        message: msg(`must be one of ${Object.keys(FONT_FAMILIES).join(', ')}`),
      }),
    ),
  );
  apply(
    'is_removed_branding',
    applyDecorators(
      ApiPropertyOptional({ type: Boolean, description: '0 or 1' }),
      IsOptional(),
      IsFormBoolean(),
    ),
  );
}
