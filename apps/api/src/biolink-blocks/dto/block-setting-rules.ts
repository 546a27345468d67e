import { applyDecorators } from '@nestjs/common';
import { Transform } from 'class-transformer';
import {
  ArrayMaxSize,
  IsIn,
  IsInt,
  IsOptional,
  Matches,
  Max,
  MaxLength,
  Min,
  ValidateBy,
  ValidationArguments,
} from 'class-validator';
import { IntRange, IsHttpUrl, isValidTimeZone, toFormList } from '@app/common';

/*
 * The rules of a block's settings fields. A field arrives from a form or as JSON: a string or a
 * number is read as trimmed text; a list, an object or a boolean is refused by `SingleValue`. A
 * field that is absent or null keeps its value (see `buildBlockSettings`), so these rules see only
 * what was sent, and an optional text or URL sent empty clears the field.
 *
 * applyDecorators applies its list in order, the reverse of stacked decorators: each list is
 * written bottom-up, so its last rule is the one a 400 reports when several fail.
 */

type Message = (args: ValidationArguments) => string;

const says =
  (tail: string): Message =>
  ({ property }) =>
    `${property} ${tail}`;

export const WEEKDAYS = ['mon', 'tue', 'wed', 'thu', 'fri', 'sat', 'sun'] as const;
export type Weekday = (typeof WEEKDAYS)[number];

const TIME = /^([01]\d|2[0-3]):[0-5]\d$/;
const HANDLE = /^[A-Za-z0-9._-]{1,64}$/;
const MAX_ID = 2_147_483_647;

/** A string or a number as trimmed text; anything else as sent, for `SingleValue` to refuse. */
function scalarText(value: unknown): unknown {
  return typeof value === 'string' || typeof value === 'number' ? String(value).trim() : value;
}

/** One value, as a form field or a JSON string or number holds it: not a list or an object. */
function SingleValue(): PropertyDecorator {
  return ValidateBy({
    name: 'singleValue',
    validator: {
      validate: (value: unknown) => typeof value === 'string' || typeof value === 'number',
      defaultMessage: says('must be a single value.'),
    },
  });
}

/** Written above a field's rule: the field must end up set (sent empty on create, it is not). */
export function RequiredFor(type: string): PropertyDecorator {
  return ValidateBy({
    name: 'requiredSetting',
    validator: {
      validate: (value: unknown) => value !== null && value !== undefined,
      defaultMessage: says(`is required for a ${type} block.`),
    },
  });
}

/** Without `RequiredFor` above it, a field may be null (an optional text sent empty). */
function optional(required: boolean): PropertyDecorator[] {
  return required ? [] : [IsOptional()];
}

/** Text of at most `max` characters; sent empty, it clears the field (null). */
export function SettingText(max: number, { required = false } = {}): PropertyDecorator {
  return applyDecorators(
    MaxLength(max, { message: says(`must be at most ${max} characters.`) }),
    SingleValue(),
    Transform(({ value }: { value: unknown }) => {
      const text = scalarText(value);
      return text === '' ? null : text;
    }),
    ...optional(required),
  );
}

/** An http(s) URL by the one URL rule (`@IsHttpUrl`), stored normalised; sent empty, null. */
export function SettingUrl({ required = false } = {}): PropertyDecorator {
  return applyDecorators(
    Transform(({ value }: { value: unknown }) => {
      const text = scalarText(value);
      return text === '' ? null : text;
    }),
    IsHttpUrl(),
    SingleValue(),
    ...optional(required),
  );
}

/** A social network handle, stored without a leading @; sent empty, null. */
export function SettingHandle(): PropertyDecorator {
  return applyDecorators(
    Matches(HANDLE, {
      message: says('must be a handle of letters, digits, ., _ or - (at most 64).'),
    }),
    SingleValue(),
    Transform(({ value }: { value: unknown }) => {
      const text = scalarText(value);
      return text === '' ? null : typeof text === 'string' ? text.replace(/^@/, '') : text;
    }),
    IsOptional(),
  );
}

/** A time of day as HH:MM (24 h). */
export function SettingTime(): PropertyDecorator {
  return applyDecorators(
    Matches(TIME, { message: says('must be a time as HH:MM (24 h).') }),
    SingleValue(),
    Transform(({ value }: { value: unknown }) => scalarText(value)),
    IsOptional(),
  );
}

/** A whole number from `min` to `max` (`@IntRange`); numeric strings from forms are converted. */
export function SettingInt(min: number, max: number): PropertyDecorator {
  return applyDecorators(IntRange(min, max), SingleValue(), IsOptional());
}

/** One of `values`. */
export function SettingChoice(values: readonly string[]): PropertyDecorator {
  return applyDecorators(
    IsIn(values, { message: says(`must be one of ${values.join(', ')}.`) }),
    SingleValue(),
    Transform(({ value }: { value: unknown }) => scalarText(value)),
    IsOptional(),
  );
}

/** An IANA time zone. */
export function SettingTimeZone(): PropertyDecorator {
  return applyDecorators(
    ValidateBy({
      name: 'isTimeZone',
      validator: {
        validate: (value: unknown) => typeof value === 'string' && isValidTimeZone(value),
        defaultMessage: says('must be an IANA time zone such as Europe/Paris.'),
      },
    }),
    SingleValue(),
    Transform(({ value }: { value: unknown }) => scalarText(value)),
    IsOptional(),
  );
}

/** `name[]=v`, `name[0]=v`, a JSON list or one value as a list; sent empty, an empty list. */
function formList(value: unknown): unknown[] {
  return value === '' ? [] : (toFormList({ value }) as unknown[]);
}

/** Days of the week, case-insensitive, stored in week order without repeats. */
export function SettingDays(): PropertyDecorator {
  return applyDecorators(
    IsIn(WEEKDAYS, { each: true, message: says(`must list days among ${WEEKDAYS.join(', ')}.`) }),
    Transform(({ value }: { value: unknown }) => {
      const days = formList(value).map((d) => String(d).trim().toLowerCase());
      const known = days.every((d) => (WEEKDAYS as readonly string[]).includes(d));
      return known ? WEEKDAYS.filter((d) => days.includes(d)) : days;
    }),
    IsOptional(),
  );
}

/** Up to 20 ids (of the caller's notification handlers: the service checks), without repeats. */
export function SettingHandlerIds(): PropertyDecorator {
  const message = says('must be at most 20 notification handler ids of yours.');
  return applyDecorators(
    Max(MAX_ID, { each: true, message }),
    Min(1, { each: true, message }),
    IsInt({ each: true, message }),
    ArrayMaxSize(20, { message }),
    Transform(({ value }: { value: unknown }) => {
      const ids = formList(value).map((v) =>
        typeof v === 'number' ? v : Number(String(v).trim()),
      );
      const valid = ids.length <= 20 && ids.every((id) => Number.isInteger(id) && id >= 1);
      return valid ? [...new Set(ids)] : ids;
    }),
    IsOptional(),
  );
}
