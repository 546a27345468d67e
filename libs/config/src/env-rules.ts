import { applyDecorators } from '@nestjs/common';
import { Transform } from 'class-transformer';
import { IsOptional, ValidateBy, ValidationArguments } from 'class-validator';
import { isEmailAddress } from '@app/common/validation/email';
import { hasUrlCredentials, normalizeHttpUrl } from '@app/common/validation/http-url';

/**
 * The rules the environment's declaration (`EnvDto`) is written in: class-validator constraints
 * whose message names the variable and, where it helps, the value it got. A variable that is unset
 * (or blank: `readEnv` drops it) keeps its declared default and is not checked, except by
 * `EnvRule`s written for that case (variables that must be set together).
 */

/** The problem of variable `name` holding `value` (in environment `env`) as one line, or null. */
export type Check = (value: unknown, name: string, env: Record<string, unknown>) => string | null;

let rules = 0;

/**
 * One constraint written as a function that answers the problem, so the message fits the case;
 * checked even when the variable is unset (for variables set together, or required by another).
 * No other rule of the variable may skip unset values (`IsOptional` would skip this one too).
 */
export function EnvRuleAlways(check: Check): PropertyDecorator {
  rules += 1;
  return ValidateBy({
    // The constraint's key in a ValidationError: one per rule, so two rules of a variable both count.
    name: `env${rules}`,
    validator: {
      validate: (value: unknown, args?: ValidationArguments) =>
        args === undefined || check(value, args.property, envOf(args)) === null,
      defaultMessage: (args?: ValidationArguments) =>
        args === undefined ? '' : (check(args.value, args.property, envOf(args)) ?? ''),
    },
  });
}

/** A rule as `EnvRuleAlways`, checked only when the variable is set. */
export function EnvRule(check: Check): PropertyDecorator {
  return applyDecorators(IsOptional(), EnvRuleAlways(check));
}

/** A whole number within bounds (digits only). */
export function EnvInt(min: number, max: number): PropertyDecorator {
  return applyDecorators(
    Transform(({ value }: { value: unknown }) =>
      typeof value === 'string' && /^\d+$/.test(value) ? Number(value) : value,
    ),
    EnvRule((value, name) =>
      typeof value === 'number' && value >= min && value <= max
        ? null
        : `${name} must be a whole number from ${min} to ${max} (got "${String(value)}")`,
    ),
  );
}

/** One of `values`, in any case (stored as listed). */
export function EnvOneOf(values: readonly string[]): PropertyDecorator {
  return applyDecorators(
    Transform(({ value }: { value: unknown }) => {
      const listed = values.find((v) => typeof value === 'string' && v === value.toLowerCase());
      return listed ?? value;
    }),
    EnvRule((value, name) =>
      typeof value === 'string' && values.includes(value)
        ? null
        : `${name} must be one of ${values.join(', ')} (got "${String(value)}")`,
    ),
  );
}

/** A text that `pattern` (a RegExp, or any test) accepts, else `message`. */
export function EnvMatches(
  pattern: { test(value: string): boolean },
  message: string,
): PropertyDecorator {
  return EnvRule((value) => (typeof value === 'string' && pattern.test(value) ? null : message));
}

/** An email address by the one rule (`isEmailAddress`), stored lower-case. */
export function EnvEmail(): PropertyDecorator {
  return applyDecorators(
    Transform(({ value }: { value: unknown }) =>
      typeof value === 'string' ? value.toLowerCase() : value,
    ),
    EnvRule((value, name) =>
      typeof value === 'string' && isEmailAddress(value)
        ? null
        : `${name} must be an email address (got "${String(value)}")`,
    ),
  );
}

/**
 * An http(s) base URL by the one URL rule (`normalizeHttpUrl`), without credentials (nor a query
 * or fragment when `bare`), stored in its normalised form without trailing slashes.
 */
export function EnvHttpUrl(options: { bare: boolean }): PropertyDecorator {
  const check: Check = (value, name) => {
    const href = typeof value === 'string' ? normalizeHttpUrl(value) : null;
    if (href === null) {
      return `${name} must be an http(s) URL (got "${String(value)}")`;
    }
    const url = new URL(href);
    if (options.bare && (url.search !== '' || url.hash !== '' || hasUrlCredentials(href))) {
      return `${name} must not carry credentials, a query or a fragment (got "${String(value)}")`;
    }
    return hasUrlCredentials(href) ? `${name} must not carry a user name or password` : null;
  };
  return applyDecorators(
    // Only a good value is normalised, so that a refused one is quoted as it was written.
    Transform(({ value, key }: { value: unknown; key: string }) =>
      typeof value === 'string' && check(value, key, {}) === null
        ? (normalizeHttpUrl(value) as string).replace(/\/+$/, '')
        : value,
    ),
    EnvRule(check),
  );
}

/** A variable set only together with `others` (all or none), checked on this one. */
export function EnvSetTogether(others: readonly string[], message: string): PropertyDecorator {
  return EnvRuleAlways((value, _name, env) => {
    const set = [value, ...others.map((other) => env[other])].filter((v) => v !== undefined);
    return set.length === 0 || set.length === others.length + 1 ? null : message;
  });
}

function envOf(args: ValidationArguments): Record<string, unknown> {
  return args.object as Record<string, unknown>;
}
