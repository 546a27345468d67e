import { ContentError, crc16Ccitt, encodeContent } from '.';

describe('encodeContent', () => {
  it.each([
    ['text', { text: 'Hello, world' }, 'Hello, world'],
    ['url', { url: 'https://example.com/a?b=c' }, 'https://example.com/a?b=c'],
    ['phone', { phone: '+4915112345678' }, 'tel:+4915112345678'],
    ['sms', { sms: '+4915112345678', sms_body: 'Hi there' }, 'sms:+4915112345678?body=Hi%20there'],
    ['sms', { sms: '+4915112345678' }, 'sms:+4915112345678'],
    [
      'email',
      { email: 'a@example.com', email_subject: 'Hi & bye', email_body: 'Line 1\nLine 2' },
      'mailto:a@example.com?subject=Hi%20%26%20bye&body=Line%201%0D%0ALine%202',
    ],
    ['email', { email: 'a@example.com' }, 'mailto:a@example.com'],
    [
      'whatsapp',
      { whatsapp: '+49 151 1234-5678', whatsapp_body: 'Hallo Welt!' },
      'https://wa.me/4915112345678?text=Hallo%20Welt!',
    ],
    ['facetime', { facetime: 'me@example.com' }, 'facetime:me@example.com'],
    [
      'location',
      { location_latitude: '48.2082', location_longitude: '16.3738' },
      'geo:48.2082,16.3738',
    ],
    [
      'wifi',
      { wifi_ssid: 'mynetwork', wifi_encryption: 'WPA/WPA2', wifi_password: 'mypassword' },
      'WIFI:T:WPA;S:mynetwork;P:mypassword;;',
    ],
    [
      'wifi',
      {
        wifi_ssid: '"cafe";net',
        wifi_encryption: 'WEP',
        wifi_password: 'a\\b,c:d123456',
        wifi_is_hidden: true,
      },
      'WIFI:T:WEP;S:\\"cafe\\"\\;net;P:a\\\\b\\,c\\:d123456;H:true;;',
    ],
    ['wifi', { wifi_ssid: 'Open' }, 'WIFI:T:nopass;S:Open;;'],
    [
      'crypto',
      {
        crypto_coin: 'bitcoin',
        crypto_address: '1BoatSLRHtKNngkdXEeobR76b53LETtpyT',
        crypto_amount: '0.005',
      },
      'bitcoin:1BoatSLRHtKNngkdXEeobR76b53LETtpyT?amount=0.005',
    ],
    [
      'crypto',
      {
        crypto_coin: 'ethereum',
        crypto_address: '0xfB6916095ca1df60bB79Ce92cE3Ea74c37c5d359',
        crypto_amount: '2.014',
      },
      'ethereum:0xfB6916095ca1df60bB79Ce92cE3Ea74c37c5d359?value=2014000000000000000',
    ],
    [
      'crypto',
      { crypto_address: 'bc1qar0srrr7xfkvy5l643lydnw9re59gtzzwf5mdq' },
      'bitcoin:bc1qar0srrr7xfkvy5l643lydnw9re59gtzzwf5mdq',
    ],
    [
      'paypal',
      {
        paypal_type: 'buy_now',
        paypal_email: 'shop@example.com',
        paypal_title: 'T shirt',
        paypal_currency: 'eur',
        paypal_price: '12.5',
      },
      'https://www.paypal.com/cgi-bin/webscr?cmd=_xclick&business=shop%40example.com&item_name=T%20shirt&amount=12.50&currency_code=EUR',
    ],
    [
      'paypal',
      {
        paypal_type: 'add_to_cart',
        paypal_email: 's@example.com',
        paypal_thank_you_url: 'https://e.com/ok',
      },
      'https://www.paypal.com/cgi-bin/webscr?cmd=_cart&add=1&business=s%40example.com&currency_code=USD&return=https%3A%2F%2Fe.com%2Fok',
    ],
    [
      'paypal',
      {
        paypal_type: 'donation',
        paypal_email: 'd@example.com',
        paypal_cancel_url: 'https://e.com/no',
      },
      'https://www.paypal.com/cgi-bin/webscr?cmd=_donations&business=d%40example.com&currency_code=USD&cancel_return=https%3A%2F%2Fe.com%2Fno',
    ],
    [
      'upi',
      {
        upi_payee_id: 'shop@upi',
        upi_payee_name: 'Chai & Co',
        upi_amount: '99',
        upi_transaction_note: 'Order #12',
      },
      'upi://pay?pa=shop%40upi&pn=Chai%20%26%20Co&am=99.00&cu=INR&tn=Order%20%2312',
    ],
  ] as const)('encodes %s', (type, fields, expected) => {
    expect(encodeContent(type, fields)).toBe(expected);
  });

  it('writes an iCalendar object in UTC times, with PRODID, UID, DTSTAMP and alarm triggers', () => {
    const fields = {
      event: 'Launch; party, v2',
      event_location: 'Berlin',
      event_url: 'https://example.com',
      event_note: 'Bring\nfriends',
      event_timezone: 'Europe/Berlin',
      event_start_datetime: '2026-07-01 18:30',
      event_end_datetime: '2026-07-01T22:00:00',
      event_first_alert_datetime: '2026-07-01 17:30',
      event_second_alert_datetime: '2026-12-01 09:00',
    };
    const now = new Date('2026-05-04T03:02:01.999Z');
    const payload = encodeContent('event', fields, now);
    expect(payload.replace(/^UID:[0-9a-f]{32}@linkdock$/m, 'UID:…')).toBe(
      [
        'BEGIN:VCALENDAR',
        'VERSION:2.0',
        'PRODID:-//Linkdock//QR codes//EN',
        'BEGIN:VEVENT',
        'UID:…',
        'DTSTAMP:20260504T030201Z',
        'SUMMARY:Launch\\; party\\, v2',
        // Summer time: UTC+2.
        'DTSTART:20260701T163000Z',
        'DTEND:20260701T200000Z',
        'LOCATION:Berlin',
        'URL:https://example.com',
        'DESCRIPTION:Bring\\nfriends',
        'BEGIN:VALARM',
        'ACTION:DISPLAY',
        'DESCRIPTION:Launch\\; party\\, v2',
        'TRIGGER;VALUE=DATE-TIME:20260701T153000Z',
        'END:VALARM',
        'BEGIN:VALARM',
        'ACTION:DISPLAY',
        'DESCRIPTION:Launch\\; party\\, v2',
        // Winter time: UTC+1.
        'TRIGGER;VALUE=DATE-TIME:20261201T080000Z',
        'END:VALARM',
        'END:VEVENT',
        'END:VCALENDAR',
        '',
      ].join('\r\n'),
    );
    // The same event has the same UID at any time; another event has another.
    const uid = (p: string): string | undefined => /^UID:(.*)$/m.exec(p)?.[1];
    expect(uid(encodeContent('event', fields, new Date()))).toBe(uid(payload));
    expect(uid(encodeContent('event', { ...fields, event: 'Other' }, now))).not.toBe(uid(payload));
  });

  it('writes a vCard 3.0 with phones, socials and escaped values', () => {
    expect(
      encodeContent('vcard', {
        vcard_first_name: 'Ada',
        vcard_last_name: 'Lovelace',
        vcard_company: 'Engines, Ltd; London',
        vcard_job_title: 'Analyst',
        vcard_email: 'ada@example.com',
        vcard_url: 'https://example.com',
        vcard_birthday: '1815-12-10',
        vcard_street: "12 St James's Square",
        vcard_city: 'London',
        vcard_zip: 'SW1Y 4JH',
        vcard_region: '',
        vcard_country: 'UK',
        vcard_note: 'First\nprogrammer',
        vcard_phone_numbers: [
          { label: 'Work', value: '+44 20 7946 0000' },
          { label: 'ce:ll;', value: '+44 7911 123456' },
        ],
        vcard_socials: [{ label: 'Mastodon', value: 'https://mastodon.example/@ada' }],
      }),
    ).toBe(
      [
        'BEGIN:VCARD',
        'VERSION:3.0',
        'N:Lovelace;Ada;;;',
        'FN:Ada Lovelace',
        'ORG:Engines\\, Ltd\\; London',
        'TITLE:Analyst',
        'TEL;TYPE=Work:+44 20 7946 0000',
        'TEL;TYPE=cell:+44 7911 123456',
        'EMAIL;TYPE=INTERNET:ada@example.com',
        'URL:https://example.com',
        'BDAY:1815-12-10',
        "ADR:;;12 St James's Square;London;;SW1Y 4JH;UK",
        'NOTE:First\\nprogrammer',
        'X-SOCIALPROFILE;TYPE=Mastodon:https://mastodon.example/@ada',
        'END:VCARD',
        '',
      ].join('\r\n'),
    );
  });

  it('writes an EPC069-12 version 002 SEPA credit transfer, line by line', () => {
    expect(
      encodeContent('epc', {
        epc_bic: 'BPOTBEB1',
        epc_payee_name: 'Red Cross of Belgium',
        epc_iban: 'BE72 0000 0000 1616',
        epc_amount: '1',
        epc_remittance_text: 'Urgency fund',
        information: 'Sample EPC QR code',
      }),
    ).toBe(
      'BCD\n002\n1\nSCT\nBPOTBEB1\nRed Cross of Belgium\nBE72000000001616\nEUR1.00\n\n\nUrgency fund\nSample EPC QR code',
    );
  });

  it('leaves out trailing empty EPC elements', () => {
    expect(
      encodeContent('epc', {
        epc_payee_name: 'Shop',
        epc_iban: 'DE89370400440532013000',
        epc_remittance_reference: 'RF18539007547034',
      }),
    ).toBe('BCD\n002\n1\nSCT\n\nShop\nDE89370400440532013000\n\n\nRF18539007547034');
  });

  it('writes the Banco Central do Brasil example BR Code, CRC included', () => {
    expect(
      encodeContent('pix', {
        pix_payee_key: '123e4567-e12b-12d1-a456-426655440000',
        pix_payee_name: 'Fulano de Tal',
        pix_city: 'BRASILIA',
      }),
    ).toBe(
      '00020126580014br.gov.bcb.pix0136123e4567-e12b-12d1-a456-4266554400005204000053039865802BR5913Fulano de Tal6008BRASILIA62070503***63041D3D',
    );
  });

  it('computes CRC-16/CCITT-FALSE (check value of "123456789" is 29B1)', () => {
    expect(crc16Ccitt('123456789')).toBe('29B1');
  });

  it.each([
    ['url', {}, 'url'],
    ['wifi', { wifi_ssid: 'x', wifi_encryption: 'WPA/WPA2' }, 'wifi_password'],
    ['event', { event: 'x', event_start_datetime: '2026-02-30 10:00' }, 'event_start_datetime'],
    [
      'event',
      { event: 'x', event_start_datetime: '2026-02-01 10:00', event_timezone: 'Mars/Base' },
      'event_timezone',
    ],
    ['epc', { epc_payee_name: 'x', epc_iban: 'not an iban' }, 'epc_iban'],
    ['upi', { upi_payee_id: 'ab@upi', upi_payee_name: 'x', upi_currency: 'USD' }, 'upi_currency'],
    ['pix', { pix_payee_key: 'loja@exemplo.com.br', pix_payee_name: 'n' }, 'pix_city'],
  ] as const)(
    'rejects bad %s content with a ContentError naming the field',
    (type, fields, field) => {
      expect(() => encodeContent(type, fields)).toThrow(ContentError);
      try {
        encodeContent(type, fields);
      } catch (e) {
        expect((e as ContentError).field).toBe(field);
      }
    },
  );
});
