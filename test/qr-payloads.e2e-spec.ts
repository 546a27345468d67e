import { execFileSync } from 'node:child_process';
import { readFileSync } from 'node:fs';
import { createRequire } from 'node:module';
import type * as IbanTools from 'ibantools' with { 'resolution-mode': 'import' };
import type ICALModule from 'ical.js' with { 'resolution-mode': 'import' };
import sharp from 'sharp';
import { prepareZXingModule, readBarcodes } from 'zxing-wasm/reader';
import { createTestApp, TestApp, TestUser } from '@app/testing';

// Parsers that none of us wrote: ibantools, ical.js (iCalendar and vCard), bip21, WHATWG URL,
// zxing-wasm; and the grammars of BIP 21, EIP-681 and RFC 5870.
const load = createRequire(__filename);
const ibantools = load('ibantools') as typeof IbanTools;
const ICAL = load('ical.js') as typeof ICALModule;

/** bitcoinjs' bip21 `decode`, in a plain Node process (it requires an ES module). */
function bip21Decode(uri: string): unknown {
  const script = `process.stdout.write(JSON.stringify(require('bip21').decode(process.argv[1])));`;
  return JSON.parse(
    execFileSync(process.execPath, ['-e', script, uri], {
      cwd: __dirname,
      encoding: 'utf8',
      stdio: ['ignore', 'pipe', 'ignore'],
    }),
  );
}

const BTC = '1BoatSLRHtKNngkdXEeobR76b53LETtpyT';
/** EIP-55's example in its checksummed case. */
const ETH = '0xfB6916095ca1df60bB79Ce92cE3Ea74c37c5d359';
/** BIP 21 `amountparam = "amount=" *digit [ "." *digit ]`. */
const BIP21 = /^bitcoin:[1-9A-HJ-NP-Za-km-z]+\?amount=\d*(\.\d*)?$/;
/** EIP-681 with `value` an integer of wei written out (no exponent). */
const EIP681 = /^ethereum:0x[0-9a-fA-F]{40}\?value=(\d+)$/;
/** RFC 5870 `"geo:" num "," num`, `num = [ "-" ] 1*DIGIT [ "." 1*DIGIT ]`. */
const GEO = /^geo:-?\d+(\.\d+)?,-?\d+(\.\d+)?$/;

describe('QR payloads by their standards', () => {
  let t: TestApp;
  let owner: TestUser;

  beforeAll(async () => {
    t = await createTestApp();
    owner = await t.createUser();
    const bytes = readFileSync(require.resolve('zxing-wasm/reader/zxing_reader.wasm'));
    const wasmBinary = bytes.buffer.slice(bytes.byteOffset, bytes.byteOffset + bytes.byteLength);
    await prepareZXingModule({ overrides: { wasmBinary }, fireImmediately: true });
  });
  afterAll(() => t?.close());

  async function created(body: Record<string, unknown>, json = false) {
    const post = t.http.post('/v1/qr-codes').set('Authorization', owner.auth);
    const res = await (json ? post.send(body) : post.field(body as Record<string, string>));
    expect(res.status).toBe(201);
    const got = await t.http
      .get(`/v1/qr-codes/${res.body.data.id as number}`)
      .set('Authorization', owner.auth);
    return got.body.data as {
      embedded_data: string;
      settings: Record<string, unknown>;
      qr_code: string;
      is_readable: boolean;
    };
  }

  async function refused(body: Record<string, string>) {
    const res = await t.http.post('/v1/qr-codes').set('Authorization', owner.auth).field(body);
    expect(res.status).toBe(400);
    return res.body as unknown;
  }

  const error = (field: string, title: string) => ({
    errors: [{ status: 400, title, field, code: 'validation_failed' }],
  });

  it.each([false, true])(
    'writes 0.00000001 BTC as a plain BIP 21 amount (JSON: %p)',
    async (json) => {
      const amount = json ? 1e-8 : '0.00000001';
      const data = await created(
        { name: 'Tip', type: 'crypto', crypto_address: BTC, crypto_amount: amount },
        json,
      );
      expect(data.embedded_data).toBe(`bitcoin:${BTC}?amount=0.00000001`);
      expect(data.embedded_data).toMatch(BIP21);
      expect(bip21Decode(data.embedded_data)).toEqual({ address: BTC, options: { amount: 1e-8 } });
      expect(data.settings.crypto_amount).toBe('0.00000001');
    },
  );

  it('writes an ether amount as an exact integer of wei (EIP-681)', async () => {
    const data = await created({
      name: 'Eth',
      type: 'crypto',
      crypto_coin: 'ethereum',
      crypto_address: ETH,
      crypto_amount: '1234567.891234567891234567',
    });
    expect(EIP681.exec(data.embedded_data)?.[1]).toBe('1234567891234567891234567');
    const tiny = await created({
      name: 'Eth',
      type: 'crypto',
      crypto_coin: 'ethereum',
      crypto_address: ETH,
      crypto_amount: '0.0000001',
    });
    expect(tiny.embedded_data).toBe(`ethereum:${ETH}?value=100000000000`);
  });

  it('writes tiny coordinates as plain decimals (RFC 5870)', async () => {
    const data = await created(
      { name: 'Here', type: 'location', location_latitude: 1e-7, location_longitude: -5e-8 },
      true,
    );
    expect(data.embedded_data).toBe('geo:0.0000001,-0.00000005');
    expect(data.embedded_data).toMatch(GEO);
  });

  it('refuses an amount in exponent form and a bitcoin amount below one satoshi', async () => {
    const base = { name: 'x', type: 'crypto', crypto_address: BTC };
    expect(await refused({ ...base, crypto_amount: '1e-8' })).toEqual(
      error(
        'crypto_amount',
        'crypto_amount must be a decimal number from 0 to 1000000000000, such as 0.00000001.',
      ),
    );
    expect(await refused({ ...base, crypto_amount: '0.000000001' })).toEqual(
      error(
        'crypto_amount',
        'crypto_amount must be a positive bitcoin amount with at most 8 decimals.',
      ),
    );
  });

  it('refuses an address that would add parameters to the BIP 21 URI', async () => {
    const body = { name: 'x', type: 'crypto', crypto_amount: '0.1' };
    // bip21 reads what this address would have made as a request for 100 BTC.
    expect(bip21Decode(`bitcoin:${BTC}?amount=100&x?amount=0.1`)).toEqual({
      address: BTC,
      options: { amount: 100, 'x?amount': '0.1' },
    });
    expect(await refused({ ...body, crypto_address: `${BTC}?amount=100&x` })).toEqual(
      error(
        'crypto_address',
        'crypto_address must be a bitcoin address: a Base58Check address (1…, 3…) or a bech32/bech32m segwit address (bc1…) with a valid checksum.',
      ),
    );
  });

  describe('EPC069-12', () => {
    const epc = {
      name: 'Donate',
      type: 'epc',
      epc_payee_name: 'Red Cross of Belgium',
      epc_iban: 'BE72 0000 0000 1616',
    };

    it('writes one element per line, the account valid for ibantools', async () => {
      const data = await created({ ...epc, epc_bic: 'BPOTBEB1', epc_amount: '12.5' });
      const lines = data.embedded_data.split('\n');
      expect(lines).toEqual([
        'BCD',
        '002',
        '1',
        'SCT',
        'BPOTBEB1',
        'Red Cross of Belgium',
        'BE72000000001616',
        'EUR12.50',
      ]);
      expect(ibantools.isValidBIC(lines[4]) && ibantools.isValidIBAN(lines[6])).toBe(true);
    });

    it('refuses a payee name with a line break, which would inject an IBAN', async () => {
      expect(await refused({ ...epc, epc_payee_name: 'Mallory\nDE89370400440532013000' })).toEqual(
        error(
          'epc_payee_name',
          'epc_payee_name cannot contain line breaks or other control characters.',
        ),
      );
    });

    it('refuses an IBAN with wrong check digits', async () => {
      const iban = 'DE00370400440532013000';
      expect(ibantools.isValidIBAN(iban)).toBe(false);
      expect(await refused({ ...epc, epc_iban: iban })).toEqual(
        error(
          'epc_iban',
          'epc_iban must be an IBAN with valid check digits, such as DE89 3704 0044 0532 0130 00.',
        ),
      );
    });

    it('refuses a payload over 331 bytes, naming the longest text', async () => {
      expect(
        await refused({
          ...epc,
          epc_payee_name: 'Ü'.repeat(70),
          epc_bic: 'COBADEFFXXX',
          epc_amount: '999999999.99',
          epc_remittance_text: 't'.repeat(140),
          information: 'i'.repeat(70),
        }),
      ).toEqual(
        error(
          'epc_payee_name',
          'The EPC payload is 413 bytes of UTF-8 and EPC069-12 allows 330 (331 less the byte its UTF-8 marker takes in a version 13 code at level M): shorten epc_payee_name.',
        ),
      );
    });
  });

  it('percent-encodes a mailto address with ? and # (RFC 6068), read back by WHATWG URL', async () => {
    const data = await created({
      name: 'Mail',
      type: 'email',
      email: 'a?b#c@example.com',
      email_subject: 'Q&A #1',
    });
    const url = new URL(data.embedded_data);
    expect([decodeURIComponent(url.pathname), url.hash, url.searchParams.get('subject')]).toEqual([
      'a?b#c@example.com',
      '',
      'Q&A #1',
    ]);
  });

  it.each([
    ['2026-01-15 10:30', '2026-01-15T09:30:00.000Z'],
    ['2026-07-15 10:30', '2026-07-15T08:30:00.000Z'],
  ])('puts an event at %p in Europe/Paris at %p for ical.js', async (start, instant) => {
    const data = await created({
      name: 'Talk',
      type: 'event',
      event: 'Talk',
      event_timezone: 'Europe/Paris',
      event_start_datetime: start,
    });
    const calendar = new ICAL.Component(ICAL.parse(data.embedded_data));
    const vevent = calendar.getFirstSubcomponent('vevent');
    expect(vevent && new ICAL.Event(vevent).startDate.toJSDate().toISOString()).toBe(instant);
    expect(calendar.getFirstPropertyValue('prodid')).toBeTruthy();
    expect([vevent?.hasProperty('uid'), vevent?.hasProperty('dtstamp')]).toEqual([true, true]);
  });

  it('writes a vCard that ical.js reads: URL as typed, work;voice two types', async () => {
    const url = 'https://example.com/a,b;c';
    const res = await t.http
      .post('/v1/qr-codes')
      .set('Authorization', owner.auth)
      .field({ name: 'Card', type: 'vcard', vcard_first_name: 'Ada', vcard_url: url })
      .field('vcard_phone_number_label[]', 'work;voice')
      .field('vcard_phone_number_value[]', '+44 20 7946 0000');
    expect(res.status).toBe(201);
    const got = await t.http
      .get(`/v1/qr-codes/${res.body.data.id as number}`)
      .set('Authorization', owner.auth);
    const card = new ICAL.Component(ICAL.parse(got.body.data.embedded_data as string));
    expect(card.getAllProperties().map((p) => p.toJSON())).toEqual([
      ['version', {}, 'text', '3.0'],
      ['n', {}, 'text', ['', 'Ada', '', '', '']],
      ['fn', {}, 'text', 'Ada'],
      ['tel', { type: ['work', 'voice'] }, 'phone-number', '+44 20 7946 0000'],
      ['url', {}, 'uri', url],
    ]);
  });

  it('refuses a birthday ical.js cannot read and a phone number with vCard delimiters', async () => {
    const card = { name: 'Card', type: 'vcard', vcard_first_name: 'Ada' };
    expect(() =>
      new ICAL.Component(
        ICAL.parse('BEGIN:VCARD\r\nVERSION:3.0\r\nFN:A\r\nBDAY:March 3\r\nEND:VCARD\r\n'),
      ).getFirstPropertyValue('bday'),
    ).toThrow();
    expect(await refused({ ...card, vcard_birthday: 'March 3' })).toEqual(
      error('vcard_birthday', 'vcard_birthday must be a date as Y-m-d, such as 1815-12-10.'),
    );
    const res = await t.http
      .post('/v1/qr-codes')
      .set('Authorization', owner.auth)
      .field(card)
      .field('vcard_phone_number_label[]', 'work')
      .field('vcard_phone_number_value[]', '+44 20;ext=1');
    expect([res.status, res.body]).toEqual([
      400,
      error(
        'vcard_phone_number_value',
        'vcard_phone_number_value must be telephone numbers such as +44 20 7946 0000 (an international one that libphonenumber knows as valid), not "+44 20;ext=1".',
      ),
    ]);
  });

  it('refuses a control character in a vCard or event text with a 400 naming the field, never drops it', async () => {
    const card = { name: 'Card', type: 'vcard', vcard_first_name: 'Ada' };
    expect(await refused({ ...card, vcard_note: 'call\u0007me' })).toEqual(
      error(
        'vcard_note',
        'vcard_note cannot contain control characters other than line breaks and tabs.',
      ),
    );
    expect(await refused({ ...card, vcard_first_name: 'A\u001bda' })).toEqual(
      error(
        'vcard_first_name',
        'vcard_first_name cannot contain control characters other than line breaks and tabs.',
      ),
    );
    const event = { name: 'Event', type: 'event', event_start_datetime: '2026-05-01 10:00' };
    expect(await refused({ ...event, event: 'Launch', event_location: 'Hall\u001b B' })).toEqual(
      error(
        'event_location',
        'event_location cannot contain control characters other than line breaks and tabs.',
      ),
    );
  });

  it('marks non-ASCII text as UTF-8 (ECI 26): a decoder that assumes ISO-8859-1 reads it right', async () => {
    const data = await created({ name: 'Name', type: 'text', text: 'Müller' });
    expect(data.is_readable).toBe(true);
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
    const found = await readBarcodes(image as ImageData, {
      formats: ['QRCode'],
      characterSet: 'ISO8859_1',
    });
    expect(found.map((r) => [r.text, r.hasECI])).toEqual([['Müller', true]]);
  });
});
