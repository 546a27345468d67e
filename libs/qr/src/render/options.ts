export const MODULE_STYLES = ['square', 'dot', 'rounded', 'diamond', 'flower', 'leaf'] as const;
export const INNER_EYE_STYLES = ['square', 'dot', 'rounded', 'diamond', 'flower', 'leaf'] as const;
export const OUTER_EYE_STYLES = ['square', 'circle', 'rounded', 'flower', 'leaf'] as const;
export const FOREGROUND_TYPES = ['color', 'gradient'] as const;
export const GRADIENT_STYLES = [
  'vertical',
  'horizontal',
  'diagonal',
  'inverse_diagonal',
  'radial',
] as const;
export const ECC_LEVELS = ['L', 'M', 'Q', 'H'] as const;
/** Frame names are the origin product's (all 19); each draws a border or shape and a text box. */
export const FRAMES = [
  'circle_simple_bottom_text',
  'round_simple_bottom_text',
  'straight_simple_bottom_text',
  'round_card_bottom_text',
  'straight_bottom_text',
  'straight_top_text',
  'round_bottom_text',
  'round_top_text',
  'tooltip_bottom_text',
  'tooltip_top_text',
  'ribbon_bottom_text',
  'ribbon_top_text',
  'tooltip_snap_top_text',
  'tooltip_snap_bottom_text',
  'straight_semi_bordered_bottom_text',
  'round_semi_bordered_bottom_text',
  'hand_arrows_bottom_text',
  'broken_ticket_bottom_text',
  'smooth_ribbon_bottom_text',
] as const;
export const FRAME_FONTS = [
  'sora',
  'times_new_roman',
  'georgia',
  'courier',
  'arial',
  'helvetica',
  'verdana',
  'tahoma',
  'trebuchet_ms',
  'courier_new',
  'monaco',
  'comic_sans_ms',
  'impact',
  'luminari',
  'baskerville',
  'papyrus',
  'brush_script_mt',
] as const;

export type ModuleStyle = (typeof MODULE_STYLES)[number];
export type InnerEyeStyle = (typeof INNER_EYE_STYLES)[number];
export type OuterEyeStyle = (typeof OUTER_EYE_STYLES)[number];
export type GradientStyle = (typeof GRADIENT_STYLES)[number];
export type Ecc = (typeof ECC_LEVELS)[number];
export type FrameName = (typeof FRAMES)[number];
export type FrameFont = (typeof FRAME_FONTS)[number];

/** A decoded image: 8-bit RGBA pixels. */
export interface RgbaImage {
  width: number;
  height: number;
  data: Uint8Array;
}

export type Foreground =
  | { type: 'color'; color: string }
  | { type: 'gradient'; style: GradientStyle; one: string; two: string };

export interface FrameOptions {
  name: FrameName;
  text: string;
  /** -5 to 5: each step scales the text by 8 %. */
  textSize: number;
  font: FrameFont;
  color: string;
  textColor: string;
}

/** Everything that decides how a code looks. Colours are `#rrggbb`. */
export interface RenderOptions {
  data: string;
  ecc: Ecc;
  /**
   * Height of the image in pixels, frame included; without a frame the image is size × size, with
   * one it is as wide as the frame needs (never wider than size).
   */
  size: number;
  /** Quiet zone in modules; never less than MIN_QUIET_ZONE. */
  margin: number;
  style: ModuleStyle;
  innerEyeStyle: InnerEyeStyle;
  outerEyeStyle: OuterEyeStyle;
  foreground: Foreground;
  /** Eye colours; null = the foreground. */
  eyes: { inner: string; outer: string } | null;
  background: { color: string; transparency: number };
  /** Encoded PNG/JPEG/WebP images (SVG uploads are rasterized before they get here). */
  logo: { image: Buffer; size: number } | null;
  backgroundImage: { image: Buffer; transparency: number } | null;
  foregroundImage: { image: Buffer; transparency: number } | null;
  frame: FrameOptions | null;
  /**
   * A payload standard that fixes the symbol (EPC069-12: level M, version 13 at most): `ecc` is
   * encoded as asked even under a logo, and a logo that level cannot spare is an error, never a
   * higher level; so is content that needs a larger version.
   */
  fixedSymbol?: { maxVersion: number };
}

export const MIN_QUIET_ZONE = 2;
