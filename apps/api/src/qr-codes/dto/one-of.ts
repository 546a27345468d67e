import { ValidationArguments } from 'class-validator';

/** The message of an `@IsIn` rule, naming the allowed values. */
export const oneOf = (values: readonly (string | number)[]) => ({
  message: ({ property }: ValidationArguments) =>
    `${property} must be one of: ${values.join(', ')}`,
});
