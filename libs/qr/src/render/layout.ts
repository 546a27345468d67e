import type { Box } from './box';
import { worstBlockDamage } from './codewords';
import { textPath } from './fonts';
import { frameLayout } from './frames';
import {
  alignmentMask,
  createMatrix,
  DataTooLongError,
  finderOrigins,
  inFinder,
  LogoTooLargeError,
  maxEcc,
  QrMatrix,
  VersionTooLargeError,
} from './matrix';
import { Ecc, MIN_QUIET_ZONE, RenderOptions } from './options';
import { eyeShapes, moduleShape, Prim, Shape } from './shapes';

/** Where everything goes, in pixels. Both writers draw a Scene. */
export interface Scene {
  width: number;
  height: number;
  matrix: QrMatrix;
  /** The error-correction level actually encoded (raised for a logo). */
  ecc: Ecc;
  /** The code with its quiet zone: background colour and images cover it. */
  codeBox: Box;
  /** The modules alone: gradients and the foreground image span it. */
  moduleBox: Box;
  modules: Prim[];
  outerEyes: Shape[];
  innerEyes: Shape[];
  logoBox: Box | null;
  /** Where the background colour goes: the code box, or the frame's hole around it. */
  backgroundShape: Prim;
  frame: {
    /** The frame colour covers `add` minus `sub` minus the background shape. */
    add: Prim[];
    sub: Prim[];
    textBox: Box;
    /** SVG path data of the frame text (outlines from the font), or '' for no text. */
    textPath: string;
  } | null;
}

/**
 * The modules a logo of `percent` % of the side clears in an n-module code: every module that the
 * logo, plus half a module of air, touches. `start` and `side` place the logo, in modules.
 */
export function logoArea(
  n: number,
  percent: number,
): { start: number; side: number; covers: (r: number, c: number) => boolean } {
  const side = (n * percent) / 100;
  const start = (n - side) / 2;
  const lo = start - 0.5;
  const hi = start + side + 0.5;
  return { start, side, covers: (r, c) => c + 1 > lo && c < hi && r + 1 > lo && r < hi };
}

/**
 * The symbol and its error-correction level. Under a logo the level is raised to at least Q, and
 * to H when H fits in the same version, or when the codewords under the logo would take more than
 * three quarters of what some block of Q corrects (ISO/IEC 18004 table 9: a block corrects half
 * its error-correction codewords), every covered codeword counted as wrong, so that a quarter
 * stays for the scan's own errors. H is not taken otherwise: it costs a larger version (a 245-byte
 * vCard is version 14 at Q, 16 at H), so smaller modules at the same size and a longer span
 * between the finders over which a decoder counts modules (jsQR counts them from the finders'
 * measured width: turned by 7°, plain black-square codes of that vCard lost it in about one copy
 * in seven at version 16, one in twenty at 14, none at 11), for little more headroom: the logo
 * grows with the symbol, so it takes about the same share of every block at either level.
 */
export function encode(options: Pick<RenderOptions, 'data' | 'ecc' | 'logo' | 'fixedSymbol'>): {
  matrix: QrMatrix;
  ecc: Ecc;
} {
  const { data, logo } = options;
  if (options.fixedSymbol) {
    return fixedSymbol(options, options.fixedSymbol.maxVersion);
  }
  if (!logo) {
    return { matrix: createMatrix(data, options.ecc), ecc: options.ecc };
  }
  const floor = maxEcc(options.ecc, 'Q');
  if (floor === 'H') {
    return { matrix: createMatrix(data, 'H'), ecc: 'H' };
  }
  const q = createMatrix(data, 'Q');
  try {
    return { matrix: createMatrix(data, 'H', q.version), ecc: 'H' };
  } catch (e) {
    if (!(e instanceof DataTooLongError)) {
      throw e;
    }
  }
  const { damaged, correctable } = worstBlockDamage(q, 'Q', logoArea(q.size, logo.size).covers);
  if (damaged * 4 <= correctable * 3) {
    return { matrix: q, ecc: 'Q' };
  }
  return { matrix: createMatrix(data, 'H'), ecc: 'H' };
}

/** Whether a logo of `percent` % leaves a quarter of what each block of `ecc` corrects. */
function logoFits(matrix: QrMatrix, ecc: Ecc, percent: number): boolean {
  const { damaged, correctable } = worstBlockDamage(
    matrix,
    ecc,
    logoArea(matrix.size, percent).covers,
  );
  return damaged * 4 <= correctable * 3;
}

/** The symbol at exactly the level asked, within the largest version, the logo within its means. */
function fixedSymbol(
  options: Pick<RenderOptions, 'data' | 'ecc' | 'logo'>,
  maxVersion: number,
): { matrix: QrMatrix; ecc: Ecc } {
  const { ecc, logo } = options;
  const matrix = createMatrix(options.data, ecc);
  if (matrix.version > maxVersion) {
    throw new VersionTooLargeError(ecc, matrix.version, maxVersion);
  }
  if (logo && !logoFits(matrix, ecc, logo.size)) {
    let largest: number | null = null;
    for (let percent = Math.floor(logo.size) - 1; percent >= 5 && largest === null; percent--) {
      largest = logoFits(matrix, ecc, percent) ? percent : null;
    }
    throw new LogoTooLargeError(ecc, largest);
  }
  return { matrix, ecc };
}

function scalePrim(p: Prim, m: number, ox: number, oy: number): Prim {
  switch (p.kind) {
    case 'rect':
      return {
        ...p,
        x: ox + p.x * m,
        y: oy + p.y * m,
        w: p.w * m,
        h: p.h * m,
        r: p.r.map((r) => r * m) as [number, number, number, number],
      };
    case 'circle':
    case 'diamond':
      return { ...p, cx: ox + p.cx * m, cy: oy + p.cy * m, r: p.r * m };
    case 'polygon':
      return { ...p, points: p.points.map(([x, y]): [number, number] => [ox + x * m, oy + y * m]) };
  }
}

/**
 * Pixels per module. Whole pixels keep every module edge on the pixel grid (crisp for decoders);
 * the pixels left over widen the quiet zone. When they would widen it by more than 3 % of the code
 * on each side (small sizes: 100 px for 37 modules is 2 px a module and 26 px left over), modules
 * take a fraction of a pixel instead and fill the box, so small codes keep the quiet zone asked for.
 */
function modulePixels(code: number, modules: number): number {
  const whole = Math.floor(code / modules);
  if (whole >= 1 && code - whole * modules <= code * 0.06) {
    return whole;
  }
  return code / modules;
}

export function layout(options: RenderOptions): Scene {
  const { matrix, ecc } = encode(options);
  const n = matrix.size;
  const quiet = Math.max(options.margin, MIN_QUIET_ZONE);
  const f = frameLayout(options.frame?.name ?? null, options.size);
  const codeBox = f.codeBox;
  const size = codeBox.w;
  const m = modulePixels(size, n + 2 * quiet);
  // Whole-pixel modules start on a whole pixel; fractional ones are centred exactly.
  const inset = Number.isInteger(m) ? Math.floor((size - n * m) / 2) : (size - n * m) / 2;
  const ox = codeBox.x + inset;
  const oy = codeBox.y + inset;
  const moduleBox: Box = { x: ox, y: oy, w: n * m, h: n * m };

  let logoBox: Box | null = null;
  // Whether a module lies under the logo; no logo clears nothing.
  let clear: (r: number, c: number) => boolean = () => false;
  if (options.logo) {
    const area = logoArea(n, options.logo.size);
    const { start, side } = area;
    logoBox = { x: ox + start * m, y: oy + start * m, w: side * m, h: side * m };
    clear = area.covers;
  }

  const isDark = (r: number, c: number): boolean =>
    r >= 0 && c >= 0 && r < n && c < n && matrix.dark[r * n + c] === 1 && !clear(r, c);
  const alignment = alignmentMask(matrix.version, n);
  const modules: Prim[] = [];
  for (let r = 0; r < n; r++) {
    for (let c = 0; c < n; c++) {
      if (!isDark(r, c) || inFinder(n, r, c)) {
        continue;
      }
      const neighbours = {
        t: isDark(r - 1, c),
        r: isDark(r, c + 1),
        b: isDark(r + 1, c),
        l: isDark(r, c - 1),
      };
      const style = alignment[r * n + c] === 1 ? 'square' : options.style;
      for (const p of moduleShape(style, c, r, neighbours)) {
        modules.push(scalePrim(p, m, ox, oy));
      }
    }
  }

  // The corner of each finder that faces the middle: tl eye → br corner (2), tr → bl (3), bl → tr (1).
  const toward = [2, 3, 1];
  const outerEyes: Shape[] = [];
  const innerEyes: Shape[] = [];
  const scaleShape = (s: Shape): Shape => ({
    add: s.add.map((p) => scalePrim(p, m, ox, oy)),
    sub: s.sub.map((p) => scalePrim(p, m, ox, oy)),
    ...(s.clip ? { clip: scalePrim(s.clip, m, ox, oy) } : {}),
  });
  finderOrigins(n).forEach(([x, y], i) => {
    const eye = eyeShapes(options.outerEyeStyle, options.innerEyeStyle, x, y, toward[i]);
    outerEyes.push(scaleShape(eye.outer));
    innerEyes.push(scaleShape(eye.inner));
  });

  let frame: Scene['frame'] = null;
  const { width, height } = f;
  if (options.frame && f.textBox) {
    frame = { add: f.add, sub: f.sub, textBox: f.textBox, textPath: '' };
    if (options.frame.text) {
      const fontSize = f.textBox.h * 0.5 * (1 + 0.08 * options.frame.textSize);
      frame.textPath = textPath(options.frame.text, options.frame.font, fontSize, f.textBox);
    }
  }
  return {
    width,
    height,
    matrix,
    ecc,
    codeBox,
    moduleBox,
    modules,
    outerEyes,
    innerEyes,
    logoBox,
    backgroundShape: f.hole,
    frame,
  };
}
