import { execFileSync } from 'node:child_process';
import { ContentError, encodeContent, QrContentFields } from '.';

/**
 * bitcoinjs' bip21 `decode`. It requires an ES module (query-string) that jest's module system
 * cannot load, so it runs in a plain Node process.
 */
function bip21Decode(uri: string, scheme = 'bitcoin'): unknown {
  const script = `const [uri, scheme] = JSON.parse(process.argv[1]);
    process.stdout.write(JSON.stringify(require('bip21').decode(uri, scheme)));`;
  const out = execFileSync(process.execPath, ['-e', script, JSON.stringify([uri, scheme])], {
    cwd: __dirname,
    encoding: 'utf8',
    stdio: ['ignore', 'pipe', 'ignore'],
  });
  return JSON.parse(out);
}

/** BIP 21: `amountparam = "amount=" *digit [ "." *digit ]`, in BTC. */
const BIP21_AMOUNT = /[?&]amount=(\d*(?:\.\d*)?)(?:&|$)/;

/**
 * EIP-681 `number = [ "-" / "+" ] *DIGIT [ "." 1*DIGIT ] [ ( "e" / "E" ) [ 1*DIGIT ] ]`, and for
 * `value` (in wei) "only integer numbers are allowed, so the exponent MUST be greater or equal to
 * the number of decimals after the point". Returns the value in wei, or null if the text breaks
 * the grammar or that rule.
 */
function eip681Value(uri: string): bigint | null {
  const m = /^ethereum:(?:pay-)?0x[0-9a-fA-F]{40}(?:@\d+)?\?value=([^&]*)$/.exec(uri);
  const n = m ? /^([+-]?)(\d*)(?:\.(\d+))?(?:[eE](\d*))?$/.exec(m[1]) : null;
  if (!n || (n[2] === '' && n[3] === undefined)) {
    return null;
  }
  const [, sign, int, frac = '', exp = ''] = n;
  const shift = Number(exp || 0);
  if (frac.length > shift) {
    return null;
  }
  const wei = BigInt(int + frac + '0'.repeat(shift - frac.length));
  return sign === '-' ? -wei : wei;
}

const crypto = (fields: QrContentFields): string => encodeContent('crypto', fields);
const BTC = '1BoatSLRHtKNngkdXEeobR76b53LETtpyT';
const ETH = '0xfb6916095ca1df60bb79Ce92ce3ea74c37c5d359';

describe('crypto payment URIs', () => {
  it.each([
    ['0.00000001', 0.00000001],
    ['21000000', 21000000],
    ['0.1', 0.1],
    ['1234.5678', 1234.5678],
  ])('writes %p BTC as a BIP 21 amount that bip21 decodes', (amount, value) => {
    const uri = crypto({ crypto_coin: 'bitcoin', crypto_address: BTC, crypto_amount: amount });
    expect(BIP21_AMOUNT.exec(uri)?.[1]).toBe(amount);
    expect(bip21Decode(uri)).toEqual({ address: BTC, options: { amount: value } });
  });

  it('writes elrond amounts in the same form', () => {
    const uri = crypto({
      crypto_coin: 'elrond',
      crypto_address: 'erd1qqq',
      crypto_amount: '0.0000001',
    });
    expect(uri).toBe('elrond:erd1qqq?amount=0.0000001');
    expect(bip21Decode(uri, 'elrond')).toEqual({ address: 'erd1qqq', options: { amount: 1e-7 } });
  });

  it('refuses a bitcoin amount below one satoshi', () => {
    expect(() => crypto({ crypto_address: BTC, crypto_amount: '0.000000001' })).toThrow(
      new ContentError(
        'crypto_amount',
        'crypto_amount must be a positive bitcoin amount with at most 8 decimals',
      ),
    );
  });

  it.each([
    ['0.0000001', 100000000000n],
    ['2.014', 2014000000000000000n],
    ['0.000000000000000001', 1n],
    ['1234567.891234567891234567', 1234567891234567891234567n],
  ])('writes %p ETH as an EIP-681 value in wei, exactly', (amount, wei) => {
    const uri = crypto({ crypto_coin: 'ethereum', crypto_address: ETH, crypto_amount: amount });
    expect(uri).toBe(`ethereum:${ETH}?value=${wei}`);
    expect(eip681Value(uri)).toBe(wei);
  });

  it('checks the EIP-681 grammar it tests with', () => {
    expect(eip681Value(`ethereum:${ETH}?value=2.014e18`)).toBe(2014000000000000000n);
    expect(eip681Value(`ethereum:${ETH}?value=1e-7e18`)).toBeNull();
    expect(eip681Value(`ethereum:${ETH}?value=1.5`)).toBeNull();
  });

  it('refuses an ether amount below one wei', () => {
    expect(() =>
      crypto({
        crypto_coin: 'ethereum',
        crypto_address: ETH,
        crypto_amount: '0.0000000000000000001',
      }),
    ).toThrow(ContentError);
  });
});

describe('crypto addresses', () => {
  it('checks that bip21 reads an address with ? as a request for another amount', () => {
    // What `crypto_address: '…?amount=100&x'` with `crypto_amount: '0.1'` used to encode.
    expect(bip21Decode(`bitcoin:${BTC}?amount=100&x?amount=0.1`)).toEqual({
      address: BTC,
      options: { amount: 100, 'x?amount': '0.1' },
    });
  });

  it.each([
    ['bitcoin', `${BTC}?amount=100&x`],
    ['bitcoin', 'bc1q xyz'],
    ['bitcoin', 'bc1q&label=Refund'],
    ['elrond', 'erd1qqq?amount=5'],
    ['ethereum', `${ETH}?value=1`],
    ['ethereum', '0xfb6916095ca1df60bb79Ce92ce3ea74c37c5d35'],
    ['ethereum', 'vitalik'],
  ] as const)('refuses the %s address %p, outside its URI grammar', (coin, address) => {
    expect(() =>
      crypto({ crypto_coin: coin, crypto_address: address, crypto_amount: '0.1' }),
    ).toThrow(ContentError);
    try {
      crypto({ crypto_coin: coin, crypto_address: address, crypto_amount: '0.1' });
    } catch (e) {
      expect((e as ContentError).field).toBe('crypto_address');
    }
  });

  it.each([
    ['bitcoin', 'bc1qar0srrr7xfkvy5l643lydnw9re59gtzzwf5mdq'],
    ['bitcoin', BTC],
  ] as const)('keeps the %s address %p, which bip21 reads back', (coin, address) => {
    expect(bip21Decode(crypto({ crypto_coin: coin, crypto_address: address }))).toEqual({
      address,
      options: {},
    });
  });

  it('takes an ENS name as an EIP-681 target address', () => {
    expect(
      crypto({ crypto_coin: 'ethereum', crypto_address: 'vitalik.eth', crypto_amount: '1' }),
    ).toBe('ethereum:vitalik.eth?value=1000000000000000000');
  });
});

describe('fiat amounts', () => {
  it('writes exactly two decimals and refuses a third rather than round it', () => {
    const fields = { upi_payee_id: 'shop@upi', upi_payee_name: 'Shop' };
    expect(encodeContent('upi', { ...fields, upi_amount: '0.1' })).toContain('&am=0.10&');
    expect(() => encodeContent('upi', { ...fields, upi_amount: '0.105' })).toThrow(
      new ContentError(
        'upi_amount',
        'upi_amount must be a positive amount with at most 2 decimals',
      ),
    );
  });
});
