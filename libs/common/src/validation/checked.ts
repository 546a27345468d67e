import { ValidateBy, ValidationArguments } from 'class-validator';

/**
 * One rule of a field as a function: the problem of `value` (one sentence), or null when there is
 * none. `object` is the instance being validated, for rules that read other fields.
 */
export type Check<O extends object = Record<string, unknown>> = (
  value: unknown,
  object: O,
  property: string,
) => string | null;

let checks = 0;

/**
 * A class-validator constraint written as one `Check`, for rules whose message depends on the
 * value or on other fields (cross-field rules). Undefined values are checked too: a rule that
 * applies only to given values says so.
 */
export function Checked<O extends object>(check: Check<O>): PropertyDecorator {
  checks += 1;
  const problem = (args: ValidationArguments): string | null =>
    check(args.value, args.object as O, args.property);
  return ValidateBy({
    name: `checked${checks}`,
    validator: {
      validate: (_value: unknown, args?: ValidationArguments) =>
        args === undefined || problem(args) === null,
      defaultMessage: (args?: ValidationArguments) =>
        args === undefined ? '' : (problem(args) ?? ''),
    },
  });
}

const CONTEXT = Symbol('validation context');
const WITH_CONTEXT = Symbol('validated with context');

/**
 * Marks a DTO whose rules need what only a service knows (the account's time zone, the clock).
 * The global pipe hands it over as received; the service checks it with
 * `validateAs(type, plain, { context })`, so that every problem is still reported at once.
 */
export function ValidatedWithContext(): ClassDecorator {
  return (target) => {
    Reflect.defineMetadata(WITH_CONTEXT, true, target);
  };
}

export function isValidatedWithContext(type: object): boolean {
  return Reflect.getMetadata(WITH_CONTEXT, type) === true;
}

/** Gives `instance` the context its rules read (`contextOf`); no query or body can set it. */
export function attachContext(instance: object, context: object): void {
  Object.defineProperty(instance, CONTEXT, { value: context, enumerable: false });
}

/** The context `validateAs` attached to the instance a rule checks. */
export function contextOf<C extends object>(instance: object): C {
  const context = (instance as { [CONTEXT]?: C })[CONTEXT];
  if (context === undefined) {
    throw new Error(`${instance.constructor.name} is validated with a context (validateAs)`);
  }
  return context;
}
