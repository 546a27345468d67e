import { parsePhoneNumberFromString } from 'libphonenumber-js/max';
import { ContentError, encodeContent } from '.';

/** A mailto: URI as a browser reads it (WHATWG URL), address and header fields decoded. */
function readMailto(uri: string) {
  const url = new URL(uri);
  return {
    protocol: url.protocol,
    to: decodeURIComponent(url.pathname),
    hash: url.hash,
    headers: Object.fromEntries(url.searchParams),
  };
}

/** RFC 5870: `geo-URI = "geo:" coord-a "," coord-b [ "," coord-c ] p`, `num = [ "-" ] pnum`. */
const GEO = /^geo:(-?\d+(?:\.\d+)?),(-?\d+(?:\.\d+)?)(?:,-?\d+(?:\.\d+)?)?$/;

/** RFC 3966 `global-number-digits = "+" *phonedigit DIGIT *phonedigit`, visual separators `-.()`. */
const TEL_GLOBAL = /^tel:\+[\d().-]*\d[\d().-]*$/;

describe('mailto (RFC 6068)', () => {
  it('percent-encodes an address with ? and # in its local part, and the header fields', () => {
    const uri = encodeContent('email', {
      email: 'a?b#c@example.com',
      email_subject: 'Q&A: 1+1=2? 100% #sure',
      email_body: 'Zoë\nLine 2 & more',
    });
    expect(readMailto(uri)).toEqual({
      protocol: 'mailto:',
      to: 'a?b#c@example.com',
      hash: '',
      headers: { subject: 'Q&A: 1+1=2? 100% #sure', body: 'Zoë\r\nLine 2 & more' },
    });
    expect(uri).toBe(
      'mailto:a%3Fb%23c@example.com?subject=Q%26A:%201%2B1%3D2%3F%20100%25%20%23sure&body=Zo%C3%AB%0D%0ALine%202%20%26%20more',
    );
  });

  it('keeps the characters RFC 6068 allows in an address, + and the comma between two', () => {
    const uri = encodeContent('email', { email: "o'brien+tag@example.com,b@example.org" });
    expect(uri).toBe("mailto:o'brien+tag@example.com,b@example.org");
    expect(readMailto(uri).to).toBe("o'brien+tag@example.com,b@example.org");
  });

  it('refuses a line break in the subject, a header field', () => {
    expect(() =>
      encodeContent('email', { email: 'a@example.com', email_subject: 'Hi\r\nBcc: x@evil.test' }),
    ).toThrow(new ContentError('email_subject', 'email_subject cannot contain line breaks'));
  });
});

describe('geo (RFC 5870)', () => {
  it.each([
    ['0.0000001', '-0.00000005', 'geo:0.0000001,-0.00000005'],
    ['48.2082', '16.3738', 'geo:48.2082,16.3738'],
    ['-90', '180.000', 'geo:-90,180'],
    ['-0.0', '0', 'geo:0,0'],
  ])('writes %p, %p as plain decimals', (lat, lon, uri) => {
    const geo = encodeContent('location', { location_latitude: lat, location_longitude: lon });
    expect(geo).toBe(uri);
    expect(geo).toMatch(GEO);
  });

  it('refuses a latitude beyond the pole', () => {
    expect(() =>
      encodeContent('location', { location_latitude: '90.0001', location_longitude: '0' }),
    ).toThrow(
      new ContentError('location_latitude', 'location_latitude must be a number from -90 to 90'),
    );
  });
});

const PHONE_RULE = (field: string) =>
  new ContentError(
    field,
    `${field} must be a telephone number in international form such as +1 415 555 2671 (one that libphonenumber knows as valid): a local number or service code needs a phone-context (RFC 3966), which a QR code cannot know`,
  );

describe('tel (RFC 3966)', () => {
  it.each([
    ['+49 151 1234-5678', 'tel:+4915112345678'],
    ['+1 (415) 555.2671', 'tel:+14155552671'],
    ['\t+44 20 7946 0000 ', 'tel:+442079460000'],
  ])('writes %p without its visual separators', (phone, uri) => {
    const tel = encodeContent('phone', { phone });
    expect(tel).toBe(uri);
    expect(tel).toMatch(TEL_GLOBAL);
    // The number libphonenumber reads back is the one written.
    expect(parsePhoneNumberFromString(tel.slice(4))?.number).toBe(tel.slice(4));
  });

  it.each(['030 123-456', '*#06#', '#31#', '112', '0049 30 1234567'])(
    'refuses the local number or service code %p, which RFC 3966 writes only with a phone-context',
    (phone) => {
      expect(() => encodeContent('phone', { phone })).toThrow(PHONE_RULE('phone'));
      expect(() => encodeContent('sms', { sms: phone })).toThrow(PHONE_RULE('sms'));
      expect(() => encodeContent('facetime', { facetime: phone })).toThrow(PHONE_RULE('facetime'));
    },
  );

  it.each(['+49 30 / 123', 'call me', '+', '+49;ext=1', '+49 12', '+1 (555) 123.4567', '12:34'])(
    'refuses %p',
    (phone) => {
      expect(() => encodeContent('phone', { phone })).toThrow(PHONE_RULE('phone'));
    },
  );
});

describe('sms (RFC 5724)', () => {
  it('writes sms: with the number of tel: and a percent-encoded body, read back by WHATWG URL', () => {
    const uri = encodeContent('sms', { sms: '+49 151 1234 5678', sms_body: 'Hi: 12:30 & #1?' });
    expect(uri).toBe('sms:+4915112345678?body=Hi%3A%2012%3A30%20%26%20%231%3F');
    const url = new URL(uri);
    expect([url.protocol, url.pathname, url.searchParams.get('body'), url.hash]).toEqual([
      'sms:',
      '+4915112345678',
      'Hi: 12:30 & #1?',
      '',
    ]);
  });

  it('refuses a number with a colon, which the SMSTO: form read as the end of the number', () => {
    expect(() => encodeContent('sms', { sms: '12:34', sms_body: 'x' })).toThrow(PHONE_RULE('sms'));
  });
});

describe('facetime', () => {
  it('writes a number without spaces, or an e-mail address', () => {
    expect(encodeContent('facetime', { facetime: '+1 415 555 2671' })).toBe(
      'facetime:+14155552671',
    );
    expect(encodeContent('facetime', { facetime: 'me@example.com' })).toBe(
      'facetime:me@example.com',
    );
    expect(new URL(encodeContent('facetime', { facetime: '+1 415 555 2671' })).pathname).toBe(
      '+14155552671',
    );
  });

  it('refuses what is neither', () => {
    expect(() => encodeContent('facetime', { facetime: 'me @ home' })).toThrow(
      new ContentError('facetime', 'facetime must be a telephone number or an e-mail address'),
    );
    expect(() => encodeContent('facetime', { facetime: 'John Smith' })).toThrow(
      PHONE_RULE('facetime'),
    );
  });
});

describe('whatsapp (wa.me)', () => {
  it.each([
    ['+49 151 1234-5678', 'https://wa.me/4915112345678'],
    ['49 151 12345678', 'https://wa.me/4915112345678'],
  ])('writes %p as the digits of an international number', (whatsapp, uri) => {
    expect(encodeContent('whatsapp', { whatsapp })).toBe(uri);
  });

  it.each(['n/a', '0151 12345678', '+49 12'])('refuses %p', (whatsapp) => {
    expect(() => encodeContent('whatsapp', { whatsapp })).toThrow(
      new ContentError(
        'whatsapp',
        'whatsapp must be a telephone number in international form such as +49 151 23456789 (one that libphonenumber knows as valid)',
      ),
    );
  });
});

describe('url', () => {
  it('writes an http(s) URL as a browser resolves it', () => {
    expect(encodeContent('url', { url: 'https://Bücher.example/a b' })).toBe(
      'https://xn--bcher-kva.example/a%20b',
    );
  });

  it.each([
    'javascript:alert(1)',
    'data:text/html,<script>alert(1)</script>',
    'example.com/menu',
    'ftp://example.com/file',
    'https://paypal.com@evil.example/',
  ])('refuses %p', (url) => {
    expect(() => encodeContent('url', { url })).toThrow(
      new ContentError(
        'url',
        'url must be an http:// or https:// URL with a host, such as https://example.com/menu',
      ),
    );
  });
});

/**
 * ZXing's WifiResultParser, in short: fields `T:`, `S:`, `P:`, `H:` split at unescaped `;`, a
 * backslash escapes the next character. ZXing's Android client then reads an SSID of hex digits
 * alone as hex bytes, unless it is in double quotes (WifiConfigManager.quoteNonHex).
 */
function readWifi(payload: string): Record<string, string> {
  const out: Record<string, string> = {};
  const body = payload.slice('WIFI:'.length);
  let key = '';
  let value = '';
  let inKey = true;
  for (let i = 0; i < body.length; i++) {
    const ch = body[i];
    if (ch === '\\' && !inKey) {
      value += body[++i];
    } else if (inKey && ch === ':') {
      inKey = false;
    } else if (inKey) {
      key += ch;
    } else if (ch === ';') {
      out[key] = value;
      [key, value, inKey] = ['', '', true];
    } else {
      value += ch;
    }
  }
  return out;
}

describe('Wi-Fi (IEEE 802.11)', () => {
  const wpa = { wifi_encryption: 'WPA/WPA2', wifi_ssid: 'Lobby' } as const;

  it('keeps white space around the SSID and the password', () => {
    const payload = encodeContent('wifi', {
      ...wpa,
      wifi_ssid: ' Lobby ',
      wifi_password: ' 1234567',
    });
    expect(readWifi(payload)).toEqual({ T: 'WPA', S: ' Lobby ', P: ' 1234567' });
  });

  it.each(['CAFE', '0123', 'deadBEEF'])('quotes the hex-looking SSID %p', (ssid) => {
    expect(
      readWifi(encodeContent('wifi', { ...wpa, wifi_ssid: ssid, wifi_password: 'password' })).S,
    ).toBe(`"${ssid}"`);
  });

  it('takes a 32-octet SSID and refuses a 33-octet one', () => {
    expect(encodeContent('wifi', { wifi_ssid: 'é'.repeat(16) })).toBe(
      `WIFI:T:nopass;S:${'é'.repeat(16)};;`,
    );
    expect(() => encodeContent('wifi', { wifi_ssid: `${'é'.repeat(16)}x` })).toThrow(
      new ContentError('wifi_ssid', 'wifi_ssid is 33 bytes of UTF-8; IEEE 802.11 allows 32'),
    );
  });

  it.each(['12345678', 'x'.repeat(63), 'a'.repeat(64), ' 1234567'])(
    'takes the WPA key %p',
    (wifi_password) => {
      expect(readWifi(encodeContent('wifi', { ...wpa, wifi_password })).P).toBe(wifi_password);
    },
  );

  it.each(['1234567', 'x'.repeat(64), 'g'.repeat(64), 'x'.repeat(70), 'pässwort', '12345678\n'])(
    'refuses the WPA key %p',
    (wifi_password) => {
      expect(() => encodeContent('wifi', { ...wpa, wifi_password })).toThrow(
        new ContentError(
          'wifi_password',
          'wifi_password for WPA must be 8 to 63 printable ASCII characters or 64 hex digits (IEEE 802.11)',
        ),
      );
    },
  );

  it.each(['abcde', 'abcdefghijklm', '0123456789', 'A'.repeat(26)])(
    'takes the WEP key %p',
    (wifi_password) => {
      const payload = encodeContent('wifi', { ...wpa, wifi_encryption: 'WEP', wifi_password });
      expect(readWifi(payload).P).toBe(wifi_password);
    },
  );

  it.each(['abcdefg', '012345678', 'G'.repeat(26), 'abcd'])('refuses the WEP key %p', (key) => {
    expect(() =>
      encodeContent('wifi', { ...wpa, wifi_encryption: 'WEP', wifi_password: key }),
    ).toThrow(
      new ContentError(
        'wifi_password',
        'wifi_password for WEP must be 5 or 13 ASCII characters or 10 or 26 hex digits (IEEE 802.11)',
      ),
    );
  });

  it('refuses a password for an open network rather than leave it out', () => {
    expect(() => encodeContent('wifi', { wifi_ssid: 'Lobby', wifi_password: 'secret123' })).toThrow(
      new ContentError(
        'wifi_password',
        'wifi_password must be empty when wifi_encryption is nopass (an open network has no password)',
      ),
    );
  });
});
