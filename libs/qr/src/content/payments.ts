import { ContentError, QrContentFields, required } from './fields';

/** Amounts as plain decimals, never in exponent form. */
const decimal = (v: number, digits?: number): string =>
  digits === undefined ? String(Number(v.toPrecision(15))) : v.toFixed(digits);

/** BIP 21 bitcoin:, EIP 681 ethereum: (value in wei), and the elrond: scheme with amount. */
export function encodeCrypto(f: QrContentFields): string {
  const coin = f.crypto_coin ?? 'bitcoin';
  const address = required(f, 'crypto_address');
  const amount = f.crypto_amount;
  if (amount === undefined) {
    return `${coin}:${address}`;
  }
  if (coin === 'ethereum') {
    return `ethereum:${address}?value=${decimal(amount)}e18`;
  }
  return `${coin}:${address}?amount=${decimal(amount)}`;
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
  if (f.paypal_price !== undefined) {
    params.set('amount', decimal(f.paypal_price, 2));
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
    ['am', f.upi_amount !== undefined ? decimal(f.upi_amount, 2) : undefined],
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
