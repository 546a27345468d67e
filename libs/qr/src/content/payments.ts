import { isEmailAddress, isHttpUrl } from '@app/common';
import { isBitcoinAddress, isElrondAddress, isEthereumAddress } from './addresses';
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

/** An ENS name (EIP-137), which EIP-681 takes in place of an address. */
const ENS_NAME = /^(?:[a-z0-9](?:[a-z0-9-]*[a-z0-9])?\.)+[a-z]{2,}$/;

/**
 * The addresses each coin takes, checked by their checksums: Base58Check (legacy bitcoin),
 * bech32/bech32m (BIP 173/350: bitcoin segwit, elrond erd1…), EIP-55 (mixed-case ethereum). A
 * mistyped address sends money nowhere; one with `?` or `&` would also change the URI's
 * parameters (`1Boat?amount=100` would ask for 100 BTC).
 */
const COIN_ADDRESSES = {
  bitcoin: {
    valid: isBitcoinAddress,
    example:
      'a Base58Check address (1…, 3…) or a bech32/bech32m segwit address (bc1…) with a valid checksum',
  },
  elrond: { valid: isElrondAddress, example: 'a bech32 address erd1… with a valid checksum' },
  ethereum: {
    valid: (a: string) => isEthereumAddress(a) || ENS_NAME.test(a),
    example:
      '0x and 40 hex digits (in mixed case only with a valid EIP-55 checksum), or an ENS name such as vitalik.eth',
  },
} as const;

function cryptoAddress(f: QrContentFields, coin: (typeof CRYPTO_COINS)[number]): string {
  const address = required(f, 'crypto_address');
  const { valid, example } = COIN_ADDRESSES[coin];
  if (!valid(address)) {
    throw new ContentError(
      'crypto_address',
      `crypto_address must be ${coin === 'bitcoin' ? 'a' : 'an'} ${coin} address: ${example}`,
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
  if (amount.startsWith('-') || amount === '0' || decimalPlaces(amount) > places) {
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

/**
 * A fiat amount above zero with exactly `places` decimals (2, or 0 for a currency without minor
 * units); more digits are refused, never rounded away. A zero amount asks for nothing: to let the
 * payer choose, leave the amount out.
 */
export function fiatAmount(f: QrContentFields, key: DecimalField, places = 2): string | undefined {
  const amount = decimalField(f, key);
  if (amount === undefined) {
    return undefined;
  }
  const fixed = fixedDecimal(amount, places);
  if (fixed === null || fixed.startsWith('-') || amount === '0') {
    throw new ContentError(
      key,
      places === 0
        ? `${key} must be a whole amount above 0 in this currency, which has no decimals`
        : `${key} must be an amount above 0 with at most ${places} decimals (leave it out to let the payer choose)`,
    );
  }
  return fixed;
}

const PAYPAL_COMMANDS = {
  buy_now: '_xclick',
  add_to_cart: '_cart',
  donation: '_donations',
} as const;

/**
 * The currencies PayPal takes (developer.paypal.com, "Currency codes"), each an ISO 4217 code;
 * HUF, JPY and TWD without decimals.
 */
export const PAYPAL_CURRENCIES = [
  'AUD',
  'BRL',
  'CAD',
  'CNY',
  'CZK',
  'DKK',
  'EUR',
  'HKD',
  'HUF',
  'ILS',
  'JPY',
  'MYR',
  'MXN',
  'TWD',
  'NZD',
  'NOK',
  'PHP',
  'PLN',
  'GBP',
  'SGD',
  'SEK',
  'CHF',
  'THB',
  'USD',
] as const;
const WHOLE_CURRENCIES = new Set(['HUF', 'JPY', 'TWD']);

/** A PayPal account's e-mail address or its 13-character merchant ID. */
function paypalBusiness(f: QrContentFields): string {
  const value = required(f, 'paypal_email');
  if (!isEmailAddress(value) && !/^[A-Z0-9]{13}$/.test(value)) {
    throw new ContentError(
      'paypal_email',
      'paypal_email must be the e-mail address of a PayPal account or its merchant ID (13 capital letters and digits)',
    );
  }
  return value;
}

function paypalCurrency(f: QrContentFields): string {
  const value = (f.paypal_currency || 'USD').toUpperCase();
  if (!(PAYPAL_CURRENCIES as readonly string[]).includes(value)) {
    throw new ContentError(
      'paypal_currency',
      `paypal_currency must be one of the ISO 4217 codes PayPal takes: ${PAYPAL_CURRENCIES.join(', ')}`,
    );
  }
  return value;
}

/**
 * A page the payer is sent back to: an http(s) URL by the shared rule (`isHttpUrl`), carried as
 * sent; anything else is refused naming the field rather than put in the code.
 */
function returnUrl(
  f: QrContentFields,
  field: 'paypal_thank_you_url' | 'paypal_cancel_url' | 'upi_thank_you_url',
): string | undefined {
  const value = f[field];
  if (value === undefined || value === '') {
    return undefined;
  }
  if (!isHttpUrl(value)) {
    throw new ContentError(
      field,
      `${field} must be an http:// or https:// URL with a host, such as https://example.com/thanks`,
    );
  }
  return value;
}

/** PayPal Payments Standard URL: _xclick, _cart (add=1) or _donations. */
export function encodePaypal(f: QrContentFields): string {
  const type = f.paypal_type ?? 'buy_now';
  const params = new URLSearchParams({ cmd: PAYPAL_COMMANDS[type] });
  if (type === 'add_to_cart') {
    params.set('add', '1');
  }
  params.set('business', paypalBusiness(f));
  if (f.paypal_title) {
    params.set('item_name', f.paypal_title);
  }
  const currency = paypalCurrency(f);
  const price = fiatAmount(f, 'paypal_price', WHOLE_CURRENCIES.has(currency) ? 0 : 2);
  if (price !== undefined) {
    params.set('amount', price);
  }
  params.set('currency_code', currency);
  const thanks = returnUrl(f, 'paypal_thank_you_url');
  if (thanks !== undefined) {
    params.set('return', thanks);
  }
  const cancel = returnUrl(f, 'paypal_cancel_url');
  if (cancel !== undefined) {
    params.set('cancel_return', cancel);
  }
  return `https://www.paypal.com/cgi-bin/webscr?${params.toString().replace(/\+/g, '%20')}`;
}

/** NPCI's VPA (virtual payment address): a handle and the payment service provider's name. */
const VPA = /^[A-Za-z0-9._-]{2,256}@[A-Za-z]{2,64}$/;

function vpa(f: QrContentFields): string {
  const value = required(f, 'upi_payee_id');
  if (!VPA.test(value)) {
    throw new ContentError(
      'upi_payee_id',
      'upi_payee_id must be a UPI address (VPA) such as shop.name@okhdfcbank: letters, digits, . - _ then @ and the letters of the bank handle',
    );
  }
  return value;
}

/** UPI deep link (NPCI "UPI Linking Specs"): upi://pay with percent-encoded parameters. */
export function encodeUpi(f: QrContentFields): string {
  const params: Array<[string, string | undefined]> = [
    ['pa', vpa(f)],
    ['pn', required(f, 'upi_payee_name')],
    ['am', fiatAmount(f, 'upi_amount')],
    ['cu', 'INR'],
    ['tid', f.upi_transaction_id],
    ['tn', f.upi_transaction_note],
    ['tr', f.upi_transaction_reference],
    ['url', returnUrl(f, 'upi_thank_you_url')],
  ];
  if (f.upi_currency && f.upi_currency !== 'INR') {
    throw new ContentError('upi_currency', 'upi_currency must be INR');
  }
  return `upi://pay?${params
    .filter((p): p is [string, string] => p[1] !== undefined && p[1] !== '')
    .map(([k, v]) => `${k}=${encodeURIComponent(v)}`)
    .join('&')}`;
}
