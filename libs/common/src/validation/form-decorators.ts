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
