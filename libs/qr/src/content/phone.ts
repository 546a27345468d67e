import { parsePhoneNumberFromString } from 'libphonenumber-js/max';
import { ContentError } from './fields';

/** RFC 3966 visual separators (`-.()`), and the spaces people type between digit groups. */
const SEPARATORS = /[\s().-]/g;

/** E.164: at most 15 digits. */
const LOCAL = /^[\d*#]*\d[\d*#]*$/;

const MESSAGE = (field: string): string =>
  `${field} must be a telephone number in international form such as +49 30 1234567 (one that libphonenumber knows as valid), or a local number or service code of digits, * and # (RFC 3966)`;

/** An international number, as `+` and digits, if libphonenumber knows it as a valid number. */
export function globalNumber(value: string): string | null {
  const compact = value.replace(SEPARATORS, '');
  if (!/^\+\d{1,15}$/.test(compact)) {
    return null;
  }
  const parsed = parsePhoneNumberFromString(compact);
  return parsed?.isValid() ? parsed.number : null;
}

/**
 * The telephone-subscriber part of a `tel:` or `sms:` URI (RFC 3966, RFC 5724): visual separators
 * dropped; an international number must be one libphonenumber knows as valid; a local number or
 * a service code (`*#06#`) is digits, `*` and `#`, with `*` and `#` percent-encoded, since a URL
 * parser reads `#` as the start of a fragment. Anything else (`12:34`, `n/a`) is refused.
 */
export function telephoneSubscriber(field: string, value: string): string {
  const global = globalNumber(value);
  if (global !== null) {
    return global;
  }
  const compact = value.replace(SEPARATORS, '');
  if (!compact.startsWith('+') && LOCAL.test(compact) && compact.replace(/\D/g, '').length <= 15) {
    return compact.replace(/\*/g, '%2A').replace(/#/g, '%23');
  }
  throw new ContentError(field, MESSAGE(field));
}
