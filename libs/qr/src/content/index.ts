import { encodeEpc } from './epc';
import { encodeEvent } from './event';
import { QrContentFields, QrType } from './fields';
import { encodeCrypto, encodePaypal, encodeUpi } from './payments';
import { encodePix } from './pix';
import * as simple from './simple';
import { encodeVcard } from './vcard';

export * from './fields';
export { crc16Ccitt } from './pix';

const ENCODERS: Record<QrType, (f: QrContentFields) => string> = {
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

/** The exact string a code of this type encodes. Throws ContentError naming a missing/bad field. */
export function encodeContent(type: QrType, fields: QrContentFields): string {
  return ENCODERS[type](fields);
}
