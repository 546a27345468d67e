import { applyDecorators } from '@nestjs/common';
import { ApiPropertyOptional } from '@nestjs/swagger';
import { Transform } from 'class-transformer';
import { IsOptional, ValidateBy, ValidationArguments } from 'class-validator';
import { decimalInRange, decimalPlaces, normalizeDecimal, numberToDecimal } from '@app/qr';

/** What a form or JSON string may hold: a plain decimal, no exponent, no thousands separator. */
const PLAIN_DECIMAL = '^-?\\d{1,13}(\\.\\d{1,18})?$';

/**
 * An optional decimal within bounds, kept as a plain decimal string (`0.00000001`, never `1e-8`)
 * from the request to the encoder, so that no digit passes through a float. A JSON number is taken
 * too, by the digits of its shortest form; a string must be a plain decimal.
 */
export function DecimalString(min: string, max: string, example: string): PropertyDecorator {
  const message = ({ property }: ValidationArguments): string =>
    `${property} must be a decimal number from ${min} to ${max}, such as ${example}`;
  const pattern = new RegExp(PLAIN_DECIMAL);
  return applyDecorators(
    ApiPropertyOptional({
      type: 'string',
      pattern: PLAIN_DECIMAL,
      example,
      description: `A decimal number from ${min} to ${max}, written out (no exponent); a JSON number is accepted too`,
    }),
    IsOptional(),
    Transform(({ value }: { value: unknown }) => {
      if (typeof value === 'number') {
        return numberToDecimal(value) ?? value;
      }
      if (typeof value === 'string' && pattern.test(value.trim())) {
        return normalizeDecimal(value) ?? value;
      }
      return value;
    }),
    ValidateBy(
      {
        name: 'decimalString',
        validator: {
          validate: (value: unknown): boolean =>
            typeof value === 'string' &&
            normalizeDecimal(value) === value &&
            decimalPlaces(value) <= 18 &&
            decimalInRange(value, min, max),
        },
      },
      { message },
    ),
  );
}
