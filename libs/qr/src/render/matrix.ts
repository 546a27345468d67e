import QRCode, { QRCodeSegment } from 'qrcode';
// The package's own table of alignment-pattern centres (ISO/IEC 18004 annex E).
import { getPositions } from 'qrcode/lib/core/alignment-pattern';
import { Ecc } from './options';

/** The modules of a code: `dark[r * size + c]`. */
export interface QrMatrix {
  size: number;
  dark: Uint8Array;
  version: number;
  /** 1 where a module belongs to a function pattern (finders, timing, alignment, format, version). */
  reserved: Uint8Array;
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

/** A standard fixes the level and the largest version, and the content needs a larger one. */
export class VersionTooLargeError extends Error {
  constructor(
    readonly ecc: Ecc,
    readonly version: number,
    readonly maxVersion: number,
  ) {
    super(`The content needs version ${version} at level ${ecc}; at most ${maxVersion} is allowed`);
    this.name = 'VersionTooLargeError';
  }
}

/**
 * A standard fixes the level, and the logo covers more codewords than that level can spare.
 * `largestSize` is the largest logo size (percent) that it can, or null when none can.
 */
export class LogoTooLargeError extends Error {
  constructor(
    readonly ecc: Ecc,
    readonly largestSize: number | null,
  ) {
    super(`The logo covers more than error correction ${ecc} can spare`);
    this.name = 'LogoTooLargeError';
  }
}

/** A segment as the `qrcode` package writes it: mode indicator, count field, then the data. */
interface RawSegment {
  mode: { id: string; bit: number; ccBits: number[] };
  getLength(): number;
  getBitsLength(): number;
  write(buffer: { put(value: number, bits: number): void }): void;
}

/**
 * Non-ASCII text as an ECI 26 (UTF-8) designator then one byte segment. Without the ECI a decoder
 * reads byte mode as ISO-8859-1 (ISO/IEC 18004) or guesses: `Müller` became `M羹ller`. The
 * `qrcode` package has no ECI mode, but writes any segment as mode bits, count, data: an ECI
 * header is mode 0111 with the assignment number (26 < 128: one byte, 0xxxxxxx) as its "count".
 * It builds its segment list with `reduce` over the array it is given, so an array whose reduce
 * returns these segments hands them over unchanged.
 */
function utf8Segments(data: string): QRCodeSegment[] {
  const bytes = Buffer.from(data, 'utf8');
  const segments: RawSegment[] = [
    {
      mode: { id: 'ECI', bit: 0b0111, ccBits: [8, 8, 8] },
      getLength: () => 26,
      getBitsLength: () => 0,
      write: () => undefined,
    },
    {
      mode: { id: 'Byte', bit: 0b0100, ccBits: [8, 16, 16] },
      getLength: () => bytes.length,
      getBitsLength: () => bytes.length * 8,
      write: (buffer) => bytes.forEach((b) => buffer.put(b, 8)),
    },
  ];
  return Object.assign([] as QRCodeSegment[], { reduce: () => segments });
}

/**
 * ASCII text goes in the segments the `qrcode` package picks (numeric, alphanumeric, byte);
 * anything else in byte mode behind a UTF-8 ECI. The smallest version that holds the content, or
 * exactly `version` (DataTooLongError when it does not hold it: the package checks before it
 * builds anything).
 */
export function createMatrix(data: string, ecc: Ecc, version?: number): QrMatrix {
  let qr: ReturnType<typeof QRCode.create>;
  try {
    qr = QRCode.create(/^\p{ASCII}*$/u.test(data) ? data : utf8Segments(data), {
      errorCorrectionLevel: ecc,
      ...(version ? { version } : {}),
    });
  } catch (e) {
    if (e instanceof Error && /too big|cannot contain/i.test(e.message)) {
      throw new DataTooLongError(ecc);
    }
    throw e;
  }
  return {
    size: qr.modules.size,
    dark: Uint8Array.from(qr.modules.data),
    version: qr.version,
    reserved: Uint8Array.from(qr.modules.reservedBit),
  };
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
