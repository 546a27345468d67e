import {
  decimalInRange,
  fixedDecimal,
  normalizeDecimal,
  numberToDecimal,
  scaleDecimal,
} from './decimal';

describe('decimal strings', () => {
  it.each([
    [1e-8, '0.00000001'],
    [-5e-8, '-0.00000005'],
    [1.5e21, '1500000000000000000000'],
    [2.014, '2.014'],
    [0.1 + 0.2, '0.30000000000000004'],
    [-0, '0'],
    [12, '12'],
  ])('writes the JSON number %p as %p, without exponent', (n, text) => {
    expect(numberToDecimal(n)).toBe(text);
  });

  it('refuses NaN and infinities', () => {
    expect(numberToDecimal(Number.NaN)).toBeNull();
    expect(numberToDecimal(Infinity)).toBeNull();
  });

  it.each([
    ['0012.500', '12.5'],
    ['-0.000', '0'],
    ['+7', '7'],
    [' 0.00000001 ', '0.00000001'],
    ['1e-8', null],
    ['1,5', null],
    ['.5', null],
    ['', null],
  ])('normalizes %p to %p', (text, normalized) => {
    expect(normalizeDecimal(text)).toBe(normalized);
  });

  it('scales exactly, beyond what a float holds', () => {
    expect(scaleDecimal('1234567.891234567891234567', 18)).toBe(1234567891234567891234567n);
    expect(scaleDecimal('0.000000000000000001', 18)).toBe(1n);
    expect(scaleDecimal('0.0000000000000000001', 18)).toBeNull();
    expect(scaleDecimal('-2.5', 1)).toBe(-25n);
  });

  it('pads to fixed places and refuses to drop digits', () => {
    expect(fixedDecimal('12.5', 2)).toBe('12.50');
    expect(fixedDecimal('0.07', 2)).toBe('0.07');
    expect(fixedDecimal('12.500', 2)).toBe('12.50');
    expect(fixedDecimal('12.345', 2)).toBeNull();
    expect(fixedDecimal('-3', 2)).toBe('-3.00');
  });

  it('compares ranges exactly', () => {
    expect(decimalInRange('999999999.99', '0.01', '999999999.99')).toBe(true);
    expect(decimalInRange('999999999.990000001', '0.01', '999999999.99')).toBe(false);
    expect(decimalInRange('0.009', '0.01', '999999999.99')).toBe(false);
    expect(decimalInRange('-90', '-90', '90')).toBe(true);
    expect(decimalInRange('x', '-90', '90')).toBe(false);
  });
});
