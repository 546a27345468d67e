import { decimalInRange } from './decimal';
import { ContentError, decimalField, DecimalField, QrContentFields, required } from './fields';

export function encodeText(f: QrContentFields): string {
  return required(f, 'text');
}

export function encodeUrl(f: QrContentFields): string {
  return required(f, 'url');
}

/** RFC 3966: a global number (`+` and digits) or a local one, with only `-.()` between digits. */
const TEL_NUMBER = /^(\+[\d().-]*\d[\d().-]*|[\dA-Fa-f*#().-]*[\dA-Fa-f*#][\dA-Fa-f*#().-]*)$/;

/** A tel: URI (RFC 3966): the spaces people type between digit groups are not allowed in it. */
export function encodePhone(f: QrContentFields): string {
  const number = required(f, 'phone').replace(/\s/g, '');
  if (!TEL_NUMBER.test(number)) {
    throw new ContentError('phone', 'phone must be a telephone number such as +49 30 1234567');
  }
  return `tel:${number}`;
}

/** SMSTO:number:body, read by Android and iOS scanners alike. */
export function encodeSms(f: QrContentFields): string {
  return `SMSTO:${required(f, 'sms')}:${f.sms_body ?? ''}`;
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

/** wa.me takes the number in international form with digits only. */
export function encodeWhatsapp(f: QrContentFields): string {
  const digits = required(f, 'whatsapp').replace(/\D/g, '');
  const text = f.whatsapp_body ? `?text=${encodeURIComponent(f.whatsapp_body)}` : '';
  return `https://wa.me/${digits}${text}`;
}

export function encodeFacetime(f: QrContentFields): string {
  return `facetime:${required(f, 'facetime')}`;
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

/** The Wi-Fi network config format (ZXing's WIFI:), with `\ ; , : "` escaped by a backslash. */
export function encodeWifi(f: QrContentFields): string {
  const esc = (v: string): string => v.replace(/([\\;,:"])/g, '\\$1');
  const encryption = f.wifi_encryption ?? 'nopass';
  const type = encryption === 'WPA/WPA2' ? 'WPA' : encryption;
  const parts = [`T:${type}`, `S:${esc(required(f, 'wifi_ssid'))}`];
  if (type !== 'nopass') {
    parts.push(`P:${esc(required(f, 'wifi_password'))}`);
  }
  if (f.wifi_is_hidden) {
    parts.push('H:true');
  }
  return `WIFI:${parts.join(';')};;`;
}
