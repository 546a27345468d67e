import { applyDecorators } from '@nestjs/common';
import { Transform } from 'class-transformer';
import { IsNumber, Max, Min, ValidationArguments } from 'class-validator';

/** A decimal number within bounds; numeric strings from forms are converted. */
export function DecimalRange(min: number, max: number): PropertyDecorator {
  const message = ({ property }: ValidationArguments): string =>
    `${property} must be a number from ${min} to ${max}`;
  return applyDecorators(
    Transform(({ value }: { value: unknown }) =>
      typeof value === 'string' && /^-?\d{1,12}(\.\d{1,12})?$/.test(value.trim())
        ? Number(value)
        : value,
    ),
    IsNumber({ allowNaN: false, allowInfinity: false }, { message }),
    Min(min, { message }),
    Max(max, { message }),
  );
}
