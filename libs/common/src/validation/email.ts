import { ValidateBy, ValidationArguments, ValidationOptions } from 'class-validator';

/**
 * The one email rule (see `isEmailAddress`). This file imports nothing of ours, so that
 * libs/config can read it (`@app/common/validation/email`) although libs/common reads libs/config.
 */

/** The longest address a mail server must accept (RFC 5321: a 256-octet path less its `<>`). */
export const EMAIL_MAX_LENGTH = 254;

// The local part: 1 to 64 characters, no white space, control characters or the characters that
// would need quoting (or that break out of an HTML attribute or a mailto: link), no leading,
// trailing or doubled dot. Letters beyond ASCII are allowed (SMTPUTF8).
// eslint-disable-next-line no-control-regex -- refusing control characters is the point
const LOCAL = /^(?!\.)(?!.*\.\.)[^\s@<>"'`(),;:\\[\]\u0000-\u001f\u007f]{1,64}(?<!\.)$/u;
// The domain: dot-separated labels of letters, digits and inner hyphens (an international domain
// in its punycode form), ending in a top-level domain of letters or xn--.
const DOMAIN =
  /^(?=.{4,253}$)(?:[a-z0-9](?:[a-z0-9-]{0,61}[a-z0-9])?\.)+(?:[a-z]{2,63}|xn--[a-z0-9-]{1,59})$/i;

/**
 * Whether `value` is an email address we accept anywhere (accounts, team invitations, handlers,
 * bio-page forms, signatures, ADMIN_EMAIL): `local@domain.tld` as above, at most 254 characters.
 * It does not trim or change case: callers that store addresses decide that.
 */
export function isEmailAddress(value: string): boolean {
  if (value.length > EMAIL_MAX_LENGTH || !value.isWellFormed()) {
    return false;
  }
  const at = value.indexOf('@');
  return at > 0 && LOCAL.test(value.slice(0, at)) && DOMAIN.test(value.slice(at + 1));
}

/** A string that `isEmailAddress` accepts; the message defaults to "<field> must be an email address". */
export function IsEmailAddress(options?: ValidationOptions): PropertyDecorator {
  return ValidateBy(
    {
      name: 'isEmailAddress',
      validator: {
        validate: (value: unknown) => typeof value === 'string' && isEmailAddress(value),
        defaultMessage: ({ property }: ValidationArguments) =>
          `${property} must be an email address`,
      },
    },
    options,
  );
}
