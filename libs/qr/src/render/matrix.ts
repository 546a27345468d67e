import QRCode from 'qrcode';
// The package's own table of alignment-pattern centres (ISO/IEC 18004 annex E).
import { getPositions } from 'qrcode/lib/core/alignment-pattern';
import { Ecc } from './options';

/** The modules of a code: `dark[r * size + c]`. */
export interface QrMatrix {
  size: number;
  dark: Uint8Array;
  version: number;
}

const ECC_ORDER: readonly Ecc[] = ['L', 'M', 'Q', 'H'];

/** The higher of two error-correction levels. */
export function maxEcc(a: Ecc, b: Ecc): Ecc {
  return ECC_ORDER.indexOf(a) >= ECC_ORDER.indexOf(b) ? a : b;
}

/** The content does not fit in a version 40 symbol at this error-correction level. */
export class DataTooLongError extends Error {
  constructor(readonly ecc: Ecc) {
    super(`The content is too long for a QR code with error correction ${ecc}`);
    this.name = 'DataTooLongError';
  }
}

/** Byte mode keeps the string's UTF-8 bytes exactly; the `qrcode` package picks the segments. */
export function createMatrix(data: string, ecc: Ecc): QrMatrix {
  let qr: ReturnType<typeof QRCode.create>;
  try {
    qr = QRCode.create(data, { errorCorrectionLevel: ecc });
  } catch (e) {
    if (e instanceof Error && /too big/i.test(e.message)) {
      throw new DataTooLongError(ecc);
    }
    throw e;
  }
  return { size: qr.modules.size, dark: Uint8Array.from(qr.modules.data), version: qr.version };
}

/** Whether (row, col) lies in one of the three 7×7 finder patterns. */
export function inFinder(size: number, row: number, col: number): boolean {
  const near = (v: number): boolean => v < 7;
  const far = (v: number): boolean => v >= size - 7;
  return (near(row) && near(col)) || (near(row) && far(col)) || (far(row) && near(col));
}

/** Top-left corners of the three finder patterns, in modules. */
export function finderOrigins(size: number): Array<[number, number]> {
  return [
    [0, 0],
    [size - 7, 0],
    [0, size - 7],
  ];
}

/** A mask of the 5×5 alignment patterns: drawn solid in every style, like the finders. */
export function alignmentMask(version: number, size: number): Uint8Array {
  const mask = new Uint8Array(size * size);
  for (const [row, col] of getPositions(version)) {
    for (let r = row - 2; r <= row + 2; r++) {
      for (let c = col - 2; c <= col + 2; c++) {
        mask[r * size + c] = 1;
      }
    }
  }
  return mask;
}
