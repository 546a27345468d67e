import { ContentError, QrContentFields, required } from './fields';
import { fiatAmount } from './payments';

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

/** Letters without accents, as BR Code readers expect in name and city. */
const plain = (v: string, max: number): string =>
  v
    .normalize('NFD')
    .replace(/[\u0300-\u036f]/g, '')
    .replace(/[^\x20-\x7e]/g, '')
    .slice(0, max);

function tlv(id: string, value: string): string {
  if (value.length > 99) {
    throw new ContentError('pix_description', `Pix field ${id} is longer than 99 characters`);
  }
  return `${id}${String(value.length).padStart(2, '0')}${value}`;
}

/** A static Pix "BR Code" (EMV merchant-presented QR, Banco Central do Brasil manual). */
export function encodePix(f: QrContentFields): string {
  if (f.pix_currency && f.pix_currency !== 'BRL') {
    throw new ContentError('pix_currency', 'pix_currency must be BRL');
  }
  const account =
    tlv('00', 'br.gov.bcb.pix') +
    tlv('01', required(f, 'pix_payee_key')) +
    (f.pix_description ? tlv('02', plain(f.pix_description, 72)) : '');
  const txid = (f.pix_transaction_id ?? '').replace(/[^A-Za-z0-9]/g, '').slice(0, 25) || '***';
  const amount = fiatAmount(f, 'pix_amount');
  const payload =
    tlv('00', '01') +
    tlv('26', account) +
    tlv('52', '0000') +
    tlv('53', '986') +
    (amount !== undefined ? tlv('54', amount) : '') +
    tlv('58', 'BR') +
    tlv('59', plain(required(f, 'pix_payee_name'), 25)) +
    tlv('60', plain(required(f, 'pix_city'), 15)) +
    tlv('62', tlv('05', txid)) +
    '6304';
  return payload + crc16Ccitt(payload);
}
