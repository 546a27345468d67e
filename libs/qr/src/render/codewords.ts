import { getBlocksCount, getTotalCodewordsCount } from 'qrcode/lib/core/error-correction-code';
import { from as eccLevel } from 'qrcode/lib/core/error-correction-level';
import { getSymbolTotalCodewords } from 'qrcode/lib/core/utils';
import { QrMatrix } from './matrix';
import { Ecc } from './options';

/**
 * Misdecode-protection codewords (ISO/IEC 18004 table 9, note "p"): the smallest symbols keep
 * these out of the correction, so a block corrects (ec − p) / 2 codewords, not ec / 2.
 */
const PROTECTION: Record<string, number> = { '1L': 3, '1M': 2, '1Q': 1, '1H': 1, '2L': 2, '3L': 1 };

export interface Codewords {
  /** For each module (r * size + c), the index of the codeword it carries; −1 for none. */
  codewordOf: Int32Array;
  /** For each codeword, its Reed-Solomon block. */
  blockOf: number[];
  blocks: number;
  /** Codewords each block can correct when nothing says where the errors are. */
  correctable: number;
}

/**
 * Which codeword, and so which Reed-Solomon block, each module carries. Codewords are placed eight
 * bits at a time in two-module columns from the bottom right, up and down in turn, around the
 * function patterns (ISO/IEC 18004 §7.7.3); the sequence is the blocks' data codewords
 * interleaved, then their error-correction codewords interleaved, the shorter blocks first (§7.6),
 * as the `qrcode` package writes them.
 */
export function codewords(matrix: QrMatrix, ecc: Ecc): Codewords {
  const { size: n, version, reserved } = matrix;
  const level = eccLevel(ecc);
  const total = getSymbolTotalCodewords(version);
  const blocks = getBlocksCount(version, level);
  const ecPerBlock = getTotalCodewordsCount(version, level) / blocks;
  const longBlocks = total % blocks;
  const shortData = Math.floor(total / blocks) - ecPerBlock;
  const blockOf: number[] = [];
  for (let i = 0; i <= shortData; i++) {
    for (let b = 0; b < blocks; b++) {
      if (i < shortData || b >= blocks - longBlocks) {
        blockOf.push(b);
      }
    }
  }
  for (let i = 0; i < ecPerBlock; i++) {
    for (let b = 0; b < blocks; b++) {
      blockOf.push(b);
    }
  }
  const codewordOf = new Int32Array(n * n).fill(-1);
  let bit = 0;
  let up = true;
  for (let col = n - 1; col > 0; col -= 2) {
    if (col === 6) {
      col--; // the vertical timing pattern takes a whole column
    }
    for (let i = 0; i < n; i++) {
      const row = up ? n - 1 - i : i;
      for (const c of [col, col - 1]) {
        if (reserved[row * n + c] !== 1) {
          // Bits past the last codeword are remainder bits, in no codeword.
          codewordOf[row * n + c] = bit >> 3 < total ? bit >> 3 : -1;
          bit++;
        }
      }
    }
    up = !up;
  }
  const protection = PROTECTION[`${version}${ecc}`] ?? 0;
  return { codewordOf, blockOf, blocks, correctable: Math.floor((ecPerBlock - protection) / 2) };
}

/**
 * The most codewords that the covered modules touch in any one block, and how many a block can
 * correct. Whatever is drawn over a module may turn its bit, so every codeword with a covered
 * module counts as wrong.
 */
export function worstBlockDamage(
  matrix: QrMatrix,
  ecc: Ecc,
  covered: (row: number, col: number) => boolean,
): { damaged: number; correctable: number } {
  const { codewordOf, blockOf, blocks, correctable } = codewords(matrix, ecc);
  const n = matrix.size;
  const hit = new Set<number>();
  for (let r = 0; r < n; r++) {
    for (let c = 0; c < n; c++) {
      const cw = codewordOf[r * n + c];
      if (cw >= 0 && covered(r, c)) {
        hit.add(cw);
      }
    }
  }
  const perBlock = new Array<number>(blocks).fill(0);
  hit.forEach((cw) => perBlock[blockOf[cw]]++);
  return { damaged: Math.max(...perBlock), correctable };
}
