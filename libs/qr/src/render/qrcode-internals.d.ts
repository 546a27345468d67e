declare module 'qrcode/lib/core/alignment-pattern' {
  /** Row/column centres of the alignment patterns of a version. */
  export function getPositions(version: number): Array<[number, number]>;
}

declare module 'qrcode/lib/core/error-correction-level' {
  /** The package's level objects, compared by identity in its tables. */
  export function from(value: string): unknown;
}

declare module 'qrcode/lib/core/error-correction-code' {
  /** Reed-Solomon blocks of a version at a level (ISO/IEC 18004 table 9). */
  export function getBlocksCount(version: number, level: unknown): number;
  /** Error-correction codewords of all blocks together. */
  export function getTotalCodewordsCount(version: number, level: unknown): number;
}

declare module 'qrcode/lib/core/utils' {
  /** Data and error-correction codewords of a version, all blocks together. */
  export function getSymbolTotalCodewords(version: number): number;
}
