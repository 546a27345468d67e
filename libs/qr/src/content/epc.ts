import { createRequire } from 'node:module';
import type * as IbanTools from 'ibantools' with { 'resolution-mode': 'import' };
import { fixedDecimal, decimalInRange } from './decimal';
import { ContentError, decimalField, QrContentFields, required, singleLine } from './fields';

// ibantools is an ES module with a CommonJS build: its types are read as ESM, its code required.
const { electronicFormatIBAN, isSEPACountry, isValidBIC, isValidIBAN } = createRequire(__filename)(
  'ibantools',
) as typeof IbanTools;

/** EPC069-12 §3.4: the whole payload, separators included, is at most 331 bytes. */
export const EPC_MAX_BYTES = 331;

/**
 * EPC069-12 prescribes error correction M and version 13 at most, which holds 331 bytes. Non-ASCII
 * UTF-8 goes behind a 12-bit ECI designator (ISO/IEC 18004 §7.4.2) that takes a byte of room: 330.
 */
export const EPC_ECC = 'M';
export const EPC_MAX_VERSION = 13;

function maxBytes(payload: string): number {
  return /^\p{ASCII}*$/u.test(payload) ? EPC_MAX_BYTES : EPC_MAX_BYTES - 1;
}

/** The free-text elements, the ones to shorten when the payload is too long. */
const TEXT_FIELDS = [
  'epc_payee_name',
  'epc_remittance_reference',
  'epc_remittance_text',
  'information',
] as const;

function iban(f: QrContentFields): string {
  const value = electronicFormatIBAN(required(f, 'epc_iban')) ?? '';
  if (!isValidIBAN(value)) {
    throw new ContentError(
      'epc_iban',
      'epc_iban must be an IBAN with valid check digits, such as DE89 3704 0044 0532 0130 00',
    );
  }
  if (!isSEPACountry(value.slice(0, 2))) {
    throw new ContentError('epc_iban', 'epc_iban must be an account in a SEPA country');
  }
  return value;
}

/** The beneficiary's name (EPC069-12 element 6, mandatory): blanks alone name nobody. */
function payee(f: QrContentFields): string {
  const value = required(f, 'epc_payee_name');
  if (value.trim() === '') {
    throw new ContentError('epc_payee_name', 'epc_payee_name is required for this type');
  }
  return value;
}

/** ISO 7064 MOD 97-10 over letters and digits (A = 10 … Z = 35), as IBANs and RF references use. */
function mod97(text: string): number {
  let rest = 0;
  for (const ch of text) {
    for (const digit of parseInt(ch, 36).toString()) {
      rest = (rest * 10 + Number(digit)) % 97;
    }
  }
  return rest;
}

/**
 * The structured remittance reference (element 10). EPC069-12 takes any reference of up to 35
 * characters, but one that starts with RF is an ISO 11649 creditor reference, which the payer's
 * bank checks: RF, two check digits, 1 to 21 letters or digits, written here without the spaces of
 * its paper form.
 */
function reference(f: QrContentFields): string {
  const value = f.epc_remittance_reference ?? '';
  if (!/^\s*rf/i.test(value)) {
    return value;
  }
  const rf = value.replace(/ /g, '').toUpperCase();
  if (!/^RF\d{2}[A-Z0-9]{1,21}$/.test(rf) || mod97(rf.slice(4) + rf.slice(0, 4)) !== 1) {
    throw new ContentError(
      'epc_remittance_reference',
      'epc_remittance_reference starts with RF but is not an ISO 11649 creditor reference with valid check digits, such as RF18 5390 0754 7034',
    );
  }
  return rf;
}

/** ISO 9362: bank (4 letters), country (2 letters), location (2), optional branch (3). */
const BIC = /^[A-Z]{4}([A-Z]{2})[A-Z0-9]{2}(?:[A-Z0-9]{3})?$/;

function bic(f: QrContentFields): string {
  const value = (f.epc_bic ?? '').replace(/ /g, '').toUpperCase();
  if (value === '' || isValidBIC(value)) {
    return value;
  }
  const m = BIC.exec(value);
  throw new ContentError(
    'epc_bic',
    m
      ? `epc_bic ${value} has ${m[1]} where a BIC (ISO 9362) has the ISO 3166 code of its country, such as DE in COBADEFFXXX`
      : 'epc_bic must be a BIC (ISO 9362): 4 letters for the bank, 2 for the country, 2 letters or digits for the location and optionally 3 for the branch, such as COBADEFFXXX',
  );
}

function amount(f: QrContentFields): string {
  const value = decimalField(f, 'epc_amount');
  if (value === undefined) {
    return '';
  }
  const cents = fixedDecimal(value, 2);
  if (cents === null || !decimalInRange(value, '0.01', '999999999.99')) {
    throw new ContentError(
      'epc_amount',
      'epc_amount must be from 0.01 to 999999999.99 with at most 2 decimals',
    );
  }
  return `EUR${cents}`;
}

/**
 * EPC069-12 "Quick Response Code" for SEPA credit transfers, version 002, UTF-8 (character set 1):
 * one element per line, LF separated, trailing empty elements left out. A line break inside an
 * element would shift every element after it (a payee name could carry an IBAN), so free text
 * with control characters is refused, not cleaned: the payer must see what the payee typed.
 */
export function encodeEpc(f: QrContentFields): string {
  if (f.epc_currency && f.epc_currency !== 'EUR') {
    throw new ContentError('epc_currency', 'epc_currency must be EUR');
  }
  for (const field of TEXT_FIELDS) {
    singleLine(field, f[field]);
  }
  if (f.epc_remittance_reference && f.epc_remittance_text) {
    throw new ContentError(
      'epc_remittance_text',
      'epc_remittance_text and epc_remittance_reference cannot both be set (EPC069-12)',
    );
  }
  const lines = [
    'BCD',
    '002',
    '1',
    'SCT',
    bic(f),
    payee(f),
    iban(f),
    amount(f),
    '',
    reference(f),
    f.epc_remittance_text ?? '',
    f.information ?? '',
  ];
  while (lines[lines.length - 1] === '') {
    lines.pop();
  }
  const payload = lines.join('\n');
  const bytes = Buffer.byteLength(payload, 'utf8');
  const limit = maxBytes(payload);
  if (bytes > limit) {
    const longest = TEXT_FIELDS.reduce((a, b) =>
      Buffer.byteLength(f[b] ?? '') > Buffer.byteLength(f[a] ?? '') ? b : a,
    );
    throw new ContentError(
      longest,
      `The EPC payload is ${bytes} bytes of UTF-8 and EPC069-12 allows ${limit}${limit < EPC_MAX_BYTES ? ' (331 less the byte its UTF-8 marker takes in a version 13 code at level M)' : ''}: shorten ${longest}`,
    );
  }
  return payload;
}
