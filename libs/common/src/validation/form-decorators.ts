import { applyDecorators } from '@nestjs/common';
import { ApiPropertyOptional } from '@nestjs/swagger';
import { Transform } from 'class-transformer';
import {
  ArrayMaxSize,
  IsArray,
  IsBoolean,
  IsInt,
  IsNotEmpty,
  IsOptional,
  IsString,
  MaxLength,
  Matches,
  Max,
  Min,
  ValidateBy,
  ValidationArguments,
} from 'class-validator';
import { parseFormBoolean } from './form-boolean';

type Decorator = PropertyDecorator;

/** `0/1/true/false` from forms, or real booleans from JSON, become a boolean. */
export function IsFormBoolean(): Decorator {
  return applyDecorators(
    Transform(({ value }: { value: unknown }) => parseFormBoolean(value) ?? value),
    IsBoolean({ message: ({ property }: ValidationArguments) => `${property} must be 0 or 1` }),
  );
}

/** A whole number within bounds; numeric strings from forms are converted. */
export function IntRange(min: number, max: number): Decorator {
  const message = ({ property }: ValidationArguments): string =>
    `${property} must be a whole number from ${min} to ${max}`;
  return applyDecorators(
    Transform(({ value }: { value: unknown }) =>
      typeof value === 'string' && /^-?\d{1,15}$/.test(value.trim()) ? Number(value) : value,
    ),
    IsInt({ message }),
    Min(min, { message }),
    Max(max, { message }),
  );
}

/**
 * The id of one of the caller's resources (a project), where `0`, empty and JSON null all mean
 * "none": always a whole number after transformation, 0 for none. The service turns 0 into null.
 */
export function OptionalReferenceId(description: string): Decorator {
  return applyDecorators(
    IntRange(0, 2147483647),
    Transform(({ value }: { value: unknown }) => (value === '' || value === null ? 0 : value)),
    IsOptional(),
    ApiPropertyOptional({ type: 'integer', minimum: 0, nullable: true, description }),
  );
}

/** A `#rrggbb` colour, stored lowercase. */
export function IsHexColor(): Decorator {
  return applyDecorators(
    Transform(({ value }: { value: unknown }) =>
      typeof value === 'string' ? value.trim().toLowerCase() : value,
    ),
    Matches(/^#[0-9a-f]{6}$/, {
      message: ({ property }: ValidationArguments) => `${property} must be a colour as #rrggbb`,
    }),
  );
}

/** Trims surrounding white space of string inputs. */
export function Trim(): Decorator {
  return Transform(({ value }: { value: unknown }) =>
    typeof value === 'string' ? value.trim() : value,
  );
}

/** Present and not empty (after @Trim(), white space alone counts as empty). */
export function Required(): Decorator {
  return IsNotEmpty({ message: ({ property }: ValidationArguments) => `${property} is required` });
}

/**
 * An absolute http(s) URL with a host, stored as a browser resolves it: WHATWG `URL.href`, so the
 * host is lower-case punycode (`bücher.example` is `xn--bcher-kva.example`, a fullwidth dot is a
 * dot), the path, query and fragment are percent-encoded, and `a/../b` is `b`. That form is plain
 * ASCII, so it can always be sent in a `Location` header. The length limit applies to it. A URL
 * with credentials is refused (see `hasUrlCredentials`).
 */
export function IsHttpUrl(maxLength = 2048): Decorator {
  return applyDecorators(
    Transform(({ value }: { value: unknown }) =>
      typeof value === 'string' ? (normalizeHttpUrl(value) ?? value.trim()) : value,
    ),
    NoUrlCredentials(),
    ValidateBy({
      name: 'isHttpUrl',
      validator: {
        validate: (value: unknown) =>
          typeof value === 'string' &&
          value.length <= maxLength &&
          normalizeHttpUrl(value) !== null,
        defaultMessage: ({ property }: ValidationArguments) =>
          `${property} must be an http:// or https:// URL with a host, at most ${maxLength} characters`,
      },
    }),
  );
}

/** The title of a URL refused for its credentials, naming the field. */
export function urlCredentialsMessage(field: string): string {
  return `${field} must not carry a user name or password (user:password@ before the host), which browsers show like part of the address.`;
}

/**
 * Refuses an http(s) URL with credentials, with its own message; anything that is no URL passes
 * here (the URL rule beside it says so). Written above that rule: a URL with credentials fails
 * only this one.
 */
export function NoUrlCredentials(): Decorator {
  return ValidateBy({
    name: 'noUrlCredentials',
    validator: {
      validate: (value: unknown) => {
        const href = typeof value === 'string' ? normalizeHttpUrl(value) : null;
        return href === null || !hasUrlCredentials(href);
      },
      defaultMessage: ({ property }: ValidationArguments) => urlCredentialsMessage(property),
    },
  });
}

/** C0 control characters and DEL: a URL parser drops some of them silently, so they are refused. */
// eslint-disable-next-line no-control-regex -- finding control characters is the point
const CONTROL = /[\u0000-\u001f\u007f]/;

/** An http(s) URL that a new write may store: see `normalizeHttpUrl` and `hasUrlCredentials`. */
export function isHttpUrl(value: string): boolean {
  const href = normalizeHttpUrl(value);
  return href !== null && !hasUrlCredentials(href);
}

/**
 * Whether a URL (a `normalizeHttpUrl` result) has a user name or password. `https://paypal.com@
 * evil.example/` goes to evil.example but reads as paypal.com: a phishing disguise, so new URLs
 * may not have them. Rows stored before this rule are still read and served: `normalizeHttpUrl`
 * keeps parsing them.
 */
export function hasUrlCredentials(href: string): boolean {
  const url = new URL(href);
  return url.username !== '' || url.password !== '';
}

/**
 * The `URL.href` of an absolute http(s) URL with a host (surrounding white space ignored), or null.
 * `https:host` and `https:/host` parse as https://host/ on their own, but a browser reads them
 * relative to the page they are on (a path on our own host): only the full form is a URL here.
 */
export function normalizeHttpUrl(value: string): string | null {
  const text = value.trim();
  if (!/^https?:[/\\]{2}/i.test(text) || CONTROL.test(text) || !text.isWellFormed()) {
    return null;
  }
  let url: URL;
  try {
    url = new URL(text);
  } catch {
    return null;
  }
  return (url.protocol === 'http:' || url.protocol === 'https:') && url.hostname !== ''
    ? url.href
    : null;
}

/** `name[]=a&name[]=b`, `name[0]=a` (or sparse indexes, which arrive as an object), a JSON array or
 * a single value: always a list. */
export function toFormList({ value }: { value: unknown }): unknown {
  if (value === undefined || Array.isArray(value)) {
    return value;
  }
  return typeof value === 'object' && value !== null ? Object.values(value) : [value];
}

// applyDecorators applies its list in order, the reverse of stacked decorators: these lists are
// written bottom-up so that the validation pipe reports the same rule first as the stacked form.

/** An optional text field, trimmed, at most `maxLength` characters. */
export function OptionalText(maxLength: number): Decorator {
  return applyDecorators(
    MaxLength(maxLength),
    IsString(),
    Trim(),
    IsOptional(),
    ApiPropertyOptional({ maxLength }),
  );
}

/** An optional list of at most `maxItems` texts of at most `maxLength` characters each. */
export function OptionalTextList(maxItems: number, maxLength: number): Decorator {
  return applyDecorators(
    MaxLength(maxLength, { each: true }),
    IsString({ each: true }),
    ArrayMaxSize(maxItems),
    IsArray(),
    Transform(toFormList),
    IsOptional(),
    ApiPropertyOptional({ type: [String], maxItems }),
  );
}
