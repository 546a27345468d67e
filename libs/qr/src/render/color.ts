import type { Box } from './box';
import { Foreground } from './options';

export type Rgb = [number, number, number];

export function parseHex(hex: string): Rgb {
  const v = parseInt(hex.slice(1), 16);
  return [(v >> 16) & 255, (v >> 8) & 255, v & 255];
}

/** Gradient end points in the module box, as fractions: [x1, y1, x2, y2]. */
export const GRADIENT_VECTORS = {
  horizontal: [0, 0, 1, 0],
  vertical: [0, 0, 0, 1],
  diagonal: [0, 0, 1, 1],
  inverse_diagonal: [0, 1, 1, 0],
} as const;

/** The foreground paint at a pixel, exactly as the SVG gradient defines it. */
export function foregroundAt(
  fg: Foreground,
  box: Box,
): Rgb | ((x: number, y: number, out: Rgb) => void) {
  if (fg.type === 'color') {
    return parseHex(fg.color);
  }
  const a = parseHex(fg.one);
  const b = parseHex(fg.two);
  // 1024 steps: finer than 8-bit colour can show between any two stops.
  const steps = 1024;
  const lut = new Uint8Array((steps + 1) * 3);
  for (let i = 0; i <= steps; i++) {
    for (let ch = 0; ch < 3; ch++) {
      lut[i * 3 + ch] = Math.round(a[ch] + ((b[ch] - a[ch]) * i) / steps);
    }
  }
  const mix = (t: number, out: Rgb): void => {
    const i = (t <= 0 ? 0 : t >= 1 ? steps : Math.round(t * steps)) * 3;
    out[0] = lut[i];
    out[1] = lut[i + 1];
    out[2] = lut[i + 2];
  };
  if (fg.style === 'radial') {
    const cx = box.x + box.w / 2;
    const cy = box.y + box.h / 2;
    const r = (box.w / 2) * Math.SQRT2;
    return (x, y, out) => mix(Math.hypot(x - cx, y - cy) / r, out);
  }
  const [x1, y1, x2, y2] = GRADIENT_VECTORS[fg.style];
  const ax = box.x + x1 * box.w;
  const ay = box.y + y1 * box.h;
  const dx = (x2 - x1) * box.w;
  const dy = (y2 - y1) * box.h;
  const len2 = dx * dx + dy * dy;
  return (x, y, out) => mix(((x - ax) * dx + (y - ay) * dy) / len2, out);
}

/** WCAG 2 relative luminance of an sRGB colour. */
export function luminance(hex: string): number {
  const lin = (c: number): number => {
    const s = c / 255;
    return s <= 0.03928 ? s / 12.92 : ((s + 0.055) / 1.055) ** 2.4;
  };
  const [r, g, b] = parseHex(hex);
  return 0.2126 * lin(r) + 0.7152 * lin(g) + 0.0722 * lin(b);
}

/** WCAG 2 contrast ratio (1 to 21). */
export function contrastRatio(a: string, b: string): number {
  const la = luminance(a);
  const lb = luminance(b);
  return (Math.max(la, lb) + 0.05) / (Math.min(la, lb) + 0.05);
}
