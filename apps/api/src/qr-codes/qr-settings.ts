import { AppError, Problem } from '@app/common';
import {
  ContentError,
  contrastProblem,
  contrastRatio,
  DataTooLongError,
  DECIMAL_FIELDS,
  encodeContent,
  EPC_ECC,
  EPC_MAX_VERSION,
  flattenOnWhite,
  FrameFont,
  FrameName,
  LabelledValue,
  LogoTooLargeError,
  MIN_CONTRAST,
  numberToDecimal,
  QrType,
  RenderOptions,
  TYPE_FIELDS,
  textOnBackground,
  unsupportedCharacters,
  VersionTooLargeError,
} from '@app/qr';
import { CreateQrCodeDto } from './dto/create-qr-code.dto';

/** Style settings with the origin product's defaults (origin-api.md §4.2). */
export const STYLE_DEFAULTS = {
  style: 'square',
  inner_eye_style: 'square',
  outer_eye_style: 'square',
  foreground_type: 'color',
  foreground_color: '#000000',
  foreground_gradient_style: 'horizontal',
  foreground_gradient_one: '#000000',
  foreground_gradient_two: '#000000',
  background_color: '#ffffff',
  background_color_transparency: 0,
  custom_eyes_color: false,
  eyes_inner_color: '#000000',
  eyes_outer_color: '#000000',
  qr_code_logo_size: 25,
  qr_code_background_transparency: 0,
  qr_code_foreground_transparency: 0,
  frame: null as string | null,
  frame_text: '',
  frame_text_size: 0,
  frame_text_font: 'sora',
  frame_custom_colors: false,
  frame_color: '#000000',
  frame_text_color: '#ffffff',
  size: 500,
  margin: 1,
  ecc: 'M',
} satisfies Record<string, unknown>;

export type StyleSettings = typeof STYLE_DEFAULTS;
export type QrSettings = StyleSettings & Record<string, unknown>;

const STYLE_KEYS = Object.keys(STYLE_DEFAULTS) as Array<keyof StyleSettings>;
/** Types whose seed field (`wifi`, `vcard`, …) may carry the whole content as one string. */
const RAW_CONTENT_TYPES = new Set<QrType>([
  'location',
  'wifi',
  'crypto',
  'vcard',
  'paypal',
  'upi',
  'epc',
  'pix',
]);

function pairs(
  labels: string[] | undefined,
  values: string[] | undefined,
  field: string,
): LabelledValue[] {
  const l = labels ?? [];
  const v = values ?? [];
  if (l.length !== v.length) {
    throw new AppError('validation_failed', `${field} needs as many entries as its labels.`, field);
  }
  return v.map((value, i) => ({ label: l[i], value }));
}

/** Codes stored before amounts became decimal strings hold them as JSON numbers. */
function upgradeDecimals(content: Record<string, unknown>): Record<string, unknown> {
  for (const key of DECIMAL_FIELDS) {
    const value = content[key];
    if (typeof value === 'number') {
      content[key] = numberToDecimal(value) ?? undefined;
    }
  }
  return content;
}

/**
 * The new settings of a code: previous ones (on update), then the request's fields. `now` is when
 * the content is written (an event's DTSTAMP).
 */
export function mergeSettings(
  type: QrType,
  previous: Record<string, unknown> | null,
  previousType: string | null,
  dto: Partial<CreateQrCodeDto>,
  now = new Date(),
): { settings: QrSettings; embedded: string } {
  const given = dto as Record<string, unknown>;
  const style: Record<string, unknown> = { ...STYLE_DEFAULTS };
  for (const key of STYLE_KEYS) {
    if (previous && key in previous) {
      style[key] = previous[key];
    }
    if (given[key] !== undefined) {
      style[key] = given[key];
    }
  }
  // Content of the previous type only carries over while the type stays the same.
  const content: Record<string, unknown> =
    previous && previousType === type ? upgradeDecimals({ ...previous }) : {};
  const fields = TYPE_FIELDS[type];
  for (const key of fields) {
    if (given[key] !== undefined) {
      content[key] = given[key];
    }
  }
  if (dto.vcard_phone_number_label !== undefined || dto.vcard_phone_number_value !== undefined) {
    content.vcard_phone_numbers = pairs(
      dto.vcard_phone_number_label,
      dto.vcard_phone_number_value,
      'vcard_phone_number_value',
    );
  }
  if (dto.vcard_social_label !== undefined || dto.vcard_social_value !== undefined) {
    content.vcard_socials = pairs(
      dto.vcard_social_label,
      dto.vcard_social_value,
      'vcard_social_value',
    );
  }
  const kept: Record<string, unknown> = {};
  for (const key of fields) {
    if (content[key] !== undefined) {
      kept[key] = content[key];
    }
  }
  const embedded = embeddedData(type, kept, given[type] ?? content[type], now);
  return {
    settings: { ...(style as StyleSettings), ...kept, [type]: settingValue(type, kept, embedded) },
    embedded,
  };
}

function settingValue(type: QrType, kept: Record<string, unknown>, embedded: string): unknown {
  return type in kept ? kept[type] : embedded;
}

function embeddedData(
  type: QrType,
  fields: Record<string, unknown>,
  raw: unknown,
  now: Date,
): string {
  const structured = TYPE_FIELDS[type].some((k) => k !== type && fields[k] !== undefined);
  if (RAW_CONTENT_TYPES.has(type) && !structured && typeof raw === 'string' && raw !== '') {
    return raw;
  }
  try {
    return encodeContent(type, fields, now);
  } catch (e) {
    if (e instanceof ContentError) {
      throw new AppError('validation_failed', `${e.message}.`, e.field);
    }
    throw e;
  }
}

/**
 * Refuses frame text with characters that the frame font (with its fallbacks) cannot draw, naming
 * them, instead of printing empty boxes.
 */
export function checkFrameText(s: QrSettings): void {
  if (!s.frame || !s.frame_text) {
    return;
  }
  const missing = unsupportedCharacters(s.frame_text, s.frame_text_font as FrameFont);
  if (missing.length > 0) {
    const named = missing
      .map(
        (c) =>
          `"${c}" (${[...c]
            .map(
              (ch) =>
                `U+${(ch.codePointAt(0) as number).toString(16).toUpperCase().padStart(4, '0')}`,
            )
            .join(' ')})`,
      )
      .join(', ');
    throw new AppError(
      'validation_failed',
      `frame_text has characters that the font ${s.frame_text_font} cannot draw: ${named}.`,
      'frame_text',
    );
  }
}

/** Refuses colours that a camera cannot tell apart, or light modules on a dark background. */
export function checkContrast(s: QrSettings): void {
  const background = flattenOnWhite(s.background_color, s.background_color_transparency);
  const dark: Array<[string, string]> =
    s.foreground_type === 'gradient'
      ? [
          ['foreground_gradient_one', s.foreground_gradient_one],
          ['foreground_gradient_two', s.foreground_gradient_two],
        ]
      : [['foreground_color', s.foreground_color]];
  if (s.custom_eyes_color) {
    dark.push(['eyes_inner_color', s.eyes_inner_color], ['eyes_outer_color', s.eyes_outer_color]);
  }
  const problems: Problem[] = [];
  for (const [field, color] of dark) {
    const problem = contrastProblem(color, background);
    if (problem === 'inverted') {
      problems.push({
        field,
        title: `${field} ${color} is lighter than the background ${background}: many phone scanners cannot read light-on-dark codes.`,
      });
    } else if (problem === 'low') {
      const ratio = Math.floor(contrastRatio(color, background) * 100) / 100;
      problems.push({
        field,
        title: `${field} ${color} on the background ${background} has a contrast of ${ratio}:1; a code needs at least ${MIN_CONTRAST}:1 to scan.`,
      });
    }
  }
  if (problems.length > 0) {
    throw new AppError('validation_failed', problems);
  }
}

/**
 * EPC069-12 prescribes error correction M for SEPA codes: another level is refused, not changed,
 * and a logo never raises it (see renderOptions).
 */
export function checkStandardLevel(type: QrType, s: QrSettings): void {
  if (type === 'epc' && s.ecc !== EPC_ECC) {
    throw new AppError(
      'validation_failed',
      `ecc must be ${EPC_ECC} for an epc code: EPC069-12 prescribes error correction ${EPC_ECC}.`,
      'ecc',
    );
  }
}

export interface StoredImages {
  logo: Buffer | null;
  background: Buffer | null;
  foreground: Buffer | null;
}

/** The engine's options for these settings. */
export function renderOptions(
  type: QrType,
  s: QrSettings,
  embedded: string,
  images: StoredImages,
): RenderOptions {
  const banded = s.frame !== null && !textOnBackground(s.frame as FrameName);
  const frameColor = s.frame_custom_colors
    ? s.frame_color
    : s.foreground_type === 'gradient'
      ? s.foreground_gradient_one
      : s.foreground_color;
  return {
    data: embedded,
    ecc: s.ecc as RenderOptions['ecc'],
    size: s.size,
    margin: s.margin,
    style: s.style as RenderOptions['style'],
    innerEyeStyle: s.inner_eye_style as RenderOptions['innerEyeStyle'],
    outerEyeStyle: s.outer_eye_style as RenderOptions['outerEyeStyle'],
    foreground:
      s.foreground_type === 'gradient'
        ? {
            type: 'gradient',
            style: s.foreground_gradient_style as 'horizontal',
            one: s.foreground_gradient_one,
            two: s.foreground_gradient_two,
          }
        : { type: 'color', color: s.foreground_color },
    eyes: s.custom_eyes_color ? { inner: s.eyes_inner_color, outer: s.eyes_outer_color } : null,
    background: { color: s.background_color, transparency: s.background_color_transparency },
    logo: images.logo ? { image: images.logo, size: s.qr_code_logo_size } : null,
    backgroundImage: images.background
      ? { image: images.background, transparency: s.qr_code_background_transparency }
      : null,
    foregroundImage: images.foreground
      ? { image: images.foreground, transparency: s.qr_code_foreground_transparency }
      : null,
    frame: s.frame
      ? {
          name: s.frame as 'straight_bottom_text',
          text: s.frame_text,
          textSize: s.frame_text_size,
          font: s.frame_text_font as 'sora',
          color: frameColor,
          textColor: s.frame_custom_colors ? s.frame_text_color : banded ? '#ffffff' : frameColor,
        }
      : null,
    ...(type === 'epc' ? { fixedSymbol: { maxVersion: EPC_MAX_VERSION } } : {}),
  };
}

/** What the engine could not draw, as the 400 that names the field to change; anything else as is. */
export function renderProblem(type: QrType, e: unknown, hasLogo: boolean): unknown {
  if (e instanceof DataTooLongError) {
    return new AppError(
      'validation_failed',
      `The content of this ${type} code is too long for a QR code with error correction ${e.ecc}${hasLogo ? ' (a logo needs Q or H)' : ''}.`,
      type,
    );
  }
  if (e instanceof VersionTooLargeError) {
    return new AppError(
      'validation_failed',
      `The content of this ${type} code needs a version ${e.version} QR code; EPC069-12 allows version ${e.maxVersion} at most at error correction ${e.ecc} (331 bytes).`,
      type,
    );
  }
  if (e instanceof LogoTooLargeError) {
    const fits =
      e.largestSize === null
        ? 'no logo fits this content'
        : `a qr_code_logo_size of ${e.largestSize} or less fits this content`;
    return new AppError(
      'validation_failed',
      `qr_code_logo_size is too large for an ${type} code: EPC069-12 fixes error correction ${e.ecc}, which cannot spare the modules the logo covers; ${fits}.`,
      'qr_code_logo_size',
    );
  }
  return e;
}
