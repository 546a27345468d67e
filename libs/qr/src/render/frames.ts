import type { Box } from './box';
import { FrameName } from './options';
import { Prim } from './shapes';

/**
 * Where a frame puts the code, what it paints in the frame colour and where its text goes, for an
 * image `size` pixels tall. The frame colour covers `add`, minus `sub` and minus `hole`; the
 * background colour covers `hole`, which holds the code box.
 */
export interface FrameLayout {
  width: number;
  height: number;
  codeBox: Box;
  add: Prim[];
  sub: Prim[];
  hole: Prim;
  /** The text is centred in this box; null for no frame. */
  textBox: Box | null;
}

type Corners = [number, number, number, number];

const rect = (x: number, y: number, w: number, h: number, r: number | Corners = 0): Prim => ({
  kind: 'rect',
  x,
  y,
  w,
  h,
  r: typeof r === 'number' ? [r, r, r, r] : r,
});
const circle = (cx: number, cy: number, r: number): Prim => ({ kind: 'circle', cx, cy, r });
const polygon = (...points: Array<[number, number]>): Prim => ({ kind: 'polygon', points });

/** Frames whose text sits on the background (drawn in the frame colour), not on a frame-coloured band. */
export function textOnBackground(name: FrameName): boolean {
  return name.includes('simple') || name === 'hand_arrows_bottom_text';
}

/** The proportions of a frame: its border and its text band as fractions of the code's side. */
interface Proportions {
  border: number;
  band: number;
  /** The code's side is this many code sides wide inside the border (√2 and a bit for a circle). */
  span?: number;
}

const SIMPLE: Proportions = { border: 0.02, band: 0.18 };
const BANDED: Proportions = { border: 0.04, band: 0.18 };
const THIN: Proportions = { border: 0.02, band: 0.2 };

/** Draws a bottom-text frame: c the code's side, b the border, h the band, W × H the image. */
type Builder = (
  c: number,
  b: number,
  h: number,
  W: number,
  H: number,
) => Omit<FrameLayout, 'width' | 'height'>;

const code = (c: number, b: number): Box => ({ x: b, y: b, w: c, h: c });

/** A border around the code: its outline (add) and the code box as the hole. */
function bordered(c: number, b: number, radius = 0): { outline: Prim; hole: Prim } {
  return {
    outline: rect(0, 0, c + 2 * b, c + 2 * b, radius),
    hole: rect(b, b, c, c, radius * 0.6),
  };
}

/** A thin border (corners rounded by `radius` × the code's side) and the text under it. */
function simple(radius: number): Builder {
  return (c, b, h) => {
    const { outline, hole } = bordered(c, b, c * radius);
    return {
      codeBox: code(c, b),
      add: [outline],
      sub: [],
      hole,
      textBox: { x: b, y: c + 2 * b, w: c, h },
    };
  };
}

const FRAMES_BOTTOM: Record<string, [Proportions, Builder]> = {
  straight_bottom_text: [
    BANDED,
    (c, b, h, W, H) => ({
      codeBox: code(c, b),
      add: [rect(0, 0, W, H)],
      sub: [],
      hole: rect(b, b, c, c),
      textBox: { x: b, y: b + c, w: c, h: h + b },
    }),
  ],
  round_bottom_text: [
    BANDED,
    (c, b, h, W, H) => ({
      codeBox: code(c, b),
      add: [rect(0, 0, W, H, c * 0.06)],
      sub: [],
      hole: rect(b, b, c, c, c * 0.036),
      textBox: { x: b, y: b + c, w: c, h: h + b },
    }),
  ],
  straight_simple_bottom_text: [SIMPLE, simple(0)],
  round_simple_bottom_text: [SIMPLE, simple(0.06)],
  circle_simple_bottom_text: [
    { border: 0.03, band: 0.18, span: Math.SQRT2 * 1.04 },
    (c, b, h, W) => {
      const r = (c * Math.SQRT2 * 1.04) / 2;
      const cx = W / 2;
      const cy = b + r;
      return {
        codeBox: { x: cx - c / 2, y: cy - c / 2, w: c, h: c },
        add: [circle(cx, cy, r + b)],
        sub: [],
        hole: circle(cx, cy, r),
        textBox: { x: b, y: 2 * r + 2 * b, w: W - 2 * b, h },
      };
    },
  ],
  round_card_bottom_text: [
    { border: 0.06, band: 0.18 },
    (c, b, h, W, H) => ({
      codeBox: code(c, b),
      add: [rect(0, 0, W, H, c * 0.1)],
      sub: [],
      hole: rect(b, b, c, c, c * 0.05),
      textBox: { x: b, y: b + c, w: c, h: h + b },
    }),
  ],
  tooltip_bottom_text: [
    THIN,
    (c, b, h, W) => {
      const { outline, hole } = bordered(c, b);
      const gap = h * 0.25;
      const top = c + 2 * b + gap;
      return {
        codeBox: code(c, b),
        add: [
          outline,
          rect(0, top, W, h - gap, (h - gap) * 0.2),
          polygon([W / 2 - gap, top + 1], [W / 2 + gap, top + 1], [W / 2, top - gap]),
        ],
        sub: [],
        hole,
        textBox: { x: b, y: top, w: c, h: h - gap },
      };
    },
  ],
  tooltip_snap_bottom_text: [
    THIN,
    (c, b, h, W) => {
      const { outline, hole } = bordered(c, b);
      const w = W * 0.7;
      const r = h * 0.3;
      return {
        codeBox: code(c, b),
        add: [outline, rect((W - w) / 2, c + b, w, h + b, [0, 0, r, r])],
        sub: [],
        hole,
        textBox: { x: (W - w) / 2, y: c + 2 * b, w, h },
      };
    },
  ],
  ribbon_bottom_text: [
    BANDED,
    (c, b, h, W) => {
      const { outline, hole } = bordered(c, b);
      const y0 = c + 2 * b + h * 0.12;
      const y1 = c + 2 * b + h * 0.92;
      const notch = W * 0.05;
      return {
        codeBox: code(c, b),
        add: [
          outline,
          polygon(
            [0, y0],
            [W, y0],
            [W - notch, (y0 + y1) / 2],
            [W, y1],
            [0, y1],
            [notch, (y0 + y1) / 2],
          ),
        ],
        sub: [],
        hole,
        textBox: { x: notch, y: y0, w: W - 2 * notch, h: y1 - y0 },
      };
    },
  ],
  smooth_ribbon_bottom_text: [
    BANDED,
    (c, b, h, W) => {
      const { outline, hole } = bordered(c, b);
      const y0 = c + 2 * b + h * 0.12;
      const hh = h * 0.8;
      return {
        codeBox: code(c, b),
        add: [outline, rect(0, y0, W, hh, hh / 2)],
        sub: [],
        hole,
        textBox: { x: hh / 2, y: y0, w: W - hh, h: hh },
      };
    },
  ],
  straight_semi_bordered_bottom_text: [BANDED, (c, b, h, W) => semiBordered(c, b, h, W, 0)],
  round_semi_bordered_bottom_text: [BANDED, (c, b, h, W) => semiBordered(c, b, h, W, h * 0.3)],
  hand_arrows_bottom_text: [
    THIN,
    (c, b, h, W) => {
      const { outline, hole } = bordered(c, b);
      const top = c + 2 * b;
      const arrow = (x: number, dir: 1 | -1): Prim[] => {
        // A shaft rising from the band towards the code, its head under the code's edge.
        const t = Math.max(1, h * 0.08);
        const headY = top + h * 0.12;
        const footX = x + dir * h * 0.35;
        const footY = top + h * 0.85;
        return [
          polygon(
            [footX - t / 2, footY],
            [footX + t / 2, footY],
            [x + t / 2, headY + h * 0.2],
            [x - t / 2, headY + h * 0.2],
          ),
          polygon([x - h * 0.15, headY + h * 0.25], [x + h * 0.15, headY + h * 0.25], [x, headY]),
        ];
      };
      return {
        codeBox: code(c, b),
        add: [outline, ...arrow(W * 0.12, -1), ...arrow(W * 0.88, 1)],
        sub: [],
        hole,
        textBox: { x: W * 0.22, y: top, w: W * 0.56, h },
      };
    },
  ],
  broken_ticket_bottom_text: [
    BANDED,
    (c, b, h, W, H) => {
      const line = b + c + b / 2;
      const notch = Math.max(b, h * 0.22);
      // A perforation across the border between the code and the band.
      const dash = Math.max(2, c * 0.03);
      const holes: Prim[] = [];
      for (let x = notch + dash; x + dash <= W - notch; x += dash * 2) {
        holes.push(rect(x, line - b / 4, dash, Math.max(1, b / 2)));
      }
      return {
        codeBox: code(c, b),
        add: [rect(0, 0, W, H, c * 0.04)],
        sub: [circle(0, line, notch), circle(W, line, notch), ...holes],
        hole: rect(b, b, c, c),
        textBox: { x: notch, y: b + c + b, w: W - 2 * notch, h },
      };
    },
  ],
};

/** Corner brackets around the code and a band under it. */
function semiBordered(c: number, b: number, h: number, W: number, r: number): ReturnType<Builder> {
  const L = W * 0.22;
  const S = c + 2 * b;
  const brackets = [
    rect(0, 0, L, b),
    rect(0, 0, b, L),
    rect(W - L, 0, L, b),
    rect(W - b, 0, b, L),
    rect(0, S - b, L, b),
    rect(0, S - L, b, L),
    rect(W - L, S - b, L, b),
    rect(W - b, S - L, b, L),
  ];
  return {
    codeBox: code(c, b),
    add: [...brackets, rect(0, S, W, h, [0, 0, r, r])],
    sub: [],
    hole: rect(b, b, c, c),
    textBox: { x: b, y: S, w: c, h },
  };
}

/** The same prim upside down in an image H tall. */
function flip(p: Prim, H: number): Prim {
  switch (p.kind) {
    case 'rect':
      return { ...p, y: H - p.y - p.h, r: [p.r[3], p.r[2], p.r[1], p.r[0]] };
    case 'circle':
    case 'diamond':
      return { ...p, cy: H - p.cy };
    case 'polygon':
      return { ...p, points: p.points.map(([x, y]): [number, number] => [x, H - y]) };
  }
}

const flipBox = (box: Box, H: number): Box => ({ ...box, y: H - box.y - box.h });

/** Top-text frames are their bottom-text twins upside down (the code keeps its orientation). */
const TWINS: Record<string, string> = {
  straight_top_text: 'straight_bottom_text',
  round_top_text: 'round_bottom_text',
  tooltip_top_text: 'tooltip_bottom_text',
  tooltip_snap_top_text: 'tooltip_snap_bottom_text',
  ribbon_top_text: 'ribbon_bottom_text',
};

export function frameLayout(name: FrameName | null, size: number): FrameLayout {
  if (!name) {
    return {
      width: size,
      height: size,
      codeBox: { x: 0, y: 0, w: size, h: size },
      add: [],
      sub: [],
      hole: rect(0, 0, size, size),
      textBox: null,
    };
  }
  const twin = TWINS[name];
  const [p, build] = FRAMES_BOTTOM[twin ?? name];
  const span = p.span ?? 1;
  const c = Math.floor(size / (span + 2 * p.border + p.band));
  const b = Math.max(2, Math.round(c * p.border));
  const W = Math.round(c * span) + 2 * b;
  // The band takes the pixels that rounding left, so the image is exactly `size` tall.
  const h = size - Math.round(c * span) - 2 * b;
  const built = build(c, b, h, W, size);
  if (!twin) {
    return { width: W, height: size, ...built, textBox: built.textBox };
  }
  return {
    width: W,
    height: size,
    codeBox: flipBox(built.codeBox, size),
    add: built.add.map((q) => flip(q, size)),
    sub: built.sub.map((q) => flip(q, size)),
    hole: flip(built.hole, size),
    textBox: built.textBox && flipBox(built.textBox, size),
  };
}
