import { isEmailAddress, isHttpUrl, normalizeHttpUrl } from '@app/common';
import { decimalInRange } from './decimal';
import {
  ContentError,
  decimalField,
  DecimalField,
  PRINTABLE_ASCII,
  QrContentFields,
  required,
} from './fields';
import { globalNumber, telephoneSubscriber } from './phone';

export function encodeText(f: QrContentFields): string {
  return required(f, 'text');
}

/** Only an http(s) URL with a host, written as a browser resolves it (see IsHttpUrl). */
export function encodeUrl(f: QrContentFields): string {
  const url = required(f, 'url');
  const href = normalizeHttpUrl(url);
  if (href === null || !isHttpUrl(url)) {
    throw new ContentError(
      'url',
      'url must be an http:// or https:// URL with a host, such as https://example.com/menu',
    );
  }
  return href;
}

/** A tel: URI (RFC 3966): see telephoneSubscriber. */
export function encodePhone(f: QrContentFields): string {
  return `tel:${telephoneSubscriber('phone', required(f, 'phone'))}`;
}

/**
 * An sms: URI (RFC 5724): the number as in tel:, the body percent-encoded as UTF-8. ZXing-based
 * scanners and iOS read it as Android's SMSTO: form; a `:` in the number can no longer end it.
 */
export function encodeSms(f: QrContentFields): string {
  const number = telephoneSubscriber('sms', required(f, 'sms'));
  return f.sms_body ? `sms:${number}?body=${pctEncode(f.sms_body, UNRESERVED)}` : `sms:${number}`;
}

/**
 * RFC 6068 `qchar`: unreserved characters and `some-delims`. Everything else (`?`, `#`, `%`, `&`,
 * `=`, `/`, spaces, non-ASCII) is percent-encoded as UTF-8.
 */
const QCHAR = /[A-Za-z0-9\-._~!$'()*+,;:@]/;

function pctEncode(value: string, keep: RegExp): string {
  let out = '';
  for (const ch of value) {
    out += keep.test(ch)
      ? ch
      : Array.from(
          Buffer.from(ch, 'utf8'),
          (b) => `%${b.toString(16).toUpperCase().padStart(2, '0')}`,
        ).join('');
  }
  return out;
}

/** RFC 3986 unreserved characters. */
const UNRESERVED = /[A-Za-z0-9\-._~]/;

/** Header values: `qchar` less `+`, which form decoders read as a space. */
const HFVALUE = /[A-Za-z0-9\-._~!$'()*,;:@]/;

/**
 * mailto (RFC 6068). The address is a valid addr-spec even with `?` or `#` in its local part, so
 * every character outside `qchar` is percent-encoded; line breaks in the body travel as %0D%0A.
 */
export function encodeEmail(f: QrContentFields): string {
  const params: string[] = [];
  if (f.email_subject) {
    if (/[\r\n]/.test(f.email_subject)) {
      throw new ContentError('email_subject', 'email_subject cannot contain line breaks');
    }
    params.push(`subject=${pctEncode(f.email_subject, HFVALUE)}`);
  }
  if (f.email_body) {
    params.push(`body=${pctEncode(f.email_body.replace(/\r\n|\r|\n/g, '\r\n'), HFVALUE)}`);
  }
  const to = pctEncode(required(f, 'email'), QCHAR);
  return params.length ? `mailto:${to}?${params.join('&')}` : `mailto:${to}`;
}

/** wa.me takes the number in international form with digits only (no + either). */
export function encodeWhatsapp(f: QrContentFields): string {
  const value = required(f, 'whatsapp');
  const number = globalNumber(value.trim().startsWith('+') ? value : `+${value}`);
  if (number === null) {
    throw new ContentError(
      'whatsapp',
      'whatsapp must be a telephone number in international form such as +49 151 23456789 (one that libphonenumber knows as valid)',
    );
  }
  const text = f.whatsapp_body ? `?text=${encodeURIComponent(f.whatsapp_body)}` : '';
  return `https://wa.me/${number.slice(1)}${text}`;
}

/** Apple's facetime: URI takes a telephone number (as in tel:) or an e-mail address. */
export function encodeFacetime(f: QrContentFields): string {
  const value = required(f, 'facetime');
  if (value.includes('@')) {
    if (!isEmailAddress(value)) {
      throw new ContentError(
        'facetime',
        'facetime must be a telephone number or an e-mail address',
      );
    }
    return `facetime:${pctEncode(value, QCHAR)}`;
  }
  return `facetime:${telephoneSubscriber('facetime', value)}`;
}

function coordinate(f: QrContentFields, key: DecimalField, limit: string): string {
  required(f, key);
  const value = decimalField(f, key) as string;
  if (!decimalInRange(value, `-${limit}`, limit)) {
    throw new ContentError(key, `${key} must be a number from -${limit} to ${limit}`);
  }
  return value;
}

/** geo URI (RFC 5870): `num = [ "-" ] 1*DIGIT [ "." 1*DIGIT ]`, plain decimals in WGS-84. */
export function encodeLocation(f: QrContentFields): string {
  const latitude = coordinate(f, 'location_latitude', '90');
  const longitude = coordinate(f, 'location_longitude', '180');
  return `geo:${latitude},${longitude}`;
}

const HEX = /^[0-9A-Fa-f]+$/;

/** IEEE 802.11: an SSID is 0 to 32 octets (here 1 to 32 of UTF-8). */
function ssid(f: QrContentFields): string {
  const value = required(f, 'wifi_ssid');
  if (Buffer.byteLength(value, 'utf8') > 32) {
    throw new ContentError(
      'wifi_ssid',
      `wifi_ssid is ${Buffer.byteLength(value, 'utf8')} bytes of UTF-8; IEEE 802.11 allows 32`,
    );
  }
  return value;
}

/**
 * The key as IEEE 802.11 takes it: WPA a passphrase of 8 to 63 printable ASCII characters or a
 * 256-bit key as 64 hex digits; WEP 5 or 13 ASCII characters or 10 or 26 hex digits. Those hex
 * lengths are the ones ZXing reads as hex, the others it quotes, so no quotes are needed here.
 */
function wifiPassword(f: QrContentFields, type: 'WEP' | 'WPA'): string {
  const value = required(f, 'wifi_password');
  const ascii = PRINTABLE_ASCII.test(value);
  const ok =
    type === 'WPA'
      ? (ascii && value.length >= 8 && value.length <= 63) ||
        (value.length === 64 && HEX.test(value))
      : (ascii && (value.length === 5 || value.length === 13)) ||
        ((value.length === 10 || value.length === 26) && HEX.test(value));
  if (!ok) {
    throw new ContentError(
      'wifi_password',
      type === 'WPA'
        ? 'wifi_password for WPA must be 8 to 63 printable ASCII characters or 64 hex digits (IEEE 802.11)'
        : 'wifi_password for WEP must be 5 or 13 ASCII characters or 10 or 26 hex digits (IEEE 802.11)',
    );
  }
  return value;
}

/**
 * The Wi-Fi network config format (ZXing's WIFI:), with `\ ; , : "` escaped by a backslash. An SSID
 * of hex digits alone (`CAFE`) is put in double quotes, as ZXing's format asks: without them
 * ZXing-based apps read it as the hex of the bytes 0xCA 0xFE. Without encryption there is no
 * password: one sent anyway is refused rather than left out.
 */
export function encodeWifi(f: QrContentFields): string {
  const esc = (v: string): string => v.replace(/([\\;,:"])/g, '\\$1');
  const encryption = f.wifi_encryption ?? 'nopass';
  const type = encryption === 'WPA/WPA2' ? 'WPA' : encryption;
  const name = ssid(f);
  const parts = [`T:${type}`, `S:${HEX.test(name) ? `"${name}"` : esc(name)}`];
  if (type !== 'nopass') {
    parts.push(`P:${esc(wifiPassword(f, type))}`);
  } else if (f.wifi_password) {
    throw new ContentError(
      'wifi_password',
      'wifi_password must be empty when wifi_encryption is nopass (an open network has no password)',
    );
  }
  if (f.wifi_is_hidden) {
    parts.push('H:true');
  }
  return `WIFI:${parts.join(';')};;`;
}
