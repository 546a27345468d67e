import { decimalPlaces, fixedDecimal, scaleDecimal } from './decimal';
import {
  ContentError,
  CRYPTO_COINS,
  decimalField,
  DecimalField,
  QrContentFields,
  required,
} from './fields';

/** Digits after the point each coin's amount can have: satoshis, wei, and EGLD's 18. */
const COIN_PLACES = { bitcoin: 8, ethereum: 18, elrond: 18 } as const;

/**
 * The addresses each scheme's grammar takes. BIP 21 `bitcoinaddress = *base58` (BIP 173 adds
 * bech32, letters and digits too) and `elrond:` erd1… bech32; EIP-681 `ethereum_address =
 * ( "0x" 40*HEXDIG ) / ENS_NAME`. Anything else, `?` or `&` above all, would change the URI's
 * parameters: `1Boat?amount=100` would ask for 100 BTC.
 */
const COIN_ADDRESSES = {
  bitcoin: { pattern: /^[A-Za-z0-9]{1,100}$/, example: 'bc1… or 1…, letters and digits' },
  elrond: { pattern: /^[A-Za-z0-9]{1,100}$/, example: 'erd1…, letters and digits' },
  ethereum: {
    pattern: /^(?:0x[0-9a-fA-F]{40}|(?:[a-z0-9](?:[a-z0-9-]*[a-z0-9])?\.)+[a-z]{2,})$/,
    example: '0x and 40 hex digits, or an ENS name such as vitalik.eth',
  },
} as const;

function cryptoAddress(f: QrContentFields, coin: (typeof CRYPTO_COINS)[number]): string {
  const address = required(f, 'crypto_address');
  const { pattern, example } = COIN_ADDRESSES[coin];
  if (!pattern.test(address)) {
    throw new ContentError(
      'crypto_address',
      `crypto_address must be a ${coin} address: ${example}`,
    );
  }
  return address;
}

/**
 * BIP 21 `bitcoin:` (amount in BTC, a plain decimal: `*digit [ "." *digit ]`), the `elrond:`
 * scheme of the same form, and EIP-681 `ethereum:` whose `value` is in wei: an integer, computed
 * exactly from the decimal string.
 */
export function encodeCrypto(f: QrContentFields): string {
  const coin = f.crypto_coin ?? 'bitcoin';
  const address = cryptoAddress(f, coin);
  const amount = decimalField(f, 'crypto_amount');
  if (amount === undefined) {
    return `${coin}:${address}`;
  }
  const places = COIN_PLACES[coin];
  if (amount.startsWith('-') || decimalPlaces(amount) > places) {
    throw new ContentError(
      'crypto_amount',
      `crypto_amount must be a positive ${coin} amount with at most ${places} decimals`,
    );
  }
  if (coin === 'ethereum') {
    return `ethereum:${address}?value=${String(scaleDecimal(amount, places))}`;
  }
  return `${coin}:${address}?amount=${amount}`;
}

/** A fiat amount with exactly two decimals; more digits are refused, never rounded away. */
export function fiatAmount(f: QrContentFields, key: DecimalField): string | undefined {
  const amount = decimalField(f, key);
  if (amount === undefined) {
    return undefined;
  }
  const fixed = fixedDecimal(amount, 2);
  if (fixed === null || fixed.startsWith('-')) {
    throw new ContentError(key, `${key} must be a positive amount with at most 2 decimals`);
  }
  return fixed;
}

const PAYPAL_COMMANDS = {
  buy_now: '_xclick',
  add_to_cart: '_cart',
  donation: '_donations',
} as const;

/** PayPal Payments Standard URL: _xclick, _cart (add=1) or _donations. */
export function encodePaypal(f: QrContentFields): string {
  const type = f.paypal_type ?? 'buy_now';
  const params = new URLSearchParams({ cmd: PAYPAL_COMMANDS[type] });
  if (type === 'add_to_cart') {
    params.set('add', '1');
  }
  params.set('business', required(f, 'paypal_email'));
  if (f.paypal_title) {
    params.set('item_name', f.paypal_title);
  }
  const price = fiatAmount(f, 'paypal_price');
  if (price !== undefined) {
    params.set('amount', price);
  }
  params.set('currency_code', (f.paypal_currency ?? 'USD').toUpperCase());
  if (f.paypal_thank_you_url) {
    params.set('return', f.paypal_thank_you_url);
  }
  if (f.paypal_cancel_url) {
    params.set('cancel_return', f.paypal_cancel_url);
  }
  return `https://www.paypal.com/cgi-bin/webscr?${params.toString().replace(/\+/g, '%20')}`;
}

/** UPI deep link (NPCI "UPI Linking Specs"): upi://pay with percent-encoded parameters. */
export function encodeUpi(f: QrContentFields): string {
  const params: Array<[string, string | undefined]> = [
    ['pa', required(f, 'upi_payee_id')],
    ['pn', required(f, 'upi_payee_name')],
    ['am', fiatAmount(f, 'upi_amount')],
    ['cu', 'INR'],
    ['tid', f.upi_transaction_id],
    ['tn', f.upi_transaction_note],
    ['tr', f.upi_transaction_reference],
    ['url', f.upi_thank_you_url],
  ];
  if (f.upi_currency && f.upi_currency !== 'INR') {
    throw new ContentError('upi_currency', 'upi_currency must be INR');
  }
  return `upi://pay?${params
    .filter((p): p is [string, string] => p[1] !== undefined && p[1] !== '')
    .map(([k, v]) => `${k}=${encodeURIComponent(v)}`)
    .join('&')}`;
}
