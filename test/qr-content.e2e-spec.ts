import { readFileSync } from 'node:fs';
import { parsePhoneNumberFromString } from 'libphonenumber-js/max';
import sharp from 'sharp';
import { prepareZXingModule, readBarcodes, ReadResult } from 'zxing-wasm/reader';
import { createTestApp, TestApp, TestUser } from '@app/testing';

/**
 * Content is never changed silently (CONTRACT.md, third wave): what a code carries is read back
 * from its PNG by zxing-wasm, a decoder we did not write, and numbers by libphonenumber-js; what a
 * standard cannot carry is a 400 naming the field and the rule.
 */
describe('QR content, exactly as asked or refused', () => {
  let t: TestApp;
  let owner: TestUser;
  let logoPng: Buffer;

  beforeAll(async () => {
    t = await createTestApp();
    owner = await t.createUser();
    const bytes = readFileSync(require.resolve('zxing-wasm/reader/zxing_reader.wasm'));
    const wasmBinary = bytes.buffer.slice(bytes.byteOffset, bytes.byteOffset + bytes.byteLength);
    await prepareZXingModule({ overrides: { wasmBinary }, fireImmediately: true });
    logoPng = await sharp({
      create: { width: 64, height: 64, channels: 4, background: '#e63946' },
    })
      .png()
      .toBuffer();
  });
  afterAll(() => t?.close());

  const post = (body: Record<string, unknown>) =>
    t.http.post('/v1/qr-codes').set('Authorization', owner.auth).send(body);

  /** The code as stored, and what zxing-wasm reads from its PNG. */
  async function created(body: Record<string, unknown>, logo = false) {
    const req = t.http.post('/v1/qr-codes').set('Authorization', owner.auth);
    const res = logo
      ? await req.field(body as Record<string, string>).attach('qr_code_logo', logoPng, 'logo.png')
      : await req.send(body);
    expect(res.status).toBe(201);
    const got = await t.http
      .get(`/v1/qr-codes/${res.body.data.id as number}`)
      .set('Authorization', owner.auth);
    const data = got.body.data as { embedded_data: string; qr_code: string; is_readable: boolean };
    const png = await t.http.get(new URL(data.qr_code).pathname.replace(/\.svg$/, '.png'));
    const { data: pixels, info } = await sharp(png.body as Buffer)
      .ensureAlpha()
      .raw()
      .toBuffer({ resolveWithObject: true });
    const image = {
      data: new Uint8ClampedArray(pixels.buffer, pixels.byteOffset, pixels.length),
      width: info.width,
      height: info.height,
      colorSpace: 'srgb',
    };
    const [read] = await readBarcodes(image as ImageData, { formats: ['QRCode'] });
    return { ...data, read: read as ReadResult | undefined };
  }

  async function refused(body: Record<string, unknown>) {
    const res = await post(body);
    expect(res.status).toBe(400);
    return (res.body as { errors: Array<{ field?: string; title: string }> }).errors.map((e) => [
      e.field,
      e.title,
    ]);
  }

  it('keeps white space around a Wi-Fi password and SSID and a text, as a decoder reads them', async () => {
    const wifi = await created({
      name: 'Lobby',
      type: 'wifi',
      wifi_ssid: ' Lobby ',
      wifi_encryption: 'WPA/WPA2',
      wifi_password: ' 1234567',
    });
    expect(wifi.embedded_data).toBe('WIFI:T:WPA;S: Lobby ;P: 1234567;;');
    expect(wifi.read?.text).toBe(wifi.embedded_data);
    const text = await created({ name: 'Tabs', type: 'text', text: '\tTabbed\t' });
    expect([text.embedded_data, text.read?.text]).toEqual(['\tTabbed\t', '\tTabbed\t']);
  });

  it('quotes a hex-looking SSID and refuses keys and SSIDs IEEE 802.11 does not allow', async () => {
    const cafe = await created({ name: 'Cafe', type: 'wifi', wifi_ssid: 'CAFE' });
    expect(cafe.read?.text).toBe('WIFI:T:nopass;S:"CAFE";;');
    const wpa = { name: 'W', type: 'wifi', wifi_ssid: 'Lobby', wifi_encryption: 'WPA/WPA2' };
    expect(await refused({ ...wpa, wifi_ssid: 'x'.repeat(40), wifi_password: 'password' })).toEqual(
      [['wifi_ssid', 'wifi_ssid is 40 bytes of UTF-8; IEEE 802.11 allows 32.']],
    );
    for (const password of ['12345', 'x'.repeat(70), 'pässwort1']) {
      expect(await refused({ ...wpa, wifi_password: password })).toEqual([
        [
          'wifi_password',
          'wifi_password for WPA must be 8 to 63 printable ASCII characters or 64 hex digits (IEEE 802.11).',
        ],
      ]);
    }
    expect(await refused({ ...wpa, wifi_encryption: 'WEP', wifi_password: '1234567' })).toEqual([
      [
        'wifi_password',
        'wifi_password for WEP must be 5 or 13 ASCII characters or 10 or 26 hex digits (IEEE 802.11).',
      ],
    ]);
  });

  it('writes tel:, sms: and facetime: by RFC 3966 and 5724, numbers checked by libphonenumber', async () => {
    const tel = await created({ name: 'T', type: 'phone', phone: '+49 30 1234567' });
    expect(tel.read?.text).toBe('tel:+49301234567');
    expect(parsePhoneNumberFromString(tel.embedded_data.slice(4))?.isValid()).toBe(true);
    const sms = await created({
      name: 'S',
      type: 'sms',
      sms: '+49 30 1234567',
      sms_body: 'At 12:34?',
    });
    expect(sms.read?.text).toBe('sms:+49301234567?body=At%2012%3A34%3F');
    expect(new URL(sms.embedded_data).searchParams.get('body')).toBe('At 12:34?');
    const ft = await created({ name: 'F', type: 'facetime', facetime: '+1 415 555 2671' });
    expect(ft.read?.text).toBe('facetime:+14155552671');
    const rule = (field: string) =>
      `${field} must be a telephone number in international form such as +1 415 555 2671 (one that libphonenumber knows as valid): a local number or service code needs a phone-context (RFC 3966), which a QR code cannot know.`;
    expect(await refused({ name: 'S', type: 'sms', sms: '12:34', sms_body: 'x' })).toEqual([
      ['sms', rule('sms')],
    ]);
    // RFC 3966 writes a local number or service code only with a phone-context, which is unknown.
    expect(await refused({ name: 'IMEI', type: 'phone', phone: '*#06#' })).toEqual([
      ['phone', rule('phone')],
    ]);
    expect(await refused({ name: 'L', type: 'phone', phone: '030 1234567' })).toEqual([
      ['phone', rule('phone')],
    ]);
    expect(await refused({ name: 'F', type: 'facetime', facetime: '0151 23456789' })).toEqual([
      ['facetime', rule('facetime')],
    ]);
    expect(await refused({ name: 'W', type: 'whatsapp', whatsapp: 'n/a' })).toEqual([
      [
        'whatsapp',
        'whatsapp must be a telephone number in international form such as +49 151 23456789 (one that libphonenumber knows as valid).',
      ],
    ]);
    expect(await refused({ name: 'V', type: 'vcard', vcard_email: 'a@example.com' })).toEqual([
      [
        'vcard_first_name',
        'A vCard needs a name (RFC 2426 FN): give vcard_first_name, vcard_last_name or vcard_company.',
      ],
    ]);
  });

  it('refuses a url that is not http(s) with a host', async () => {
    for (const url of ['javascript:alert(1)', 'data:text/html,<b>hi</b>', 'example.com/menu']) {
      expect(await refused({ name: 'U', type: 'url', url })).toEqual([
        ['url', 'url must be an http:// or https:// URL with a host, at most 2048 characters.'],
      ]);
    }
  });

  describe('EPC069-12: level M, version 13 at most', () => {
    const epc = {
      name: 'Donate',
      type: 'epc',
      epc_payee_name: 'Red Cross of Belgium',
      epc_iban: 'BE72000000001616',
      epc_amount: '12.5',
    };

    it('stays at level M under a logo, as a decoder reads it', async () => {
      const code = await created({ ...epc, qr_code_logo_size: '15' }, true);
      expect(code.read?.text).toBe(code.embedded_data);
      expect(code.read?.ecLevel).toBe('M');
      expect(Number(code.read?.version)).toBeLessThanOrEqual(13);
    });

    it('refuses a logo that level M cannot spare, naming the size that fits', async () => {
      const res = await t.http
        .post('/v1/qr-codes')
        .set('Authorization', owner.auth)
        .field({ ...epc, qr_code_logo_size: '25' })
        .attach('qr_code_logo', logoPng, 'logo.png');
      expect(res.status).toBe(400);
      expect(res.body).toEqual({
        errors: [
          {
            status: 400,
            code: 'validation_failed',
            field: 'qr_code_logo_size',
            title:
              'qr_code_logo_size is too large for an epc code: EPC069-12 fixes error correction M, which cannot spare the modules the logo covers; a qr_code_logo_size of 18 or less fits this content.',
          },
        ],
      });
    });

    it('refuses another level than M', async () => {
      expect(await refused({ ...epc, ecc: 'H' })).toEqual([
        ['ecc', 'ecc must be M for an epc code: EPC069-12 prescribes error correction M.'],
      ]);
    });

    it('names the rule a BIC of 8 characters breaks', async () => {
      expect(await refused({ ...epc, epc_bic: 'COBAXXFF' })).toEqual([
        [
          'epc_bic',
          'epc_bic COBAXXFF has XX where a BIC (ISO 9362) has the ISO 3166 code of its country, such as DE in COBADEFFXXX.',
        ],
      ]);
    });

    it('keeps non-ASCII content within version 13: 330 bytes with the ECI, 331 refused', async () => {
      const long = {
        ...epc,
        epc_payee_name: 'Ü'.repeat(35),
        epc_iban: 'DE89370400440532013000',
        epc_bic: 'COBADEFFXXX',
        epc_amount: '999999999.99',
        information: 'i'.repeat(70),
      };
      const code = await created({ ...long, epc_remittance_text: 't'.repeat(121) });
      expect(Buffer.byteLength(code.embedded_data)).toBe(330);
      expect([code.read?.text, code.read?.ecLevel, code.read?.version]).toEqual([
        code.embedded_data,
        'M',
        '13',
      ]);
      expect(await refused({ ...long, epc_remittance_text: 't'.repeat(122) })).toEqual([
        [
          'epc_remittance_text',
          'The EPC payload is 331 bytes of UTF-8 and EPC069-12 allows 330 (331 less the byte its UTF-8 marker takes in a version 13 code at level M): shorten epc_remittance_text.',
        ],
      ]);
    });
  });

  it('refuses what a Pix BR Code cannot carry rather than strip it', async () => {
    const pix = {
      name: 'Pix',
      type: 'pix',
      pix_payee_key: 'loja@exemplo.com.br',
      pix_payee_name: 'Loja',
      pix_city: 'Recife',
    };
    const ok = await created({ ...pix, pix_amount: '10' });
    expect(ok.read?.text).toBe(ok.embedded_data);
    expect(await refused({ ...pix, pix_payee_name: '東京商店', pix_city: '東京' })).toEqual([
      [
        'pix_payee_name',
        'pix_payee_name must be 1 to 25 printable ASCII characters, without accents (BR Code tag 59).',
      ],
    ]);
    expect(await refused({ ...pix, pix_payee_key: 'joão@exemplo.com.br' })).toEqual([
      [
        'pix_payee_key',
        'pix_payee_key must be a Pix key: an e-mail address in ASCII, a Brazilian phone number such as +55 61 91234 5678, a CPF or CNPJ with valid check digits, or a random key (a lower-case UUID).',
      ],
    ]);
    expect(await refused({ ...pix, pix_amount: '0' })).toEqual([
      [
        'pix_amount',
        'pix_amount must be an amount above 0 with at most 2 decimals (leave it out to let the payer choose).',
      ],
    ]);
  });

  it('refuses crypto addresses off their checksums, and zero amounts', async () => {
    expect(
      await refused({
        name: 'ETH',
        type: 'crypto',
        crypto_coin: 'ethereum',
        crypto_address: '0xfb6916095ca1df60bb79Ce92ce3ea74c37c5d359',
      }),
    ).toEqual([
      [
        'crypto_address',
        'crypto_address must be an ethereum address: 0x and 40 hex digits (in mixed case only with a valid EIP-55 checksum), or an ENS name such as vitalik.eth.',
      ],
    ]);
    expect(
      await refused({
        name: 'UPI',
        type: 'upi',
        upi_payee_id: 'not a vpa',
        upi_payee_name: 'Shop',
      }),
    ).toEqual([
      [
        'upi_payee_id',
        'upi_payee_id must be a UPI address (VPA) such as shop.name@okhdfcbank: letters, digits, . - _ then @ and the letters of the bank handle.',
      ],
    ]);
    expect(
      await refused({
        name: 'PP',
        type: 'paypal',
        paypal_email: 'a@example.com',
        paypal_currency: 'XYZ',
      }),
    ).toEqual([
      [
        'paypal_currency',
        'paypal_currency must be one of the ISO 4217 codes PayPal takes: AUD, BRL, CAD, CNY, CZK, DKK, EUR, HKD, HUF, ILS, JPY, MYR, MXN, TWD, NZD, NOK, PHP, PLN, GBP, SGD, SEK, CHF, THB, USD.',
      ],
    ]);
  });
});
