import { parsePhoneNumberFromString } from 'libphonenumber-js/max';
import { ContentError } from './fields';

/** RFC 3966 visual separators (`-.()`), and the spaces people type between digit groups. */
const SEPARATORS = /[\s().-]/g;

const MESSAGE = (field: string): string =>
  `${field} must be a telephone number in international form such as +1 415 555 2671 (one that libphonenumber knows as valid): a local number or service code needs a phone-context (RFC 3966), which a QR code cannot know`;

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
 * The telephone-subscriber part of a `tel:` or `sms:` URI (RFC 3966, RFC 5724): an international
 * number libphonenumber knows as valid, visual separators dropped. RFC 3966 (5.1.5) requires a
 * local number, and a service code such as `*#06#`, to carry a `;phone-context=`: the network or
 * area it is dialled in, which a printed code cannot know (it is whatever network the scanning
 * phone is on). Rather than write a URI the RFC calls invalid, such numbers are refused.
 */
export function telephoneSubscriber(field: string, value: string): string {
  const global = globalNumber(value);
  if (global !== null) {
    return global;
  }
  throw new ContentError(field, MESSAGE(field));
}
