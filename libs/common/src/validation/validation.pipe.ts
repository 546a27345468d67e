import { ArgumentMetadata, Type, ValidationError, ValidationPipe } from '@nestjs/common';
import { plainToInstance } from 'class-transformer';
import { getMetadataStorage, validateSync } from 'class-validator';
import { AppError, Problem } from '../errors';
import { attachContext, isValidatedWithContext } from './checked';

/**
 * Drops the fields a DTO does not declare before class-transformer sees the body, instead of
 * after (where `whitelist` drops them): class-transformer walks every key of every nested value
 * and de-duplicates each object's keys with indexOf, so undeclared fields full of objects cost
 * CPU for nothing. What is kept, and so the result, is the same as whitelist's.
 */
class DeclaredFieldsValidationPipe extends ValidationPipe {
  private readonly declared = new WeakMap<object, ReadonlySet<string>>();

  override transform(value: unknown, metadata: ArgumentMetadata): Promise<unknown> {
    if (metadata.metatype && isValidatedWithContext(metadata.metatype)) {
      return Promise.resolve(value);
    }
    const fields = metadata.metatype ? this.declaredFields(metadata.metatype) : null;
    if (fields !== null && isPlainObject(value)) {
      const kept: Record<string, unknown> = {};
      for (const key of Object.keys(value)) {
        if (fields.has(key)) kept[key] = value[key];
      }
      return super.transform(kept, metadata);
    }
    return super.transform(value, metadata);
  }

  /** The properties with a class-validator decorator, or null for a type that has none. */
  private declaredFields(metatype: object): ReadonlySet<string> | null {
    let fields = this.declared.get(metatype);
    if (fields === undefined) {
      const metadatas = getMetadataStorage().getTargetValidationMetadatas(
        metatype as new () => unknown,
        '',
        true,
        false,
      );
      fields = new Set(metadatas.map((m) => m.propertyName));
      this.declared.set(metatype, fields);
    }
    return fields.size === 0 ? null : fields;
  }
}

function isPlainObject(value: unknown): value is Record<string, unknown> {
  if (value === null || typeof value !== 'object' || Array.isArray(value)) {
    return false;
  }
  const proto = Object.getPrototypeOf(value) as unknown;
  return proto === Object.prototype || proto === null;
}

/**
 * The one validation pipe: unknown fields are dropped, each field reports one problem (its first
 * failing rule in reading order), and every problem becomes an entry of one 400.
 */
export function createValidationPipe(): ValidationPipe {
  return new DeclaredFieldsValidationPipe({
    whitelist: true,
    transform: true,
    forbidUnknownValues: true,
    validationError: { target: false, value: false },
    exceptionFactory: (errors: ValidationError[]) =>
      new AppError('validation_failed', validationProblems(errors)),
  });
}

/** The problems of a failed validation as the pipe reports them: one per field, in field order. */
export function validationProblems(errors: ValidationError[]): Problem[] {
  return flatten(errors, '');
}

/**
 * `plain` through the transforms and rules of `type`, as the pipe takes a body: for values whose
 * class a service picks itself (the settings of a block or handler depend on its stored type).
 * With `partial`, a field that `plain` does not have is left undefined and its rules do not run:
 * what the caller keeps from before is not checked again (a value set to null still is).
 * `context` is what the rules of a `@ValidatedWithContext()` class read with `contextOf`.
 */
export function validateAs<T extends object>(
  type: Type<T>,
  plain: Record<string, unknown>,
  options: { partial?: boolean; context?: object } = {},
): { value: T; problems: Problem[] } {
  const value = plainToInstance(type, plain);
  if (options.context !== undefined) {
    attachContext(value, options.context);
  }
  if (options.partial) {
    for (const key of Object.keys(value)) {
      if (!Object.hasOwn(plain, key)) {
        (value as Record<string, unknown>)[key] = undefined;
      }
    }
  }
  const errors = validateSync(value, {
    forbidUnknownValues: true,
    skipUndefinedProperties: options.partial === true,
    validationError: { target: false, value: false },
  });
  return { value, problems: validationProblems(errors) };
}

/**
 * The problems of `instance` by its class-validator rules, as the pipe reports them (one per
 * field, its top-most failing rule), for values checked after the pipe (e.g. merged settings).
 * Undefined properties are not checked.
 */
export function instanceProblems(instance: object): Problem[] {
  const errors = validateSync(instance, {
    skipUndefinedProperties: true,
    validationError: { target: false, value: false },
  });
  return validationProblems(errors);
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
