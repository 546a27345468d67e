import { QrContentFields, required } from './fields';

export function encodeText(f: QrContentFields): string {
  return required(f, 'text');
}

export function encodeUrl(f: QrContentFields): string {
  return required(f, 'url');
}

export function encodePhone(f: QrContentFields): string {
  return `tel:${required(f, 'phone')}`;
}

/** SMSTO:number:body, read by Android and iOS scanners alike. */
export function encodeSms(f: QrContentFields): string {
  return `SMSTO:${required(f, 'sms')}:${f.sms_body ?? ''}`;
}

/** mailto (RFC 6068): every scanner opens it, and subject and body travel percent-encoded. */
export function encodeEmail(f: QrContentFields): string {
  const params: string[] = [];
  if (f.email_subject) {
    params.push(`subject=${encodeURIComponent(f.email_subject)}`);
  }
  if (f.email_body) {
    params.push(`body=${encodeURIComponent(f.email_body)}`);
  }
  const to = encodeURI(required(f, 'email'));
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

/** geo URI (RFC 5870). */
export function encodeLocation(f: QrContentFields): string {
  return `geo:${required(f, 'location_latitude')},${required(f, 'location_longitude')}`;
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
