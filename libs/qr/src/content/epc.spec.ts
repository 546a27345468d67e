import { createRequire } from 'node:module';
import type * as IbanTools from 'ibantools' with { 'resolution-mode': 'import' };
import { ContentError, encodeContent, QrContentFields } from '.';
import { encode } from '../render/layout';
import { createMatrix, LogoTooLargeError, VersionTooLargeError } from '../render/matrix';

const ibantools = createRequire(__filename)('ibantools') as typeof IbanTools;

/**
 * Reads a payload back by EPC069-12's table of elements (one per line, LF or CRLF, at most 331
 * bytes) and checks the account data with ibantools.
 */
function readEpc(payload: string) {
  expect(Buffer.byteLength(payload, 'utf8')).toBeLessThanOrEqual(331);
  const lines = payload.split(/\r?\n/);
  expect(lines.length).toBeGreaterThanOrEqual(7);
  expect(lines.length).toBeLessThanOrEqual(12);
  const [service, version, charset, id, bic, name, iban, amount = '', purpose = ''] = lines;
  const [reference = '', text = '', information = ''] = lines.slice(9);
  expect([service, version, charset, id]).toEqual(['BCD', '002', '1', 'SCT']);
  expect(bic === '' || ibantools.isValidBIC(bic)).toBe(true);
  expect(name.length).toBeGreaterThanOrEqual(1);
  expect(name.length).toBeLessThanOrEqual(70);
  expect(ibantools.isValidIBAN(iban)).toBe(true);
  expect(amount).toMatch(/^(EUR\d{1,9}(\.\d{1,2})?)?$/);
  expect(purpose).toMatch(/^[A-Z0-9]{0,4}$/);
  expect(reference.length).toBeLessThanOrEqual(35);
  expect(text.length).toBeLessThanOrEqual(140);
  expect(reference === '' || text === '').toBe(true);
  expect(information.length).toBeLessThanOrEqual(70);
  return { bic, name, iban, amount, reference, text, information };
}

function fieldOf(fields: QrContentFields): string | undefined {
  try {
    encodeContent('epc', fields);
  } catch (e) {
    return e instanceof ContentError ? `${e.field}: ${e.message}` : String(e);
  }
  return undefined;
}

const BASE = { epc_payee_name: 'Red Cross of Belgium', epc_iban: 'BE72 0000 0000 1616' };

describe('EPC069-12 payloads', () => {
  it('reads back element by element, the account valid for ibantools', () => {
    const payload = encodeContent('epc', {
      ...BASE,
      epc_bic: 'bpot beb1',
      epc_amount: '1234.5',
      epc_remittance_text: 'Urgency fund',
      information: 'Thank you',
    });
    expect(readEpc(payload)).toEqual({
      bic: 'BPOTBEB1',
      name: 'Red Cross of Belgium',
      iban: 'BE72000000001616',
      amount: 'EUR1234.50',
      reference: '',
      text: 'Urgency fund',
      information: 'Thank you',
    });
  });

  it.each([
    ['epc_payee_name', 'Mallory\nDE89370400440532013000'],
    ['epc_payee_name', 'Mallory\r\nx'],
    ['epc_remittance_text', 'Invoice 12\u2028DE89370400440532013000'],
    ['epc_remittance_reference', 'RF18\u0085539007547034'],
    ['information', 'tab\there'],
  ])('refuses a control character in %s rather than let it add a line', (field, value) => {
    expect(fieldOf({ ...BASE, [field]: value })).toBe(
      `${field}: ${field} cannot contain line breaks or other control characters`,
    );
  });

  it.each(['', ' ', '\u00a0 '])('refuses the payee name %p: element 6 is mandatory', (name) => {
    expect(fieldOf({ ...BASE, epc_payee_name: name })).toBe(
      'epc_payee_name: epc_payee_name is required for this type',
    );
  });

  it.each([
    'DE00 3704 0044 0532 0130 00',
    'DE89 3704 0044 0532 0130 01',
    'DE89370400440532013000\n',
  ])('refuses the IBAN %p, whose check digits ibantools refuses', (iban) => {
    expect(ibantools.isValidIBAN(iban.replace(/ /g, ''))).toBe(false);
    expect(fieldOf({ ...BASE, epc_iban: iban })).toBe(
      'epc_iban: epc_iban must be an IBAN with valid check digits, such as DE89 3704 0044 0532 0130 00',
    );
  });

  it('refuses an IBAN outside SEPA: a SEPA credit transfer cannot reach it', () => {
    const iban = 'BR1800360305000010009795493C1';
    expect(ibantools.isValidIBAN(iban)).toBe(true);
    expect(fieldOf({ ...BASE, epc_iban: iban })).toBe(
      'epc_iban: epc_iban must be an account in a SEPA country',
    );
  });

  // ISO 11649's own example RF18 5390 0754 7034; the check digits of the others were computed
  // apart, as one big integer (98 - int(digits of body + "RF00") % 97), not by the encoder's loop.
  it.each([
    ['RF18 5390 0754 7034', 'RF18539007547034'],
    ['rf18539007547034', 'RF18539007547034'],
    ['RF712348231', 'RF712348231'],
    ['RF95ABCDEFGHIJKLMNOPQRSTU', 'RF95ABCDEFGHIJKLMNOPQRSTU'],
    ['Invoice 2026-17', 'Invoice 2026-17'],
  ])('writes the remittance reference %p as %p', (reference, written) => {
    const payload = encodeContent('epc', { ...BASE, epc_remittance_reference: reference });
    expect(readEpc(payload).reference).toBe(written);
  });

  it.each([
    'RF19 5390 0754 7034',
    'RF18 5390 0754 7035',
    'RF18',
    'RF18-5390',
    'RF22ABCDEFGHIJKLMNOPQRSTUV',
  ])('refuses the creditor reference %p', (reference) => {
    expect(fieldOf({ ...BASE, epc_remittance_reference: reference })).toBe(
      'epc_remittance_reference: epc_remittance_reference starts with RF but is not an ISO 11649 creditor reference with valid check digits, such as RF18 5390 0754 7034',
    );
  });

  it.each(['BPOTBE', 'BPOTBEB1X', 'BPOT-BEB1', '1POTBEB1'])('refuses the BIC %p', (bic) => {
    expect(ibantools.isValidBIC(bic)).toBe(false);
    expect(fieldOf({ ...BASE, epc_bic: bic })).toBe(
      'epc_bic: epc_bic must be a BIC (ISO 9362): 4 letters for the bank, 2 for the country, 2 letters or digits for the location and optionally 3 for the branch, such as COBADEFFXXX',
    );
  });

  it.each([
    ['COBAXXFF', 'XX'],
    ['BPOTQQB1XXX', 'QQ'],
  ])('refuses the BIC %p of 8 or 11 characters by its country code', (bic, country) => {
    expect(ibantools.isValidBIC(bic)).toBe(false);
    expect(fieldOf({ ...BASE, epc_bic: bic })).toBe(
      `epc_bic: epc_bic ${bic} has ${country} where a BIC (ISO 9362) has the ISO 3166 code of its country, such as DE in COBADEFFXXX`,
    );
  });

  it.each(['12.345', '0.001', '0', '1000000000'])('refuses the amount %p', (amount) => {
    expect(fieldOf({ ...BASE, epc_amount: amount })).toBe(
      'epc_amount: epc_amount must be from 0.01 to 999999999.99 with at most 2 decimals',
    );
  });

  const LONG = {
    epc_iban: 'DE89370400440532013000',
    epc_bic: 'COBADEFFXXX',
    epc_amount: '999999999.99',
    information: 'i'.repeat(70),
  };
  // 15 + 12 + 70 + 23 + 16 + 1 (purpose) + 1 (reference) + 1 (separator) + 70 = 209 bytes.
  const FILL = 331 - 209;

  it('takes an ASCII payload of 331 bytes, which fits version 13 at level M', () => {
    const fields = {
      ...LONG,
      epc_payee_name: 'U'.repeat(70),
      epc_remittance_text: 't'.repeat(FILL),
    };
    const payload = encodeContent('epc', fields);
    expect(Buffer.byteLength(payload)).toBe(331);
    readEpc(payload);
    expect(createMatrix(payload, 'M').version).toBe(13);
    expect(fieldOf({ ...fields, epc_remittance_text: `${'t'.repeat(FILL)}t` })).toBe(
      'epc_remittance_text: The EPC payload is 332 bytes of UTF-8 and EPC069-12 allows 331: shorten epc_remittance_text',
    );
  });

  it('counts the ECI header of non-ASCII text: 330 bytes fit version 13, 331 would need 14', () => {
    const fields = { ...LONG, epc_payee_name: 'Ü'.repeat(35) }; // 70 bytes
    const payload = encodeContent('epc', { ...fields, epc_remittance_text: 't'.repeat(FILL - 1) });
    expect(Buffer.byteLength(payload)).toBe(330);
    readEpc(payload);
    expect(createMatrix(payload, 'M').version).toBe(13);
    // What the previous check let through: 331 bytes behind the UTF-8 ECI are version 14.
    expect(createMatrix(`${payload}t`, 'M').version).toBe(14);
    expect(fieldOf({ ...fields, epc_remittance_text: 't'.repeat(FILL) })).toBe(
      'epc_remittance_text: The EPC payload is 331 bytes of UTF-8 and EPC069-12 allows 330 (331 less the byte its UTF-8 marker takes in a version 13 code at level M): shorten epc_remittance_text',
    );
  });
});

describe('the EPC symbol (EPC069-12: level M, version 13 at most)', () => {
  const data = encodeContent('epc', BASE);
  const fixed = { maxVersion: 13 };

  it('stays at level M under a logo that M can spare; without the rule a logo raised it to Q', () => {
    const logo = { image: Buffer.alloc(0), size: 15 };
    expect(encode({ data, ecc: 'M', logo, fixedSymbol: fixed }).ecc).toBe('M');
    expect(encode({ data, ecc: 'M', logo }).ecc).toBe('Q');
  });

  it('refuses a logo M cannot spare, naming the largest size that fits', () => {
    const logo = { image: Buffer.alloc(0), size: 25 };
    expect(() => encode({ data, ecc: 'M', logo, fixedSymbol: fixed })).toThrow(LogoTooLargeError);
    try {
      encode({ data, ecc: 'M', logo, fixedSymbol: fixed });
    } catch (e) {
      const largest = (e as LogoTooLargeError).largestSize as number;
      expect(largest).toBeGreaterThanOrEqual(5);
      const fits = { image: Buffer.alloc(0), size: largest };
      expect(encode({ data, ecc: 'M', logo: fits, fixedSymbol: fixed }).ecc).toBe('M');
    }
  });

  it('refuses content that needs a version above 13', () => {
    expect(() =>
      encode({ data: `${data}${'x'.repeat(331)}`, ecc: 'M', logo: null, fixedSymbol: fixed }),
    ).toThrow(VersionTooLargeError);
  });
});
