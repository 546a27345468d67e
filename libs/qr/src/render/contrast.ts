import { contrastRatio, luminance, parseHex } from './color';

/**
 * WCAG 2.1 SC 1.4.11 asks 3:1 for graphical objects; phone cameras under shop lighting need at
 * least that between dark modules and the light background.
 */
export const MIN_CONTRAST = 3;

/** The background as seen on white paper when it is partly transparent. */
export function flattenOnWhite(hex: string, transparency: number): string {
  const a = 1 - transparency / 100;
  const c = parseHex(hex).map((v) => Math.round(v * a + 255 * (1 - a)));
  return `#${c.map((v) => v.toString(16).padStart(2, '0')).join('')}`;
}

export type ContrastProblem = 'inverted' | 'low';

/** Why a dark colour cannot sit on this background, or null when it can. */
export function contrastProblem(dark: string, background: string): ContrastProblem | null {
  if (luminance(dark) > luminance(background)) {
    return 'inverted';
  }
  return contrastRatio(dark, background) < MIN_CONTRAST ? 'low' : null;
}
