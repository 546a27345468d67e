import { execFileSync } from 'node:child_process';
import { ContentError, encodeContent, PAYPAL_CURRENCIES, QrContentFields } from '.';

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
/** EIP-55's own example, in its checksummed case. */
const ETH = '0xfB6916095ca1df60bB79Ce92cE3Ea74c37c5d359';
const ERD = 'erd1qyu5wthldzr8wx5c9ucg8kjagg0jfs53s8nr3zpz3hypefsdd8ssycr6th';

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
      crypto_address: ERD,
      crypto_amount: '0.0000001',
    });
    expect(uri).toBe(`elrond:${ERD}?amount=0.0000001`);
    expect(bip21Decode(uri, 'elrond')).toEqual({ address: ERD, options: { amount: 1e-7 } });
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
    // The address the tests used before, one letter's case off its EIP-55 checksum.
    ['ethereum', '0xfb6916095ca1df60bb79Ce92ce3ea74c37c5d359'],
    ['bitcoin', 'bc1qxyz'],
    ['elrond', 'erd1qqq'],
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

  // BIP 173 and BIP 350 test vectors (main network), Base58Check examples of the Bitcoin wiki.
  it.each([
    'BC1QW508D6QEJXTDG4Y5R3ZARVARY0C5XW7KV8F3T4',
    'bc1qrp33g0q5c5txsp9arysrx4k6zdkfs4nce4xj0gdcccefvpysxf3qccfmv3',
    'bc1p0xlxvlhemja6c4dqv22uapctqupfhlxm9h8z3k2e72q4k9hcz7vqzk5jj0',
    'bc1zw508d6qejxtdg4y5r3zarvaryvaxxpcs',
    '1BoatSLRHtKNngkdXEeobR76b53LETtpyT',
    '3J98t1WpEZ73CNmQviecrnyiWrnqRhWNLy',
  ])('takes the bitcoin address %p', (address) => {
    expect(crypto({ crypto_coin: 'bitcoin', crypto_address: address })).toBe(`bitcoin:${address}`);
  });

  it.each([
    ['a bech32 checksum with one letter off', 'bc1qw508d6qejxtdg4y5r3zarvary0c5xw7kv8f3t5'],
    [
      'witness v1 with a bech32 (not bech32m) checksum',
      'bc1p0xlxvlhemja6c4dqv22uapctqupfhlxm9h8z3k2e72q4k9hcz7vqh2y7hd',
    ],
    ['witness v0 with a bech32m checksum', 'bc1qw508d6qejxtdg4y5r3zarvary0c5xw7kemeawh'],
    ['mixed case', 'bc1qW508d6qejxtdg4y5r3zarvary0c5xw7kv8f3t4'],
    ['a testnet address', 'tb1qw508d6qejxtdg4y5r3zarvary0c5xw7kxpjzsx'],
    ['a Base58Check checksum with one letter off', '1BoatSLRHtKNngkdXEeobR76b53LETtpyU'],
  ])('refuses a bitcoin address with %s', (_why, address) => {
    expect(() => crypto({ crypto_coin: 'bitcoin', crypto_address: address })).toThrow(
      new ContentError(
        'crypto_address',
        'crypto_address must be a bitcoin address: a Base58Check address (1…, 3…) or a bech32/bech32m segwit address (bc1…) with a valid checksum',
      ),
    );
  });

  // EIP-55's test vectors, and the same addresses with one letter's case flipped.
  it.each([
    '0x5aAeb6053F3E94C9b9A09f33669435E7Ef1BeAed',
    '0xfB6916095ca1df60bB79Ce92cE3Ea74c37c5d359',
    '0xdbF03B407c01E7cD3CBea99509d93f8DDDC8C6FB',
    '0xD1220A0cf47c7B9Be7A2E6BA89F429762e7b9aDb',
    '0xd1220a0cf47c7b9be7a2e6ba89f429762e7b9adb',
  ])('takes the ethereum address %p', (address) => {
    expect(crypto({ crypto_coin: 'ethereum', crypto_address: address })).toBe(
      `ethereum:${address}`,
    );
  });

  it.each([
    '0x5aAeb6053F3E94C9b9A09f33669435E7Ef1BeAeD',
    '0xdbf03B407c01E7cD3CBea99509d93f8DDDC8C6FB',
  ])('refuses the ethereum address %p, off its EIP-55 checksum', (address) => {
    expect(() => crypto({ crypto_coin: 'ethereum', crypto_address: address })).toThrow(
      new ContentError(
        'crypto_address',
        'crypto_address must be an ethereum address: 0x and 40 hex digits (in mixed case only with a valid EIP-55 checksum), or an ENS name such as vitalik.eth',
      ),
    );
  });

  it('refuses an elrond address off its bech32 checksum', () => {
    expect(() => crypto({ crypto_coin: 'elrond', crypto_address: `${ERD.slice(0, -1)}x` })).toThrow(
      ContentError,
    );
  });

  it.each(['bitcoin', 'ethereum', 'elrond'] as const)('refuses a %s amount of 0', (coin) => {
    const address = { bitcoin: BTC, ethereum: ETH, elrond: ERD }[coin];
    expect(() =>
      crypto({ crypto_coin: coin, crypto_address: address, crypto_amount: '0' }),
    ).toThrow(ContentError);
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
        'upi_amount must be an amount above 0 with at most 2 decimals (leave it out to let the payer choose)',
      ),
    );
  });

  it.each([
    ['upi', { upi_payee_id: 'shop@upi', upi_payee_name: 'Shop', upi_amount: '0' }, 'upi_amount'],
    ['paypal', { paypal_email: 'shop@example.com', paypal_price: '0' }, 'paypal_price'],
    [
      'pix',
      {
        pix_payee_key: 'shop@example.com',
        pix_payee_name: 'Loja',
        pix_city: 'Recife',
        pix_amount: '0',
      },
      'pix_amount',
    ],
  ] as const)('refuses a %s amount of 0', (type, fields, field) => {
    expect(() => encodeContent(type, fields)).toThrow(
      new ContentError(
        field,
        `${field} must be an amount above 0 with at most 2 decimals (leave it out to let the payer choose)`,
      ),
    );
  });
});

describe('PayPal', () => {
  const base = { paypal_email: 'shop@example.com' };

  it('takes the currencies PayPal lists, each an ISO 4217 code that Intl knows', () => {
    const iso4217 = new Set(Intl.supportedValuesOf('currency'));
    for (const currency of PAYPAL_CURRENCIES) {
      expect(iso4217.has(currency)).toBe(true);
      expect(encodeContent('paypal', { ...base, paypal_currency: currency })).toContain(
        `currency_code=${currency}`,
      );
    }
  });

  it.each(['XYZ', 'BTC', 'INR', 'EURO'])('refuses the currency %p', (paypal_currency) => {
    expect(() => encodeContent('paypal', { ...base, paypal_currency })).toThrow(ContentError);
  });

  it('writes a yen amount without decimals and refuses a fraction of a yen', () => {
    const jpy = { ...base, paypal_currency: 'JPY' };
    expect(encodeContent('paypal', { ...jpy, paypal_price: '1500' })).toContain('amount=1500&');
    expect(() => encodeContent('paypal', { ...jpy, paypal_price: '1500.5' })).toThrow(
      new ContentError(
        'paypal_price',
        'paypal_price must be a whole amount above 0 in this currency, which has no decimals',
      ),
    );
  });

  it('takes a merchant ID as the business, and refuses what is neither that nor an e-mail', () => {
    expect(encodeContent('paypal', { paypal_email: 'C6MSFGX8GLQZE' })).toContain(
      'business=C6MSFGX8GLQZE',
    );
    expect(() => encodeContent('paypal', { paypal_email: 'my shop' })).toThrow(
      new ContentError(
        'paypal_email',
        'paypal_email must be the e-mail address of a PayPal account or its merchant ID (13 capital letters and digits)',
      ),
    );
  });
});

describe('return URLs', () => {
  const paypal = { paypal_email: 'shop@example.com' };
  const upi = { upi_payee_id: 'shop@ybl', upi_payee_name: 'Shop' };

  it('carries an http(s) return URL as sent', () => {
    const uri = new URL(
      encodeContent('paypal', {
        ...paypal,
        paypal_thank_you_url: 'https://shop.example/thanks?o=1',
        paypal_cancel_url: 'http://shop.example/cancel',
      }),
    );
    expect(uri.searchParams.get('return')).toBe('https://shop.example/thanks?o=1');
    expect(uri.searchParams.get('cancel_return')).toBe('http://shop.example/cancel');
    const upiUri = encodeContent('upi', { ...upi, upi_thank_you_url: 'https://shop.example/ok' });
    expect(new URL(upiUri).searchParams.get('url')).toBe('https://shop.example/ok');
  });

  it.each([
    ['paypal', 'paypal_thank_you_url'],
    ['paypal', 'paypal_cancel_url'],
    ['upi', 'upi_thank_you_url'],
  ] as const)('refuses a %s %s that is no http(s) URL', (type, field) => {
    const base = type === 'paypal' ? paypal : upi;
    for (const value of [
      'javascript:alert(1)',
      'shop.example/thanks',
      'ftp://shop.example/',
      'https://user:pw@shop.example/',
    ]) {
      expect(() => encodeContent(type, { ...base, [field]: value })).toThrow(
        new ContentError(
          field,
          `${field} must be an http:// or https:// URL with a host, such as https://example.com/thanks`,
        ),
      );
    }
  });
});

describe('UPI', () => {
  it.each(['shop.name@okhdfcbank', 'a_b-9@ybl', '9876543210@paytm'])('takes the VPA %p', (vpa) => {
    const uri = encodeContent('upi', { upi_payee_id: vpa, upi_payee_name: 'Shop' });
    expect(new URL(uri).searchParams.get('pa')).toBe(vpa);
  });

  it.each(['shop', 'shop@', '@ybl', 'shop@ok hdfc', 'shop@bank1', 'a@b', 'shop@upi?x=1'])(
    'refuses the VPA %p',
    (vpa) => {
      expect(() => encodeContent('upi', { upi_payee_id: vpa, upi_payee_name: 'Shop' })).toThrow(
        new ContentError(
          'upi_payee_id',
          'upi_payee_id must be a UPI address (VPA) such as shop.name@okhdfcbank: letters, digits, . - _ then @ and the letters of the bank handle',
        ),
      );
    },
  );
});
