import { AppError } from '@app/common';
import { currencyExponent, formatMinor, parseAmount } from './money';

describe('money', () => {
  it.each([
    ['EUR', 2],
    ['USD', 2],
    ['JPY', 0],
    ['KRW', 0],
    ['KWD', 3],
    ['BHD', 3],
  ])('knows the minor unit of %s (%i decimals, ISO 4217)', (currency, digits) => {
    expect(currencyExponent(currency)).toBe(digits);
  });

  it('knows no made-up currency', () => {
    expect(currencyExponent('XYZ')).toBeNull();
    expect(currencyExponent('eu')).toBeNull();
  });

  it.each([
    ['19.99', 'EUR', 1999, '19.99'],
    ['19.9', 'EUR', 1990, '19.90'],
    ['0.01', 'USD', 1, '0.01'],
    ['500', 'JPY', 500, '500'],
    ['1.250', 'KWD', 1250, '1.250'],
    ['1', 'KWD', 1000, '1.000'],
    ['0.10', 'eur', 10, '0.10'],
    ['9999999999999.99', 'EUR', 999999999999999, '9999999999999.99'],
  ])('carries %s %s exactly: %i minor units, written back as %s', (text, currency, minor, back) => {
    expect(parseAmount(text, currency)).toBe(minor);
    expect(formatMinor(minor, currency)).toBe(back);
  });

  it.each([
    ['19.999', 'EUR'],
    ['1.5', 'JPY'],
    ['1e3', 'EUR'],
    ['-1', 'EUR'],
    ['1,00', 'EUR'],
    ['', 'EUR'],
    ['0x10', 'USD'],
  ])('refuses %j in %s', (text, currency) => {
    expect(() => parseAmount(text, currency)).toThrow(AppError);
  });

  it('refuses an unknown currency, naming the field', () => {
    try {
      parseAmount('1.00', 'ABC');
      throw new Error('no error');
    } catch (error) {
      expect(error).toBeInstanceOf(AppError);
      expect((error as AppError).problems).toEqual([
        { title: 'currency must be an ISO 4217 code such as EUR.', field: 'currency' },
      ]);
    }
  });
});
