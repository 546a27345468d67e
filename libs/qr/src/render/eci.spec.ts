import { readFileSync } from 'node:fs';
import jsQR from 'jsqr';
import QRCode from 'qrcode';
import { prepareZXingModule, readBarcodes, ReaderOptions } from 'zxing-wasm/reader';
import { createMatrix, QrMatrix } from './matrix';
import { matrixImage } from './plain-options';

/** zxing-cpp, told which character set to assume where a code has no ECI. */
async function zxing(m: QrMatrix, characterSet: ReaderOptions['characterSet']) {
  const found = await readBarcodes(matrixImage(m), {
    formats: ['QRCode'],
    characterSet,
  });
  expect(found).toHaveLength(1);
  return { text: found[0].text, hasECI: found[0].hasECI };
}

describe('createMatrix and the UTF-8 ECI', () => {
  beforeAll(async () => {
    const bytes = readFileSync(require.resolve('zxing-wasm/reader/zxing_reader.wasm'));
    const wasmBinary = bytes.buffer.slice(bytes.byteOffset, bytes.byteOffset + bytes.byteLength);
    await prepareZXingModule({ overrides: { wasmBinary }, fireImmediately: true });
  });

  // ISO/IEC 18004 reads byte mode without an ECI as ISO-8859-1; other decoders guess (Big5 makes
  // the `M羹ller` of the issue). With ECI 26 every one of them must read UTF-8.
  it.each(['ISO8859_1', 'Big5', 'Shift_JIS'] as const)(
    'marks non-ASCII text as UTF-8, so a decoder that assumes %s without ECI reads it right',
    async (characterSet) => {
      for (const text of ['Müller', 'Zoë & Chloé: 12 €', 'Привет, 世界 👋']) {
        expect(await zxing(createMatrix(text, 'M'), characterSet)).toEqual({
          text,
          hasECI: true,
        });
      }
    },
  );

  it('writes the ECI designator 26 before one byte segment (jsQR lists the chunks it read)', () => {
    const m = matrixImage(createMatrix('Müller', 'M'));
    const read = jsQR(m.data, m.width, m.height);
    expect(read?.data).toBe('Müller');
    expect(read?.chunks).toEqual([
      { type: 'eci', assignmentNumber: 26 },
      { type: 'byte', bytes: [...Buffer.from('Müller')], text: 'Müller' },
    ]);
  });

  it('leaves ASCII text without ECI, in the segments the qrcode package picks', async () => {
    const text = 'https://example.com/menu?table=12';
    const m = createMatrix(text, 'M');
    expect(m.dark).toEqual(
      Uint8Array.from(QRCode.create(text, { errorCorrectionLevel: 'M' }).modules.data),
    );
    expect(await zxing(m, 'ISO8859_1')).toEqual({ text, hasECI: false });
  });

  it('still fills a version 40 symbol and refuses one byte more', () => {
    // Version 40-L has 2956 data codewords: 12 bits of ECI header, 4 of mode and 16 of count
    // leave 2952 bytes.
    const fits = 'é'.repeat(1476);
    expect(createMatrix(fits, 'L').version).toBe(40);
    expect(() => createMatrix(`${fits}x`, 'L')).toThrow('too long');
  });
});
