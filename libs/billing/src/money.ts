import { AppError } from '@app/common';

const CURRENCY = /^[A-Z]{3}$/;
const exponents = new Map<string, number>();

/**
 * Digits after the decimal point of a currency's minor unit (ISO 4217: 2 for EUR, 0 for JPY, 3
 * for KWD), from the ICU data Node ships with; null for a code ICU does not know.
 */
export function currencyExponent(currency: string): number | null {
  const code = currency.toUpperCase();
  if (!CURRENCY.test(code)) return null;
  const known = exponents.get(code);
  if (known !== undefined) return known;
  if (!Intl.supportedValuesOf('currency').includes(code)) return null;
  const digits = new Intl.NumberFormat('en', {
    style: 'currency',
    currency: code,
  }).resolvedOptions().maximumFractionDigits;
  exponents.set(code, digits ?? 2);
  return digits ?? 2;
}

/** An amount in minor units written as the currency writes it: 1999 EUR -> "19.99", 500 JPY -> "500". */
export function formatMinor(minor: number, currency: string): string {
  const exponent = currencyExponent(currency) ?? 2;
  const sign = minor < 0 ? '-' : '';
  const digits = String(Math.abs(Math.trunc(minor))).padStart(exponent + 1, '0');
  if (exponent === 0) return `${sign}${digits}`;
  return `${sign}${digits.slice(0, -exponent)}.${digits.slice(-exponent)}`;
}

/**
 * A decimal string ("19.99", "500", "1.250") as whole minor units of `currency`, without floating
 * point. More decimals than the currency has is refused, as is anything but plain digits.
 */
export function parseAmount(amount: string, currency: string, field = 'amount'): number {
  const exponent = currencyExponent(currency);
  if (exponent === null) {
    throw new AppError(
      'validation_failed',
      'currency must be an ISO 4217 code such as EUR.',
      'currency',
    );
  }
  const match = /^(\d{1,13})(?:\.(\d+))?$/.exec(amount.trim());
  if (!match || (match[2] !== undefined && match[2].length > exponent)) {
    throw new AppError(
      'validation_failed',
      exponent === 0
        ? `${field} must be a whole number for ${currency.toUpperCase()}, such as 500.`
        : `${field} must be a decimal number with at most ${exponent} decimals for ${currency.toUpperCase()}, such as ${formatMinor(1999 * 10 ** (exponent - 2), currency)}.`,
      field,
    );
  }
  const fraction = (match[2] ?? '').padEnd(exponent, '0');
  return Number(`${match[1]}${fraction}`);
}
