import { InnerEyeStyle, ModuleStyle, OuterEyeStyle } from './options';

/**
 * Every style is a union of a few primitives (minus holes for the outer eyes), in module units.
 * The SVG writer turns them into path data and the raster renderer tests pixel centres against
 * them, so both outputs draw the same geometry.
 */
export type Prim =
  | {
      kind: 'rect';
      x: number;
      y: number;
      w: number;
      h: number;
      r: [number, number, number, number];
    }
  | { kind: 'circle'; cx: number; cy: number; r: number }
  | { kind: 'diamond'; cx: number; cy: number; r: number }
  | { kind: 'polygon'; points: Array<[number, number]> };

/** The union of `add` minus the union of `sub`, cut to `clip` when there is one. */
export interface Shape {
  add: Prim[];
  sub: Prim[];
  clip?: Prim;
}

const rect = (x: number, y: number, w: number, h: number, r = [0, 0, 0, 0]): Prim => ({
  kind: 'rect',
  x,
  y,
  w,
  h,
  r: r as [number, number, number, number],
});
const circle = (cx: number, cy: number, r: number): Prim => ({ kind: 'circle', cx, cy, r });

/**
 * The exponent of the `circle` outer eye, the superellipse |x|^e + |y|^e = r^e. A true circle
 * (e = 2) keeps 1:1:3:1:1 on every line through its centre, yet ZBar, which fits straight lines to
 * the edges of each finder to place the grid, read circle-eyed codes 15 times in 30 (5 sizes × 6
 * angles up to ±10°; e = 2.5: 27 in 30). From e = 2.75 it read all 30, and from e = 3 all 630 of a
 * wider grid (2 versions, 200, 500 and 1000 px, every degree from −10° to +10°, every centre
 * style). e = 4 (the classic squircle) leaves a margin and still reads as round. The hole is the
 * same curve scaled about the centre, so the ring keeps 1:1 with the gap on every such line.
 */
export const SQUIRCLE = 4;

/** The superellipse of exponent e and radius r about (cx, cy), as a polygon of `count` points. */
export function squircle(cx: number, cy: number, r: number, e = SQUIRCLE, count = 96): Prim {
  const points: Array<[number, number]> = [];
  for (let i = 0; i < count; i++) {
    const t = (2 * Math.PI * i) / count;
    const c = Math.cos(t);
    const s = Math.sin(t);
    points.push([
      cx + r * Math.sign(c) * Math.abs(c) ** (2 / e),
      cy + r * Math.sign(s) * Math.abs(s) ** (2 / e),
    ]);
  }
  return { kind: 'polygon', points };
}

/** Radius of a `dot` module; tuned so both decoders read dot codes (see the grid test). */
export const DOT_RADIUS = 0.5;

/** Neighbours that a module touches: top, right, bottom, left. */
export interface Neighbours {
  t: boolean;
  r: boolean;
  b: boolean;
  l: boolean;
}

export function moduleShape(style: ModuleStyle, x: number, y: number, n: Neighbours): Prim[] {
  switch (style) {
    case 'square':
      return [rect(x, y, 1, 1)];
    case 'dot':
      return [circle(x + 0.5, y + 0.5, DOT_RADIUS)];
    case 'rounded': {
      // Corners round only where the module has no neighbour on either side, so runs stay joined.
      const c = (a: boolean, b: boolean): number => (a || b ? 0 : 0.5);
      return [rect(x, y, 1, 1, [c(n.t, n.l), c(n.t, n.r), c(n.b, n.r), c(n.b, n.l)])];
    }
    case 'diamond':
      return [{ kind: 'diamond', cx: x + 0.5, cy: y + 0.5, r: 0.6 }];
    case 'flower':
      // Four petals that reach the cell edges around a full centre: dark enough when scaled down.
      return [
        circle(x + 0.5, y + 0.5, 0.4),
        circle(x + 0.5, y + 0.27, 0.25),
        circle(x + 0.73, y + 0.5, 0.25),
        circle(x + 0.5, y + 0.73, 0.25),
        circle(x + 0.27, y + 0.5, 0.25),
      ];
    case 'leaf':
      return [rect(x, y, 1, 1, [0.5, 0.05, 0.5, 0.05])];
  }
}

/**
 * The 7×7 ring of a finder pattern at (x, y). `toward` is the corner (0 tl, 1 tr, 2 br, 3 bl) that
 * faces the middle of the code; flower eyes keep it sharp.
 */
export function outerEyeShape(style: OuterEyeStyle, x: number, y: number, toward: number): Shape {
  const ring = (outer: number[], inner: number[]): Shape => ({
    add: [rect(x, y, 7, 7, outer)],
    sub: [rect(x + 1, y + 1, 5, 5, inner)],
  });
  switch (style) {
    case 'square':
      return ring([0, 0, 0, 0], [0, 0, 0, 0]);
    case 'circle':
      // A squircle, not a true circle: see SQUIRCLE.
      return {
        add: [squircle(x + 3.5, y + 3.5, 3.5)],
        sub: [squircle(x + 3.5, y + 3.5, 2.5)],
      };
    case 'rounded':
      return ring([2, 2, 2, 2], [1.2, 1.2, 1.2, 1.2]);
    case 'flower': {
      // Corners of 3 modules (of 7) made ZBar miss one turned copy in seven at 200–500 px (155
      // reads in 180, eyes.spec.ts); at 2.5, as the leaf's, it reads all of them.
      const outer = [2.5, 2.5, 2.5, 2.5];
      const inner = [1.5, 1.5, 1.5, 1.5];
      outer[toward] = 0;
      inner[toward] = 0;
      return ring(outer, inner);
    }
    case 'leaf':
      return ring([2.5, 0, 2.5, 0], [1.5, 0, 1.5, 0]);
  }
}

/** The 3×3 centre of a finder pattern whose top-left module is (x, y). */
export function innerEyeShape(style: InnerEyeStyle, x: number, y: number, toward: number): Prim[] {
  const cx = x + 1.5;
  const cy = y + 1.5;
  switch (style) {
    case 'square':
      return [rect(x, y, 3, 3)];
    case 'dot':
      return [circle(cx, cy, 1.6)];
    case 'rounded':
      return [rect(x, y, 3, 3, [0.9, 0.9, 0.9, 0.9])];
    case 'diamond': {
      // A diamond cut by the 3×3 square: pointed, yet wide enough along the centre lines and the
      // diagonals for finder-pattern detectors that score all four directions (jsQR does).
      const r = 2.1;
      const c = r - 1.5;
      return [
        {
          kind: 'polygon',
          points: [
            [cx - 1.5 + c, cy - 1.5],
            [cx + 1.5 - c, cy - 1.5],
            [cx + 1.5, cy - 1.5 + c],
            [cx + 1.5, cy + 1.5 - c],
            [cx + 1.5 - c, cy + 1.5],
            [cx - 1.5 + c, cy + 1.5],
            [cx - 1.5, cy + 1.5 - c],
            [cx - 1.5, cy - 1.5 + c],
          ],
        },
      ];
    }
    case 'flower': {
      const r = [1.5, 1.5, 1.5, 1.5];
      r[toward] = 0;
      return [rect(x, y, 3, 3, r)];
    }
    case 'leaf':
      return [rect(x, y, 3, 3, [1.2, 0, 1.2, 0])];
  }
}

/** The primitive scaled by k about (cx, cy). */
export function scaleAbout(p: Prim, cx: number, cy: number, k: number): Prim {
  switch (p.kind) {
    case 'rect':
      return {
        ...p,
        x: cx + (p.x - cx) * k,
        y: cy + (p.y - cy) * k,
        w: p.w * k,
        h: p.h * k,
        r: p.r.map((r) => r * k) as [number, number, number, number],
      };
    case 'circle':
    case 'diamond':
      return { ...p, cx: cx + (p.cx - cx) * k, cy: cy + (p.cy - cy) * k, r: p.r * k };
    case 'polygon':
      return {
        ...p,
        points: p.points.map(([x, y]): [number, number] => [cx + (x - cx) * k, cy + (y - cy) * k]),
      };
  }
}

/**
 * How far the inner eye may reach, as a fraction of the outer eye's hole, on any line through
 * the centre. A finder pattern reads 1:1:3:1:1 on every scan line through its centre: ring,
 * gap, centre, gap, ring. On the axes every style already does (the hole reaches 2.5 modules, the
 * centre 1.5 = 0.6 × 2.5); along the diagonals a square centre in a circular ring left a gap of
 * 0.38 modules, a dot in a square ring one of 1.9. So the centre is drawn as its style's shape,
 * grown to at least LOW × the hole and cut to at most HIGH × the hole, the hole scaled about the
 * centre: every line through the centre then stays within a quarter module of 1:1:3:1:1 (the
 * decoders allow half a module; see eyes.spec.ts). Rings whose corners differ (rounded, leaf and
 * above all flower, thicker at its one sharp corner) leave less room, so their centres keep
 * closer to 0.6.
 */
const INNER_FIT: Record<OuterEyeStyle, [number, number]> = {
  square: [0.52, 0.68],
  circle: [0.52, 0.68],
  rounded: [0.54, 0.66],
  flower: [0.57, 0.63],
  leaf: [0.54, 0.66],
};

/** The outer ring and the centre of the finder pattern whose top-left module is (x, y). */
export function eyeShapes(
  outerStyle: OuterEyeStyle,
  innerStyle: InnerEyeStyle,
  x: number,
  y: number,
  toward: number,
): { outer: Shape; inner: Shape } {
  const outer = outerEyeShape(outerStyle, x, y, toward);
  const hole = outer.sub[0];
  const [low, high] = INNER_FIT[outerStyle];
  const cx = x + 3.5;
  const cy = y + 3.5;
  return {
    outer,
    inner: {
      add: [...innerEyeShape(innerStyle, x + 2, y + 2, toward), scaleAbout(hole, cx, cy, low)],
      sub: [],
      clip: scaleAbout(hole, cx, cy, high),
    },
  };
}

/** Whether the point lies inside the primitive (all values in the same units). */
export function contains(p: Prim, px: number, py: number): boolean {
  switch (p.kind) {
    case 'circle': {
      const dx = px - p.cx;
      const dy = py - p.cy;
      return dx * dx + dy * dy <= p.r * p.r;
    }
    case 'diamond':
      return Math.abs(px - p.cx) + Math.abs(py - p.cy) <= p.r;
    case 'polygon': {
      let inside = false;
      const pts = p.points;
      for (let i = 0, j = pts.length - 1; i < pts.length; j = i++) {
        const [xi, yi] = pts[i];
        const [xj, yj] = pts[j];
        if (yi > py !== yj > py && px < ((xj - xi) * (py - yi)) / (yj - yi) + xi) {
          inside = !inside;
        }
      }
      return inside;
    }
    case 'rect': {
      if (px < p.x || py < p.y || px > p.x + p.w || py > p.y + p.h) {
        return false;
      }
      const left = px < p.x + p.w / 2;
      const top = py < p.y + p.h / 2;
      const corner = top ? (left ? 0 : 1) : left ? 3 : 2;
      const r = p.r[corner];
      if (r <= 0) {
        return true;
      }
      const ccx = left ? p.x + r : p.x + p.w - r;
      const ccy = top ? p.y + r : p.y + p.h - r;
      const outX = left ? px < ccx : px > ccx;
      const outY = top ? py < ccy : py > ccy;
      if (!outX || !outY) {
        return true;
      }
      const dx = px - ccx;
      const dy = py - ccy;
      return dx * dx + dy * dy <= r * r;
    }
  }
}

/** Bounding box of a primitive: [x0, y0, x1, y1]. */
export function bounds(p: Prim): [number, number, number, number] {
  switch (p.kind) {
    case 'rect':
      return [p.x, p.y, p.x + p.w, p.y + p.h];
    case 'circle':
    case 'diamond':
      return [p.cx - p.r, p.cy - p.r, p.cx + p.r, p.cy + p.r];
    case 'polygon': {
      const xs = p.points.map((q) => q[0]);
      const ys = p.points.map((q) => q[1]);
      return [Math.min(...xs), Math.min(...ys), Math.max(...xs), Math.max(...ys)];
    }
  }
}

/** The horizontal extent [x0, x1] of a rectangle at height y, or null outside it. */
export function rectSpan(p: Extract<Prim, { kind: 'rect' }>, y: number): [number, number] | null {
  const out: [number, number] = [0, 0];
  return rectSpanInto(p, y, out) ? out : null;
}

/** rectSpan without allocating: writes the span into `out`, or returns false for none. */
export function rectSpanInto(
  p: Extract<Prim, { kind: 'rect' }>,
  y: number,
  out: [number, number],
): boolean {
  if (y < p.y || y > p.y + p.h) {
    return false;
  }
  const top = y < p.y + p.h / 2;
  const r = p.r;
  out[0] = p.x + inset(p, y, top, top ? r[0] : r[3]);
  out[1] = p.x + p.w - inset(p, y, top, top ? r[1] : r[2]);
  return true;
}

function inset(p: Extract<Prim, { kind: 'rect' }>, y: number, top: boolean, r: number): number {
  const d = top ? p.y + r - y : y - (p.y + p.h - r);
  return d > 0 ? r - Math.sqrt(Math.max(0, r * r - d * d)) : 0;
}
