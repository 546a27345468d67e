import type { Box } from './box';
import { Rgb } from './color';
import { RgbaImage } from './options';
import { bounds, contains, Prim, rectSpanInto } from './shapes';

/** A solid colour, or a function that writes the colour at a pixel centre into `out`. */
export type Paint = Rgb | ((x: number, y: number, out: Rgb) => void);

/** Whether a point of one pixel row lies inside a primitive, as contains() answers. */
type RowTest = (px: number) => boolean;

/**
 * contains() for the points of the row at height `py`: a polygon's edges that cross the row, and
 * where, are found once for the row instead of once per pixel (the same crossings and comparisons,
 * so the same answer).
 */
function rowTest(p: Prim, py: number): RowTest {
  if (p.kind !== 'polygon') {
    return (px) => contains(p, px, py);
  }
  const crossings: number[] = [];
  const pts = p.points;
  for (let i = 0, j = pts.length - 1; i < pts.length; j = i++) {
    const [xi, yi] = pts[i];
    const [xj, yj] = pts[j];
    if (yi > py !== yj > py) {
      crossings.push(((xj - xi) * (py - yi)) / (yj - yi) + xi);
    }
  }
  return (px) => {
    let inside = false;
    for (let k = 0; k < crossings.length; k++) {
      if (px < crossings[k]) {
        inside = !inside;
      }
    }
    return inside;
  };
}

function insideAll(add: RowTest[], sub: RowTest[], clip: RowTest | undefined, x: number): boolean {
  if (clip && !clip(x)) {
    return false;
  }
  let hit = false;
  for (let i = 0; i < add.length && !hit; i++) {
    hit = add[i](x);
  }
  if (!hit) {
    return false;
  }
  for (let i = 0; i < sub.length; i++) {
    if (sub[i](x)) {
      return false;
    }
  }
  return true;
}

/** An RGBA pixel buffer that shapes and images are painted into. */
export class Canvas {
  readonly data: Uint8Array;

  constructor(
    readonly width: number,
    readonly height: number,
    target?: Uint8Array,
  ) {
    if (target && target.length === width * height * 4) {
      target.fill(0);
      this.data = target;
    } else {
      this.data = new Uint8Array(width * height * 4);
    }
  }

  /** Source-over blend of one pixel. */
  blend(x: number, y: number, c: Rgb, alpha: number): void {
    if (alpha <= 0) {
      return;
    }
    const i = (y * this.width + x) * 4;
    const d = this.data;
    if (alpha >= 1) {
      d[i] = c[0];
      d[i + 1] = c[1];
      d[i + 2] = c[2];
      d[i + 3] = 255;
      return;
    }
    const da = d[i + 3] / 255;
    const oa = alpha + da * (1 - alpha);
    const mix = (s: number, t: number): number =>
      Math.round((s * alpha + t * da * (1 - alpha)) / oa);
    d[i] = mix(c[0], d[i]);
    d[i + 1] = mix(c[1], d[i + 1]);
    d[i + 2] = mix(c[2], d[i + 2]);
    d[i + 3] = Math.round(oa * 255);
  }

  /** Paints every pixel whose centre lies in one of `add`, in none of `sub` and in `clip`. */
  fill(add: Prim[], sub: Prim[], paint: Paint, alpha = 1, clip?: Prim): void {
    if (
      !clip &&
      add.length === 1 &&
      sub.length === 0 &&
      add[0].kind !== 'polygon' &&
      add[0].kind !== 'diamond'
    ) {
      this.fillSpans(add[0], paint, alpha);
      return;
    }
    let [x0, y0, x1, y1] = bounds(add[0]);
    for (let k = 1; k < add.length; k++) {
      const b = bounds(add[k]);
      x0 = Math.min(x0, b[0]);
      y0 = Math.min(y0, b[1]);
      x1 = Math.max(x1, b[2]);
      y1 = Math.max(y1, b[3]);
    }
    const xs = Math.max(0, Math.floor(x0));
    const xe = Math.min(this.width, Math.ceil(x1));
    const ys = Math.max(0, Math.floor(y0));
    const ye = Math.min(this.height, Math.ceil(y1));
    const c: Rgb = [0, 0, 0];
    const solid = typeof paint !== 'function';
    if (solid) {
      c[0] = paint[0];
      c[1] = paint[1];
      c[2] = paint[2];
    }
    for (let y = ys; y < ye; y++) {
      const cy = y + 0.5;
      const rowAdd = add.map((p) => rowTest(p, cy));
      const rowSub = sub.map((p) => rowTest(p, cy));
      const rowClip = clip && rowTest(clip, cy);
      for (let x = xs; x < xe; x++) {
        const cx = x + 0.5;
        if (!insideAll(rowAdd, rowSub, rowClip, cx)) {
          continue;
        }
        if (!solid) {
          paint(cx, cy, c);
        }
        this.blend(x, y, c, alpha);
      }
    }
  }

  /** One rectangle or circle, row by row: each row is one span, so no pixel needs a test. */
  private fillSpans(
    p: Extract<Prim, { kind: 'rect' | 'circle' }>,
    paint: Paint,
    alpha: number,
  ): void {
    const [, y0, , y1] = bounds(p);
    const ys = Math.max(0, Math.floor(y0));
    const ye = Math.min(this.height, Math.ceil(y1));
    const c: Rgb = [0, 0, 0];
    const span: [number, number] = [0, 0];
    const solid = typeof paint !== 'function';
    if (solid) {
      c[0] = paint[0];
      c[1] = paint[1];
      c[2] = paint[2];
    }
    for (let y = ys; y < ye; y++) {
      const cy = y + 0.5;
      let a: number;
      let b: number;
      if (p.kind === 'circle') {
        const dy = cy - p.cy;
        const h = p.r * p.r - dy * dy;
        if (h < 0) {
          continue;
        }
        const w = Math.sqrt(h);
        a = p.cx - w;
        b = p.cx + w;
      } else {
        if (!rectSpanInto(p, cy, span)) {
          continue;
        }
        a = span[0];
        b = span[1];
      }
      // Pixel centres x + 0.5 within [a, b].
      const xs = Math.max(0, Math.ceil(a - 0.5));
      const xe = Math.min(this.width - 1, Math.floor(b - 0.5));
      if (alpha >= 1) {
        // Opaque: the colour replaces the pixel, as blend() would.
        const d = this.data;
        for (let x = xs, i = (y * this.width + xs) * 4; x <= xe; x++, i += 4) {
          if (!solid) {
            paint(x + 0.5, cy, c);
          }
          d[i] = c[0];
          d[i + 1] = c[1];
          d[i + 2] = c[2];
          d[i + 3] = 255;
        }
        continue;
      }
      for (let x = xs; x <= xe; x++) {
        if (!solid) {
          paint(x + 0.5, cy, c);
        }
        this.blend(x, y, c, alpha);
      }
    }
  }

  /** Fills a (rounded) rectangle row by row with one opaque colour: the fast path for big areas. */
  fillRect(p: Extract<Prim, { kind: 'rect' }>, color: Rgb, alpha = 255): void {
    const ys = Math.max(0, Math.floor(p.y));
    const ye = Math.min(this.height, Math.ceil(p.y + p.h));
    const row = new Uint8Array(this.width * 4);
    const span: [number, number] = [0, 0];
    for (let x = 0; x < this.width; x++) {
      row[x * 4] = color[0];
      row[x * 4 + 1] = color[1];
      row[x * 4 + 2] = color[2];
      row[x * 4 + 3] = alpha;
    }
    for (let y = ys; y < ye; y++) {
      if (!rectSpanInto(p, y + 0.5, span)) {
        continue;
      }
      const xs = Math.max(0, Math.ceil(span[0] - 0.5));
      const xe = Math.min(this.width, Math.floor(span[1] - 0.5) + 1);
      if (xe > xs) {
        this.data.set(row.subarray(xs * 4, xe * 4), (y * this.width + xs) * 4);
      }
    }
  }

  /** Draws an RGBA image into a box of the same size, with an extra opacity. */
  image(img: RgbaImage, box: Box, opacity: number, mask?: (x: number, y: number) => boolean): void {
    const bx = Math.round(box.x);
    const by = Math.round(box.y);
    const c: Rgb = [0, 0, 0];
    for (let y = 0; y < img.height; y++) {
      for (let x = 0; x < img.width; x++) {
        const px = bx + x;
        const py = by + y;
        if (px < 0 || py < 0 || px >= this.width || py >= this.height) {
          continue;
        }
        if (mask && !mask(px, py)) {
          continue;
        }
        const i = (y * img.width + x) * 4;
        const d = img.data;
        c[0] = d[i];
        c[1] = d[i + 1];
        c[2] = d[i + 2];
        this.blend(px, py, c, (d[i + 3] / 255) * opacity);
      }
    }
  }
}
