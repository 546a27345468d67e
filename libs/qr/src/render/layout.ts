import { textPath } from './fonts';
import { alignmentMask, createMatrix, finderOrigins, inFinder, maxEcc, QrMatrix } from './matrix';
import { Ecc, MIN_QUIET_ZONE, RenderOptions } from './options';
import { innerEyeShape, moduleShape, outerEyeShape, Prim, Shape } from './shapes';

export interface Box {
  x: number;
  y: number;
  w: number;
  h: number;
}

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
  innerEyes: Prim[];
  logoBox: Box | null;
  /** Where the background colour goes: the code box, with the frame's inner corners. */
  backgroundShape: Extract<Prim, { kind: 'rect' }>;
  frame: {
    outline: Extract<Prim, { kind: 'rect' }>;
    textBox: Box;
    /** SVG path data of the frame text (outlines from the font), or '' for no text. */
    textPath: string;
  } | null;
}

/** A logo covers (size %)² of the code; H restores up to 30 % of the codewords. */
export function eccFor(options: Pick<RenderOptions, 'ecc' | 'logo'>): Ecc {
  if (!options.logo) {
    return options.ecc;
  }
  return maxEcc(options.ecc, options.logo.size > 15 ? 'H' : 'Q');
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

function frameGeometry(options: RenderOptions): {
  border: number;
  band: number;
  top: boolean;
  round: boolean;
  simple: boolean;
} | null {
  if (!options.frame) {
    return null;
  }
  const name = options.frame.name;
  return {
    border: Math.max(2, Math.round(options.size * (name.includes('simple') ? 0.02 : 0.04))),
    band: Math.round(options.size * 0.18),
    top: name.endsWith('top_text'),
    round: name.startsWith('round'),
    simple: name.includes('simple'),
  };
}

export function layout(options: RenderOptions): Scene {
  const ecc = eccFor(options);
  const matrix = createMatrix(options.data, ecc);
  const n = matrix.size;
  const quiet = Math.max(options.margin, MIN_QUIET_ZONE);
  const size = options.size;
  // Whole pixels per module keep every module edge on the pixel grid (crisp for decoders); the
  // pixels left over widen the quiet zone. Below one pixel per module, fractions are all there is.
  const m = Math.max(Math.floor(size / (n + 2 * quiet)), Math.min(1, size / (n + 2 * quiet)));
  const f = frameGeometry(options);
  const border = f?.border ?? 0;
  const band = f?.band ?? 0;
  const codeBox: Box = { x: border, y: border + (f?.top ? band : 0), w: size, h: size };
  const inset = Math.floor((size - n * m) / 2);
  const ox = codeBox.x + inset;
  const oy = codeBox.y + inset;
  const moduleBox: Box = { x: ox, y: oy, w: n * m, h: n * m };

  let logoBox: Box | null = null;
  // Whether a module lies under the logo; no logo clears nothing.
  let clear: (r: number, c: number) => boolean = () => false;
  if (options.logo) {
    const side = (n * options.logo.size) / 100;
    const start = (n - side) / 2;
    logoBox = { x: ox + start * m, y: oy + start * m, w: side * m, h: side * m };
    // Clear every module that the logo (plus half a module of air) touches.
    const lo = start - 0.5;
    const hi = start + side + 0.5;
    clear = (r, c) => c + 1 > lo && c < hi && r + 1 > lo && r < hi;
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
  const innerEyes: Prim[] = [];
  finderOrigins(n).forEach(([x, y], i) => {
    const s = outerEyeShape(options.outerEyeStyle, x, y, toward[i]);
    outerEyes.push({
      add: s.add.map((p) => scalePrim(p, m, ox, oy)),
      sub: s.sub.map((p) => scalePrim(p, m, ox, oy)),
    });
    for (const p of innerEyeShape(options.innerEyeStyle, x + 2, y + 2, toward[i])) {
      innerEyes.push(scalePrim(p, m, ox, oy));
    }
  });

  let frame: Scene['frame'] = null;
  let backgroundShape: Scene['backgroundShape'] = { kind: 'rect', ...codeBox, r: [0, 0, 0, 0] };
  const width = size + 2 * border;
  const height = size + 2 * border + band;
  if (f && options.frame) {
    const radius = f.round ? size * 0.06 : 0;
    const inner = f.round ? radius * 0.6 : 0;
    const outerH = f.simple ? size + 2 * border : height;
    const outerY = f.simple && f.top ? band : 0;
    backgroundShape = { kind: 'rect', ...codeBox, r: [inner, inner, inner, inner] };
    frame = {
      outline: {
        kind: 'rect',
        x: 0,
        y: outerY,
        w: width,
        h: outerH,
        r: [radius, radius, radius, radius],
      },
      textBox: {
        x: border,
        y: f.top ? 0 : f.simple ? size + 2 * border : codeBox.y + size,
        w: size,
        h: f.simple ? band : band + border,
      },
      textPath: '',
    };
  }

  if (frame && options.frame?.text) {
    const fontSize = band * 0.5 * (1 + 0.08 * options.frame.textSize);
    frame.textPath = textPath(options.frame.text, options.frame.font, fontSize, frame.textBox);
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
    backgroundShape,
    frame,
  };
}
