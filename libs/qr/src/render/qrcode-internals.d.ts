declare module 'qrcode/lib/core/alignment-pattern' {
  /** Row/column centres of the alignment patterns of a version. */
  export function getPositions(version: number): Array<[number, number]>;
}
