import { readFileSync } from 'node:fs';
import { prepareZXingModule, readBarcodes } from 'zxing-wasm/reader';
import { codewords, worstBlockDamage } from './codewords';
import { encode, logoArea } from './layout';
import { createMatrix, DataTooLongError, QrMatrix } from './matrix';
import { matrixImage } from './plain-options';

const LOGO = { image: Buffer.alloc(0), size: 25 };
/** 245 bytes: version 11 at M, 14 at Q, 16 at H. */
const VCARD =
  'BEGIN:VCARD\r\nVERSION:3.0\r\nN:Lovelace;Ada;;;\r\nFN:Ada Lovelace\r\nORG:Analytical Engines\\, Ltd\r\n' +
  'TEL;TYPE=work:+44 20 7946 0000\r\nEMAIL;TYPE=INTERNET:ada@example.com\r\n' +
  'URL:https://example.com/people/ada-lovelace?ref=qr\r\nNOTE:First programmer\r\nEND:VCARD';

async function zxingReads(m: QrMatrix, flip: Set<number>): Promise<string | null> {
  const found = await readBarcodes(matrixImage(m, flip), { formats: ['QRCode'], tryInvert: false });
  return found.find((r) => r.isValid)?.text ?? null;
}

/** Every module of the first `count` codewords of `block` in each of `blocks`. */
function modulesOf(m: QrMatrix, ecc: 'L' | 'M' | 'Q' | 'H', blocks: number[], count: number) {
  const { codewordOf, blockOf } = codewords(m, ecc);
  const chosen = new Set<number>();
  for (const b of blocks) {
    blockOf
      .map((block, cw) => (block === b ? cw : -1))
      .filter((cw) => cw >= 0)
      .slice(0, count)
      .forEach((cw) => chosen.add(cw));
  }
  const out = new Set<number>();
  codewordOf.forEach((cw, at) => chosen.has(cw) && out.add(at));
  return out;
}

describe('codewords', () => {
  beforeAll(async () => {
    const bytes = readFileSync(require.resolve('zxing-wasm/reader/zxing_reader.wasm'));
    const wasmBinary = bytes.buffer.slice(bytes.byteOffset, bytes.byteOffset + bytes.byteLength);
    await prepareZXingModule({ overrides: { wasmBinary }, fireImmediately: true });
  });

  it('places 8 modules per codeword and leaves the remainder bits of ISO/IEC 18004 table 1', () => {
    // [version, total codewords, remainder bits] from tables 1 and 9.
    const table: Array<[string, number, number]> = [
      ['x', 26, 0],
      ['x'.repeat(30), 70, 7],
      ['x'.repeat(245), 581, 3],
    ];
    for (const [text, total, remainder] of table) {
      const m = createMatrix(text, 'Q');
      const { codewordOf, blockOf } = codewords(m, 'Q');
      const counts = new Array<number>(total).fill(0);
      let none = 0;
      codewordOf.forEach((cw, at) => {
        if (cw >= 0) {
          counts[cw]++;
        } else if (m.reserved[at] !== 1) {
          none++;
        }
      });
      expect({ codewords: blockOf.length, eight: counts.every((c) => c === 8), none }).toEqual({
        codewords: total,
        eight: true,
        none: remainder,
      });
    }
  });

  it('gives each block the correction of table 9, less the misdecode protection of small symbols', () => {
    const at = (text: string, ecc: 'L' | 'M' | 'Q' | 'H') => {
      const { blocks, correctable } = codewords(createMatrix(text, ecc), ecc);
      return [blocks, correctable];
    };
    expect(at('x', 'L')).toEqual([1, 2]); // 1-L: 7 EC codewords, p = 3
    expect(at('x', 'M')).toEqual([1, 4]); // 1-M: 10, p = 2
    expect(at('x'.repeat(30), 'Q')).toEqual([2, 9]); // 3-Q: 2 × (35, 17)
    expect(at(VCARD, 'Q')).toEqual([16, 10]); // 14-Q: 11 × (36, 16) + 5 × (37, 17)
  });

  // An independent decoder tells whether the codewords were attributed to the right blocks: as
  // many errors as a block corrects read back, one more in the same block does not.
  it('maps modules to the blocks that zxing-cpp corrects', async () => {
    const m = createMatrix(VCARD, 'Q');
    const { blocks, correctable } = codewords(m, 'Q');
    const all = Array.from({ length: blocks }, (_, b) => b);
    expect(await zxingReads(m, new Set())).toBe(VCARD);
    expect(await zxingReads(m, modulesOf(m, 'Q', all, correctable))).toBe(VCARD);
    expect(await zxingReads(m, modulesOf(m, 'Q', [3], correctable + 1))).toBeNull();
    expect(await zxingReads(m, modulesOf(m, 'Q', [blocks - 1], correctable + 1))).toBeNull();
  });

  it('counts the codewords under a logo in the block it hurts most', () => {
    const m = createMatrix(VCARD, 'Q');
    expect(worstBlockDamage(m, 'Q', () => false)).toEqual({ damaged: 0, correctable: 10 });
    expect(worstBlockDamage(m, 'Q', logoArea(m.size, 25).covers)).toEqual({
      damaged: 7,
      correctable: 10,
    });
    expect(worstBlockDamage(m, 'Q', logoArea(m.size, 35).covers).damaged).toBeGreaterThan(10);
  });
});

describe(encode.name, () => {
  const version = (data: string, ecc: 'L' | 'M' | 'Q' | 'H', logo: typeof LOGO | null) => {
    const { matrix, ecc: used } = encode({ data, ecc, logo });
    return `${used} ${matrix.version}`;
  };

  it('encodes at the level asked for without a logo', () => {
    expect(version(VCARD, 'M', null)).toBe('M 11');
    expect(version(VCARD, 'L', null)).toBe('L 10');
  });

  it('raises the level under a logo to Q when the logo takes at most 3/4 of every block of Q', () => {
    expect(version(VCARD, 'M', LOGO)).toBe('Q 14'); // 7 of 10
    expect(version(VCARD, 'M', { ...LOGO, size: 15 })).toBe('Q 14');
  });

  it('raises it to H when the logo would take more of Q, or when H costs no version', () => {
    expect(version(VCARD, 'M', { ...LOGO, size: 30 })).toBe('H 16'); // 9 of 10
    expect(version(VCARD, 'M', { ...LOGO, size: 35 })).toBe('H 16');
    expect(version('https://linkdock.test/m', 'M', LOGO)).toBe('H 3');
    expect(version(VCARD, 'H', { ...LOGO, size: 10 })).toBe('H 16');
  });

  it('takes content under a logo that only Q holds, and names the level that is too small', () => {
    // 1,600 bytes: more than version 40 holds at H (1,273), less than at Q (1,663).
    expect(version('x'.repeat(1600), 'M', LOGO)).toBe('Q 40');
    expect(() => version('x'.repeat(1600), 'M', { ...LOGO, size: 40 })).toThrow(
      new DataTooLongError('H'),
    );
    expect(() => version('x'.repeat(1700), 'M', LOGO)).toThrow(new DataTooLongError('Q'));
  });
});
