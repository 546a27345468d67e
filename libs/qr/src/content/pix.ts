import { isEmailAddress } from '@app/common';
import { ContentError, PRINTABLE_ASCII, QrContentFields, required } from './fields';
import { fiatAmount } from './payments';
import { globalNumber } from './phone';

/** CRC-16/CCITT-FALSE (poly 0x1021, init 0xFFFF), as the EMV QRCPS requires for tag 63. */
export function crc16Ccitt(payload: string): string {
  let crc = 0xffff;
  for (const byte of Buffer.from(payload, 'utf8')) {
    crc ^= byte << 8;
    for (let i = 0; i < 8; i++) {
      crc = crc & 0x8000 ? ((crc << 1) ^ 0x1021) & 0xffff : (crc << 1) & 0xffff;
    }
  }
  return crc.toString(16).toUpperCase().padStart(4, '0');
}

/**
 * A text field of the BR Code: printable ASCII of `min` to `max` characters. Accents are not
 * taken away (São Paulo would be a different name on the payer's screen): the user writes the
 * name as it is to appear.
 */
function asciiField(
  f: QrContentFields,
  key: 'pix_payee_name' | 'pix_city' | 'pix_description',
  tag: string,
  max: number,
): string {
  const value = key === 'pix_description' ? (f[key] ?? '') : required(f, key);
  if (!PRINTABLE_ASCII.test(value) || value.length > max) {
    throw new ContentError(
      key,
      `${key} must be ${key === 'pix_description' ? 'at most' : '1 to'} ${max} printable ASCII characters, without accents (BR Code tag ${tag})`,
    );
  }
  return value;
}

/** Check digits of a CPF (11 digits) or CNPJ (14 digits): mod 11 with the Receita's weights. */
function checkDigitsValid(digits: string): boolean {
  if (/^(\d)\1*$/.test(digits)) {
    return false;
  }
  const digit = (body: string, weights: number[]): number => {
    const sum = [...body].reduce((acc, d, i) => acc + Number(d) * weights[i], 0);
    const rest = sum % 11;
    return rest < 2 ? 0 : 11 - rest;
  };
  const weights =
    digits.length === 11
      ? [11, 10, 9, 8, 7, 6, 5, 4, 3, 2]
      : [6, 5, 4, 3, 2, 9, 8, 7, 6, 5, 4, 3, 2];
  const n = digits.length;
  return (
    digit(digits.slice(0, n - 2), weights.slice(1)) === Number(digits[n - 2]) &&
    digit(digits.slice(0, n - 1), weights) === Number(digits[n - 1])
  );
}

const UUID = /^[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$/;

/**
 * A Pix key as the DICT holds it (Banco Central's manual): an e-mail address (ASCII, at most 77
 * characters), a phone number +55 with area code (written +55DDNNNNNNNNN), a CPF or CNPJ with valid
 * check digits (written as its digits; the dots, dash and slash of its printed form are separators),
 * or a random key (a lower-case UUID).
 */
function pixKey(f: QrContentFields): string {
  const value = required(f, 'pix_payee_key');
  if (value.includes('@')) {
    if (PRINTABLE_ASCII.test(value) && value.length <= 77 && isEmailAddress(value)) {
      return value;
    }
  } else if (value.trim().startsWith('+')) {
    const number = globalNumber(value);
    if (number?.startsWith('+55')) {
      return number;
    }
  } else if (UUID.test(value)) {
    return value;
  } else if (
    /^(\d{3}\.\d{3}\.\d{3}-\d{2}|\d{2}\.\d{3}\.\d{3}\/\d{4}-\d{2}|\d{11}|\d{14})$/.test(value)
  ) {
    const digits = value.replace(/\D/g, '');
    if (checkDigitsValid(digits)) {
      return digits;
    }
  }
  throw new ContentError(
    'pix_payee_key',
    'pix_payee_key must be a Pix key: an e-mail address in ASCII, a Brazilian phone number such as +55 61 91234 5678, a CPF or CNPJ with valid check digits, or a random key (a lower-case UUID)',
  );
}

function tlv(id: string, value: string, field: keyof QrContentFields): string {
  // Every value is ASCII by now: its length in characters is its length in bytes.
  const bytes = Buffer.byteLength(value, 'utf8');
  if (bytes > 99) {
    throw new ContentError(
      field,
      `${field} makes BR Code field ${id} ${bytes} bytes long; EMV QRCPS allows 99`,
    );
  }
  return `${id}${String(bytes).padStart(2, '0')}${value}`;
}

/** Tag 62-05, the reference label: 1 to 25 letters and digits, or `***` for none. */
function txid(f: QrContentFields): string {
  const value = f.pix_transaction_id ?? '';
  if (value === '') {
    return '***';
  }
  if (!/^[A-Za-z0-9]{1,25}$/.test(value)) {
    throw new ContentError(
      'pix_transaction_id',
      'pix_transaction_id must be 1 to 25 letters and digits (BR Code tag 62-05), or empty',
    );
  }
  return value;
}

/**
 * A static Pix "BR Code" (EMV merchant-presented QR, Banco Central do Brasil manual): ASCII
 * throughout, each length the byte count of its value. A value the manual does not allow is
 * refused, naming the field, never cut or stripped of its accents.
 */
export function encodePix(f: QrContentFields): string {
  if (f.pix_currency && f.pix_currency !== 'BRL') {
    throw new ContentError('pix_currency', 'pix_currency must be BRL');
  }
  const description = asciiField(f, 'pix_description', '26-02', 99);
  const account =
    tlv('00', 'br.gov.bcb.pix', 'pix_payee_key') +
    tlv('01', pixKey(f), 'pix_payee_key') +
    (description ? tlv('02', description, 'pix_description') : '');
  const amount = fiatAmount(f, 'pix_amount');
  const payload =
    tlv('00', '01', 'pix_payee_key') +
    tlv('26', account, 'pix_description') +
    tlv('52', '0000', 'pix_payee_key') +
    tlv('53', '986', 'pix_currency') +
    (amount !== undefined ? tlv('54', amount, 'pix_amount') : '') +
    tlv('58', 'BR', 'pix_currency') +
    tlv('59', asciiField(f, 'pix_payee_name', '59', 25), 'pix_payee_name') +
    tlv('60', asciiField(f, 'pix_city', '60', 15), 'pix_city') +
    tlv('62', tlv('05', txid(f), 'pix_transaction_id'), 'pix_transaction_id') +
    '6304';
  return payload + crc16Ccitt(payload);
}
