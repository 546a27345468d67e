import { readFileSync } from 'node:fs';
import { parse, type Font } from 'opentype.js';
import { FrameFont } from './options';

/**
 * Frame fonts come from @fontsource packages (SIL OFL 1.1) and load from node_modules, so text is
 * turned into the same outlines on every machine. Names the origin uses for system fonts map to a
 * metric-compatible or look-alike open font.
 */
const FONT_FILES: Record<FrameFont, string> = {
  sora: '@fontsource/sora/files/sora-latin-700-normal.woff',
  times_new_roman: '@fontsource/tinos/files/tinos-latin-700-normal.woff',
  georgia: '@fontsource/gelasio/files/gelasio-latin-700-normal.woff',
  courier: '@fontsource/cousine/files/cousine-latin-700-normal.woff',
  arial: '@fontsource/arimo/files/arimo-latin-700-normal.woff',
  helvetica: '@fontsource/arimo/files/arimo-latin-700-normal.woff',
  verdana: '@fontsource/dejavu-sans/files/dejavu-sans-latin-700-normal.woff',
  tahoma: '@fontsource/noto-sans/files/noto-sans-latin-700-normal.woff',
};

const loaded = new Map<FrameFont, Font>();

export function loadFont(name: FrameFont): Font {
  let font = loaded.get(name);
  if (!font) {
    const bytes = readFileSync(require.resolve(FONT_FILES[name]));
    font = parse(bytes.buffer.slice(bytes.byteOffset, bytes.byteOffset + bytes.byteLength));
    loaded.set(name, font);
  }
  return font;
}

/** SVG path data of one line of text centred in the box, shrunk to fit its width. */
export function textPath(
  text: string,
  font: FrameFont,
  fontSize: number,
  box: { x: number; y: number; w: number; h: number },
): string {
  const f = loadFont(font);
  let size = fontSize;
  const maxWidth = box.w * 0.9;
  const width = f.getAdvanceWidth(text, size);
  if (width > maxWidth) {
    size = (size * maxWidth) / width;
  }
  const advance = f.getAdvanceWidth(text, size);
  const ascent = (f.ascender / f.unitsPerEm) * size;
  const descent = (-f.descender / f.unitsPerEm) * size;
  const baseline = box.y + box.h / 2 + (ascent - descent) / 2;
  return f.getPath(text, box.x + (box.w - advance) / 2, baseline, size).toPathData(2);
}
