import type { Box } from './box';
import { GRADIENT_VECTORS } from './color';
import { Foreground } from './options';

const n = (v: number): string => String(Math.round(v * 100) / 100);

/** The module fill: a colour, or a gradient in user space over the module box. */
export function foregroundSvgPaint(fg: Foreground, box: Box): { defs: string; fill: string } {
  if (fg.type === 'color') {
    return { defs: '', fill: fg.color };
  }
  const stops = `<stop offset="0" stop-color="${fg.one}"/><stop offset="1" stop-color="${fg.two}"/>`;
  if (fg.style === 'radial') {
    const r = (box.w / 2) * Math.SQRT2;
    return {
      defs: `<radialGradient id="fg" gradientUnits="userSpaceOnUse" cx="${n(box.x + box.w / 2)}" cy="${n(box.y + box.h / 2)}" r="${n(r)}">${stops}</radialGradient>`,
      fill: 'url(#fg)',
    };
  }
  const [x1, y1, x2, y2] = GRADIENT_VECTORS[fg.style];
  return {
    defs: `<linearGradient id="fg" gradientUnits="userSpaceOnUse" x1="${n(box.x + x1 * box.w)}" y1="${n(box.y + y1 * box.h)}" x2="${n(box.x + x2 * box.w)}" y2="${n(box.y + y2 * box.h)}">${stops}</linearGradient>`,
    fill: 'url(#fg)',
  };
}
