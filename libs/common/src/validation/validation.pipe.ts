import { ValidationError, ValidationPipe } from '@nestjs/common';
import { AppError, Problem } from '../errors';

/**
 * The one validation pipe: unknown fields are dropped, each field reports one problem (its first
 * failing rule in reading order), and every problem becomes an entry of one 400.
 */
export function createValidationPipe(): ValidationPipe {
  return new ValidationPipe({
    whitelist: true,
    transform: true,
    forbidUnknownValues: true,
    validationError: { target: false, value: false },
    exceptionFactory: (errors: ValidationError[]) =>
      new AppError('validation_failed', flatten(errors, '')),
  });
}

function flatten(errors: ValidationError[], prefix: string): Problem[] {
  return errors.flatMap((error) => {
    const field = prefix ? `${prefix}.${error.property}` : error.property;
    // Decorators run bottom-up, so the last failed constraint is the top-most one in the source:
    // write `@Required()` above `@MaxLength()` and a missing value says "is required".
    const failed = Object.values(error.constraints ?? {});
    const own = failed.length > 0 ? [{ title: sentence(failed[failed.length - 1]), field }] : [];
    return [...own, ...flatten(error.children ?? [], field)];
  });
}

function sentence(text: string): string {
  return /[.!?]$/.test(text) ? text : `${text}.`;
}
