import { encodeEpc } from './epc';
import { encodeEvent } from './event';
import { QrContentFields, QrType } from './fields';
import { encodeCrypto, encodePaypal, encodeUpi } from './payments';
import { encodePix } from './pix';
import * as simple from './simple';
import { encodeVcard } from './vcard';

export * from './fields';
export { crc16Ccitt } from './pix';
export { EPC_ECC, EPC_MAX_VERSION } from './epc';
export { PAYPAL_CURRENCIES } from './payments';
export { numberToDecimal, normalizeDecimal, decimalInRange, decimalPlaces } from './decimal';

const ENCODERS: Record<QrType, (f: QrContentFields, now: Date) => string> = {
  text: simple.encodeText,
  url: simple.encodeUrl,
  phone: simple.encodePhone,
  sms: simple.encodeSms,
  email: simple.encodeEmail,
  whatsapp: simple.encodeWhatsapp,
  facetime: simple.encodeFacetime,
  location: simple.encodeLocation,
  wifi: simple.encodeWifi,
  event: encodeEvent,
  vcard: encodeVcard,
  crypto: encodeCrypto,
  paypal: encodePaypal,
  upi: encodeUpi,
  epc: encodeEpc,
  pix: encodePix,
};

/**
 * The exact string a code of this type encodes. Throws ContentError naming a missing/bad field.
 * `now` is the time the payload is written (an iCalendar DTSTAMP).
 */
export function encodeContent(type: QrType, fields: QrContentFields, now = new Date()): string {
  return ENCODERS[type](fields, now);
}
