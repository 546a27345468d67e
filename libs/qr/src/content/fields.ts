import { normalizeDecimal } from './decimal';

export const QR_TYPES = [
  'text',
  'url',
  'phone',
  'sms',
  'email',
  'whatsapp',
  'facetime',
  'location',
  'wifi',
  'event',
  'vcard',
  'crypto',
  'paypal',
  'upi',
  'epc',
  'pix',
] as const;
export type QrType = (typeof QR_TYPES)[number];

export const WIFI_ENCRYPTIONS = ['nopass', 'WEP', 'WPA/WPA2'] as const;
export const CRYPTO_COINS = ['bitcoin', 'ethereum', 'elrond'] as const;
export const PAYPAL_TYPES = ['buy_now', 'add_to_cart', 'donation'] as const;

export interface LabelledValue {
  label: string;
  value: string;
}

/**
 * The per-type content fields (origin-api.md §4.2); each type reads its own. Amounts and
 * coordinates are plain decimal strings (`0.00000001`), never floats.
 */
export interface QrContentFields {
  text?: string;
  url?: string;
  phone?: string;
  sms?: string;
  sms_body?: string;
  email?: string;
  email_subject?: string;
  email_body?: string;
  whatsapp?: string;
  whatsapp_body?: string;
  facetime?: string;
  location_latitude?: string;
  location_longitude?: string;
  wifi_ssid?: string;
  wifi_encryption?: (typeof WIFI_ENCRYPTIONS)[number];
  wifi_password?: string;
  wifi_is_hidden?: boolean;
  event?: string;
  event_location?: string;
  event_url?: string;
  event_note?: string;
  event_timezone?: string;
  event_start_datetime?: string;
  event_end_datetime?: string;
  event_first_alert_datetime?: string;
  event_second_alert_datetime?: string;
  crypto_coin?: (typeof CRYPTO_COINS)[number];
  crypto_address?: string;
  crypto_amount?: string;
  vcard_first_name?: string;
  vcard_last_name?: string;
  vcard_company?: string;
  vcard_job_title?: string;
  vcard_email?: string;
  vcard_url?: string;
  vcard_birthday?: string;
  vcard_street?: string;
  vcard_city?: string;
  vcard_zip?: string;
  vcard_region?: string;
  vcard_country?: string;
  vcard_note?: string;
  vcard_phone_numbers?: LabelledValue[];
  vcard_socials?: LabelledValue[];
  paypal_type?: (typeof PAYPAL_TYPES)[number];
  paypal_email?: string;
  paypal_title?: string;
  paypal_currency?: string;
  paypal_price?: string;
  paypal_thank_you_url?: string;
  paypal_cancel_url?: string;
  upi_payee_id?: string;
  upi_payee_name?: string;
  upi_currency?: string;
  upi_amount?: string;
  upi_transaction_id?: string;
  upi_transaction_note?: string;
  upi_transaction_reference?: string;
  upi_thank_you_url?: string;
  epc_iban?: string;
  epc_payee_name?: string;
  epc_currency?: string;
  epc_amount?: string;
  epc_bic?: string;
  epc_remittance_reference?: string;
  epc_remittance_text?: string;
  information?: string;
  pix_payee_key?: string;
  pix_payee_name?: string;
  pix_currency?: string;
  pix_amount?: string;
  pix_city?: string;
  pix_transaction_id?: string;
  pix_description?: string;
}

/** A content field that a type needs and the request lacks or got wrong. */
export class ContentError extends Error {
  constructor(
    readonly field: string,
    message: string,
  ) {
    super(message);
    this.name = 'ContentError';
  }
}

export function required<K extends keyof QrContentFields>(
  fields: QrContentFields,
  key: K,
): NonNullable<QrContentFields[K]> {
  const value = fields[key];
  if (value === undefined || value === null || value === '') {
    throw new ContentError(key, `${key} is required for this type`);
  }
  return value;
}

/** The decimal fields: plain decimal strings from the request to the encoder. */
export const DECIMAL_FIELDS = [
  'location_latitude',
  'location_longitude',
  'crypto_amount',
  'paypal_price',
  'upi_amount',
  'epc_amount',
  'pix_amount',
] as const satisfies ReadonlyArray<keyof QrContentFields>;
export type DecimalField = (typeof DECIMAL_FIELDS)[number];

/** A decimal field, normalized (`0.50` -> `0.5`); undefined when absent. */
export function decimalField(fields: QrContentFields, key: DecimalField): string | undefined {
  const value = fields[key];
  // JSON null reaches here as "not given", as in required().
  if (value === undefined || value === null || value === '') {
    return undefined;
  }
  const decimal = normalizeDecimal(value);
  if (decimal === null) {
    throw new ContentError(key, `${key} must be a decimal number such as 12.5`);
  }
  return decimal;
}

/**
 * Printable ASCII, 0x20 to 0x7E: a WPA passphrase's characters (IEEE 802.11 annex J.4.1) and the
 * BR Code's "ans" fields (EMV QRCPS).
 */
export const PRINTABLE_ASCII = /^[\x20-\x7e]*$/;

/** Line breaks and other control characters (C0, DEL, C1, U+2028, U+2029). */
const CONTROL = /[\p{Cc}\u2028\u2029]/u;

/**
 * Refuses a value with a control character: in line-based formats (EPC, iCalendar, vCard) a line
 * break inside a field would start a new field.
 */
export function singleLine<T extends string | undefined>(field: string, value: T): T {
  if (value !== undefined && CONTROL.test(value)) {
    throw new ContentError(
      field,
      `${field} cannot contain line breaks or other control characters`,
    );
  }
  return value;
}

/** The fields each type reads: the API keeps these in settings and drops the others. */
export const TYPE_FIELDS: Record<QrType, ReadonlyArray<keyof QrContentFields>> = {
  text: ['text'],
  url: ['url'],
  phone: ['phone'],
  sms: ['sms', 'sms_body'],
  email: ['email', 'email_subject', 'email_body'],
  whatsapp: ['whatsapp', 'whatsapp_body'],
  facetime: ['facetime'],
  location: ['location_latitude', 'location_longitude'],
  wifi: ['wifi_ssid', 'wifi_encryption', 'wifi_password', 'wifi_is_hidden'],
  event: [
    'event',
    'event_location',
    'event_url',
    'event_note',
    'event_timezone',
    'event_start_datetime',
    'event_end_datetime',
    'event_first_alert_datetime',
    'event_second_alert_datetime',
  ],
  vcard: [
    'vcard_first_name',
    'vcard_last_name',
    'vcard_company',
    'vcard_job_title',
    'vcard_email',
    'vcard_url',
    'vcard_birthday',
    'vcard_street',
    'vcard_city',
    'vcard_zip',
    'vcard_region',
    'vcard_country',
    'vcard_note',
    'vcard_phone_numbers',
    'vcard_socials',
  ],
  crypto: ['crypto_coin', 'crypto_address', 'crypto_amount'],
  paypal: [
    'paypal_type',
    'paypal_email',
    'paypal_title',
    'paypal_currency',
    'paypal_price',
    'paypal_thank_you_url',
    'paypal_cancel_url',
  ],
  upi: [
    'upi_payee_id',
    'upi_payee_name',
    'upi_currency',
    'upi_amount',
    'upi_transaction_id',
    'upi_transaction_note',
    'upi_transaction_reference',
    'upi_thank_you_url',
  ],
  epc: [
    'epc_iban',
    'epc_payee_name',
    'epc_currency',
    'epc_amount',
    'epc_bic',
    'epc_remittance_reference',
    'epc_remittance_text',
    'information',
  ],
  pix: [
    'pix_payee_key',
    'pix_payee_name',
    'pix_currency',
    'pix_amount',
    'pix_city',
    'pix_transaction_id',
    'pix_description',
  ],
};
