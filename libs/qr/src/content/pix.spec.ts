import { ContentError, crc16Ccitt, encodeContent, QrContentFields } from '.';

/**
 * Reads a BR Code back by the EMV QRCPS grammar: ID (2 digits), length (2 digits, a count of
 * bytes), value; the CRC of tag 63 over everything before its value. Returns the top-level tags
 * and those of template 26 and 62.
 */
function readBrCode(payload: string): Record<string, string> {
  expect(payload).toMatch(/^[\x20-\x7e]+$/);
  const bytes = Buffer.from(payload, 'ascii');
  const tags = (data: Buffer, prefix = ''): Record<string, string> => {
    const out: Record<string, string> = {};
    for (let i = 0; i < data.length;) {
      const id = data.subarray(i, i + 2).toString();
      const length = Number(data.subarray(i + 2, i + 4).toString());
      const value = data.subarray(i + 4, i + 4 + length);
      expect(value.length).toBe(length);
      out[prefix + id] = value.toString();
      if (!prefix && (id === '26' || id === '62')) {
        Object.assign(out, tags(value, `${id}-`));
      }
      i += 4 + length;
    }
    return out;
  };
  const out = tags(bytes);
  expect(crc16Ccitt(payload.slice(0, -4))).toBe(out['63']);
  return out;
}

const BASE = {
  pix_payee_key: '123e4567-e12b-12d1-a456-426655440000',
  pix_payee_name: 'Fulano de Tal',
  pix_city: 'BRASILIA',
} satisfies QrContentFields;

const pix = (fields: QrContentFields): string => encodeContent('pix', { ...BASE, ...fields });

describe('Pix BR Code', () => {
  it.each([
    ['an e-mail', 'loja@exemplo.com.br', 'loja@exemplo.com.br'],
    ['a phone number +55', '+55 61 91234-5678', '+5561912345678'],
    ['a CPF as printed', '529.982.247-25', '52998224725'],
    ['a CPF as digits', '52998224725', '52998224725'],
    ['a CNPJ as printed', '11.222.333/0001-81', '11222333000181'],
    [
      'a random key',
      '123e4567-e12b-12d1-a456-426655440000',
      '123e4567-e12b-12d1-a456-426655440000',
    ],
  ])('takes %s as the key', (_what, key, written) => {
    expect(readBrCode(pix({ pix_payee_key: key }))['26-01']).toBe(written);
  });

  it.each([
    ['hello world'],
    ['joão@exemplo.com.br'], // the count was of characters, not bytes
    ['529.982.247-24'], // check digit off
    ['111.111.111-11'],
    ['11.222.333/0001-80'],
    ['+49 30 1234567'], // not Brazilian
    ['123E4567-E12B-12D1-A456-426655440000'],
  ])('refuses the key %p', (key) => {
    expect(() => pix({ pix_payee_key: key })).toThrow(
      new ContentError(
        'pix_payee_key',
        'pix_payee_key must be a Pix key: an e-mail address in ASCII, a Brazilian phone number such as +55 61 91234 5678, a CPF or CNPJ with valid check digits, or a random key (a lower-case UUID)',
      ),
    );
  });

  it.each([
    ['pix_payee_name', '東京商店', '1 to 25', '59'],
    ['pix_payee_name', 'São Paulo Comércio', '1 to 25', '59'],
    ['pix_payee_name', 'x'.repeat(26), '1 to 25', '59'],
    ['pix_city', '東京', '1 to 15', '60'],
    ['pix_city', 'x'.repeat(16), '1 to 15', '60'],
    ['pix_description', 'Café', 'at most 99', '26-02'],
  ] as const)('refuses %s %p rather than strip or cut it', (field, value, range, tag) => {
    const max = range.replace(/.* /, '');
    expect(() => pix({ [field]: value })).toThrow(
      new ContentError(
        field,
        `${field} must be ${range.startsWith('1') ? `1 to ${max}` : `at most ${max}`} printable ASCII characters, without accents (BR Code tag ${tag})`,
      ),
    );
  });

  it('takes a name of 25 and a city of 15 characters as they are', () => {
    const tags = readBrCode(pix({ pix_payee_name: 'N'.repeat(25), pix_city: 'C'.repeat(15) }));
    expect([tags['59'], tags['60']]).toEqual(['N'.repeat(25), 'C'.repeat(15)]);
  });

  it('refuses a description that would make the account template longer than 99 bytes', () => {
    expect(() => pix({ pix_description: 'd'.repeat(60) })).toThrow(
      new ContentError(
        'pix_description',
        'pix_description makes BR Code field 26 122 bytes long; EMV QRCPS allows 99',
      ),
    );
  });

  it('writes the transaction id as given, and refuses one the manual does not allow', () => {
    expect(readBrCode(pix({ pix_transaction_id: 'Pedido42' }))['62-05']).toBe('Pedido42');
    expect(readBrCode(pix({}))['62-05']).toBe('***');
    expect(() => pix({ pix_transaction_id: 'pedido-42' })).toThrow(
      new ContentError(
        'pix_transaction_id',
        'pix_transaction_id must be 1 to 25 letters and digits (BR Code tag 62-05), or empty',
      ),
    );
  });

  it('writes an amount above 0 in tag 54', () => {
    expect(readBrCode(pix({ pix_amount: '10.5' }))['54']).toBe('10.50');
  });
});
