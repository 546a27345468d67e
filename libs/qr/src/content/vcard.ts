import { QrContentFields } from './fields';

/** vCard 3.0 (RFC 2426) value escaping. */
export function vcardText(v: string): string {
  return v
    .replace(/\\/g, '\\\\')
    .replace(/;/g, '\\;')
    .replace(/,/g, '\\,')
    .replace(/\r?\n/g, '\\n');
}

/** A TYPE parameter value: letters, digits, dashes and spaces only. */
const typeParam = (label: string): string => label.replace(/[^\p{L}\p{N} -]/gu, '').trim();

export function encodeVcard(f: QrContentFields): string {
  const t = (v: string | undefined): string => vcardText(v ?? '');
  const first = f.vcard_first_name ?? '';
  const last = f.vcard_last_name ?? '';
  const lines = [
    'BEGIN:VCARD',
    'VERSION:3.0',
    `N:${t(last)};${t(first)};;;`,
    `FN:${vcardText([first, last].filter(Boolean).join(' ') || f.vcard_company || '')}`,
  ];
  if (f.vcard_company) {
    lines.push(`ORG:${t(f.vcard_company)}`);
  }
  if (f.vcard_job_title) {
    lines.push(`TITLE:${t(f.vcard_job_title)}`);
  }
  for (const phone of f.vcard_phone_numbers ?? []) {
    const type = typeParam(phone.label);
    lines.push(`TEL${type ? `;TYPE=${type}` : ''}:${t(phone.value)}`);
  }
  if (f.vcard_email) {
    lines.push(`EMAIL;TYPE=INTERNET:${t(f.vcard_email)}`);
  }
  if (f.vcard_url) {
    lines.push(`URL:${t(f.vcard_url)}`);
  }
  if (f.vcard_birthday) {
    lines.push(`BDAY:${t(f.vcard_birthday)}`);
  }
  const address = [f.vcard_street, f.vcard_city, f.vcard_region, f.vcard_zip, f.vcard_country];
  if (address.some(Boolean)) {
    lines.push(`ADR:;;${address.map(t).join(';')}`);
  }
  if (f.vcard_note) {
    lines.push(`NOTE:${t(f.vcard_note)}`);
  }
  for (const social of f.vcard_socials ?? []) {
    const type = typeParam(social.label);
    lines.push(`X-SOCIALPROFILE${type ? `;TYPE=${type}` : ''}:${t(social.value)}`);
  }
  lines.push('END:VCARD');
  return lines.join('\r\n');
}
