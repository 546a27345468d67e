import { applyDecorators } from '@nestjs/common';
import { ApiPropertyOptional } from '@nestjs/swagger';
import { Transform } from 'class-transformer';
import { IsOptional, ValidateBy, ValidationArguments } from 'class-validator';
import { parseFormBoolean } from '@app/common';
import { ACCESS_FLAGS, type AccessFlag, type AccessFlags } from '@app/database';

/** Why an `access` input was refused; the validator reports it as the problem of `access`. */
class InvalidAccess {
  constructor(readonly reason: string) {}
}

const ALLOWED = ACCESS_FLAGS.join(', ');

const isFlag = (value: string): value is AccessFlag =>
  (ACCESS_FLAGS as readonly string[]).includes(value);

/**
 * `access[]=read&access[]=create` (a list of granted flags) or `access[read]=1&access[create]=0`
 * (flags to 0/1), from forms or JSON; an empty value grants nothing but `read`. The result is the
 * complete set: a flag not granted is off. `read` is always on.
 */
export function parseAccess(value: unknown): AccessFlags | InvalidAccess {
  const flags: AccessFlags = { read: true, create: false, update: false, delete: false };
  if (value === '' || value === null) {
    return flags;
  }
  if (typeof value === 'string' || Array.isArray(value)) {
    for (const item of Array.isArray(value) ? (value as unknown[]) : [value]) {
      if (typeof item !== 'string' || !isFlag(item.trim())) {
        return new InvalidAccess(`access may only list ${ALLOWED}; got ${JSON.stringify(item)}.`);
      }
      flags[item.trim() as AccessFlag] = true;
    }
    return flags;
  }
  if (typeof value === 'object') {
    for (const [key, raw] of Object.entries(value as Record<string, unknown>)) {
      if (!isFlag(key)) {
        return new InvalidAccess(`access may only have the keys ${ALLOWED}; got "${key}".`);
      }
      const granted = parseFormBoolean(raw);
      if (granted === undefined) {
        return new InvalidAccess(`access[${key}] must be 0 or 1.`);
      }
      flags[key] = granted || key === 'read';
    }
    return flags;
  }
  return new InvalidAccess(
    `access must be a list of ${ALLOWED}, or an object of them set to 0 or 1.`,
  );
}

/** An optional `access` input, turned into the complete AccessFlags. */
export function IsAccessInput(): PropertyDecorator {
  return applyDecorators(
    ApiPropertyOptional({
      type: [String],
      items: { type: 'string', enum: [...ACCESS_FLAGS] },
      description:
        'Granted flags: access[]=create&access[]=update, or access[create]=1&access[update]=0. ' +
        '`read` is always granted; a flag not granted is off.',
      example: ['read', 'create'],
    }),
    IsOptional(),
    Transform(({ value }: { value: unknown }) =>
      value === undefined ? value : parseAccess(value),
    ),
    ValidateBy({
      name: 'isAccessInput',
      validator: {
        validate: (value: unknown) => !(value instanceof InvalidAccess),
        defaultMessage: (args?: ValidationArguments) =>
          args?.value instanceof InvalidAccess ? args.value.reason : 'access is not valid',
      },
    }),
  );
}
