/**
 * Decimal numbers carried as strings. Amounts and coordinates never pass through a float: BIP 21,
 * EIP-681 and RFC 5870 want plain decimals (a float prints 0.00000001 as 1e-8), and wei must be
 * exact.
 */

const PLAIN = /^([+-]?)(\d+)(?:\.(\d+))?$/;
const EXPONENT = /^(-?)(\d+)(?:\.(\d+))?e([+-]\d+)$/;

/** A JSON number as a plain decimal: its shortest round-trip form, the exponent moved into digits. */
export function numberToDecimal(n: number): string | null {
  if (!Number.isFinite(n)) {
    return null;
  }
  const text = String(n);
  const m = EXPONENT.exec(text);
  if (!m) {
    return normalizeDecimal(text);
  }
  const [, sign, int, frac = '', exp] = m;
  const digits = int + frac;
  const point = int.length + Number(exp);
  const plain =
    point <= 0
      ? `0.${'0'.repeat(-point)}${digits}`
      : point >= digits.length
        ? digits + '0'.repeat(point - digits.length)
        : `${digits.slice(0, point)}.${digits.slice(point)}`;
  return normalizeDecimal(sign + plain);
}

/** `-0012.500` -> `-12.5`, `-0` -> `0`; null when the text is not a plain decimal. */
export function normalizeDecimal(text: string): string | null {
  const m = PLAIN.exec(text.trim());
  if (!m) {
    return null;
  }
  const int = m[2].replace(/^0+(?=\d)/, '');
  const frac = (m[3] ?? '').replace(/0+$/, '');
  const body = frac ? `${int}.${frac}` : int;
  return m[1] === '-' && /[1-9]/.test(body) ? `-${body}` : body;
}

/** Digits after the point of a normalized decimal. */
export function decimalPlaces(decimal: string): number {
  const point = decimal.indexOf('.');
  return point < 0 ? 0 : decimal.length - point - 1;
}

/** decimal × 10^places as an integer, or null when that is not a whole number. */
export function scaleDecimal(decimal: string, places: number): bigint | null {
  const normalized = normalizeDecimal(decimal);
  if (normalized === null || decimalPlaces(normalized) > places) {
    return null;
  }
  const negative = normalized.startsWith('-');
  const [int, frac = ''] = normalized.replace('-', '').split('.');
  const value = BigInt(int + frac.padEnd(places, '0'));
  return negative ? -value : value;
}

/** The decimal with exactly `places` digits after the point, or null if digits would be lost. */
export function fixedDecimal(decimal: string, places: number): string | null {
  const scaled = scaleDecimal(decimal, places);
  if (scaled === null) {
    return null;
  }
  const digits = (scaled < 0n ? -scaled : scaled).toString().padStart(places + 1, '0');
  const int = digits.slice(0, digits.length - places);
  const body = places > 0 ? `${int}.${digits.slice(-places)}` : int;
  return scaled < 0n ? `-${body}` : body;
}

/** Whether min <= decimal <= max, compared exactly. */
export function decimalInRange(decimal: string, min: string, max: string): boolean {
  const places = Math.max(
    ...[decimal, min, max].map((d) => decimalPlaces(normalizeDecimal(d) ?? '')),
  );
  const [v, lo, hi] = [decimal, min, max].map((d) => scaleDecimal(d, places));
  return v !== null && lo !== null && hi !== null && v >= lo && v <= hi;
}
