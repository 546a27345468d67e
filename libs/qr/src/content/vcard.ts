import { ContentError, QrContentFields, singleLine } from './fields';
import { contentLines, escapeText } from './lines';
import { globalNumber } from './phone';

/**
 * A phone number as people write it (`+44 20 7946 0000`, `(555) 123-4567 ext. 89`): a TEL value
 * is a phone-number, not text, so it gets no escapes and may not hold `;`, `,` or `\`.
 */
const PHONE = /^\+?[\d ()./*#-]*\d[\d ()./*#-]*(?: ?(?:ext\.?|x) ?\d+)?$/i;

/** The extension after a number (`ext. 89`, `x89`), not given to libphonenumber; `/` separates groups. */
const EXTENSION = / ?(?:ext\.?|x) ?\d+$/i;

/**
 * An international number (`+…`) must also be one libphonenumber knows as valid, as for the
 * `phone` type; a local number or service code is checked by its characters only.
 */
function phoneNumber(value: string): string {
  const number = value.trim().replace(/\s+/g, ' ');
  if (
    !PHONE.test(number) ||
    (number.startsWith('+') &&
      globalNumber(number.replace(EXTENSION, '').replace(/\//g, ' ')) === null)
  ) {
    throw new ContentError(
      'vcard_phone_number_value',
      `vcard_phone_number_value must be telephone numbers such as +44 20 7946 0000 (an international one that libphonenumber knows as valid), not ${JSON.stringify(value)}`,
    );
  }
  return number;
}

/** BDAY (RFC 2426 §3.1.5) as a calendar date, YYYY-MM-DD, that exists. */
function birthday(value: string): string {
  const m = /^(\d{4})-(\d{2})-(\d{2})$/.exec(value);
  const date = m ? new Date(Date.UTC(Number(m[1]), Number(m[2]) - 1, Number(m[3]))) : null;
  if (!m || !date || date.toISOString().slice(0, 10) !== m[0]) {
    throw new ContentError(
      'vcard_birthday',
      'vcard_birthday must be a date as Y-m-d, such as 1815-12-10',
    );
  }
  return m[0];
}

/**
 * The TYPE parameter of a label: `work;voice` or `work, voice` are two types (`TYPE=work,voice`),
 * each reduced to the characters a parameter value may hold unquoted.
 */
function typeParam(label: string): string {
  const types = label
    .split(/[;,]/)
    .map((t) => t.replace(/[^\p{L}\p{N} -]/gu, '').trim())
    .filter(Boolean);
  return types.length > 0 ? `;TYPE=${types.join(',')}` : '';
}

/**
 * A vCard 3.0 (RFC 2426). Text values are escaped; URI values (URL, the social profiles) are not,
 * as the RFC says, so they must not contain line breaks; phone numbers and the birthday are checked
 * against their value types. Lines are folded at 75 octets.
 */
export function encodeVcard(f: QrContentFields): string {
  const t = (field: keyof QrContentFields, v: string | undefined): string =>
    escapeText(field, v ?? '');
  const first = f.vcard_first_name ?? '';
  const last = f.vcard_last_name ?? '';
  const formatted = [first, last].filter(Boolean).join(' ') || f.vcard_company || '';
  if (formatted.trim() === '') {
    // RFC 2426 §3.1.1 (and RFC 6350 §6.2.1): FN is required and names someone. Deriving it from
    // an e-mail address or a phone number would show the contact under a name nobody gave it.
    throw new ContentError(
      'vcard_first_name',
      'A vCard needs a name (RFC 2426 FN): give vcard_first_name, vcard_last_name or vcard_company',
    );
  }
  const lines = [
    'BEGIN:VCARD',
    'VERSION:3.0',
    `N:${t('vcard_last_name', last)};${t('vcard_first_name', first)};;;`,
    // From the name when there is one (checked on the line above), else from the company.
    `FN:${escapeText(first || last ? 'vcard_first_name' : 'vcard_company', formatted)}`,
  ];
  if (f.vcard_company) {
    lines.push(`ORG:${t('vcard_company', f.vcard_company)}`);
  }
  if (f.vcard_job_title) {
    lines.push(`TITLE:${t('vcard_job_title', f.vcard_job_title)}`);
  }
  for (const phone of f.vcard_phone_numbers ?? []) {
    lines.push(`TEL${typeParam(phone.label)}:${phoneNumber(phone.value)}`);
  }
  if (f.vcard_email) {
    lines.push(`EMAIL;TYPE=INTERNET:${t('vcard_email', f.vcard_email)}`);
  }
  if (f.vcard_url) {
    lines.push(`URL:${singleLine('vcard_url', f.vcard_url)}`);
  }
  if (f.vcard_birthday) {
    lines.push(`BDAY:${birthday(f.vcard_birthday)}`);
  }
  const address = [
    'vcard_street',
    'vcard_city',
    'vcard_region',
    'vcard_zip',
    'vcard_country',
  ] as const;
  if (address.some((key) => f[key])) {
    lines.push(`ADR:;;${address.map((key) => t(key, f[key])).join(';')}`);
  }
  if (f.vcard_note) {
    lines.push(`NOTE:${t('vcard_note', f.vcard_note)}`);
  }
  for (const social of f.vcard_socials ?? []) {
    const value = singleLine('vcard_social_value', social.value);
    lines.push(`X-SOCIALPROFILE${typeParam(social.label)}:${value}`);
  }
  lines.push('END:VCARD');
  return contentLines(lines);
}
