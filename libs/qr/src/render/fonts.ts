import { readFileSync } from 'node:fs';
import { parse, type Font, type Glyph } from 'opentype.js';
import { lru } from './cache';
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

/**
 * Glyphs of a line, one per code point, with kerning. opentype.js's own shaping (getPath) throws on
 * some GSUB lookups of these fonts (Gelasio's ccmp), and a frame label needs no shaping.
 */
function glyphRun(f: Font, text: string, size: number): { glyphs: Glyph[]; advances: number[] } {
  const scale = size / f.unitsPerEm;
  const glyphs = Array.from(text, (ch) => f.charToGlyph(ch));
  const advances = glyphs.map((g, i) => {
    const kern = i + 1 < glyphs.length ? f.getKerningValue(g, glyphs[i + 1]) : 0;
    return ((g.advanceWidth ?? 0) + kern) * scale;
  });
  return { glyphs, advances };
}

const paths = lru<string>(64);

/** SVG path data of one line of text centred in the box, shrunk to fit its width. */
export function textPath(
  text: string,
  font: FrameFont,
  fontSize: number,
  box: { x: number; y: number; w: number; h: number },
): string {
  const key = JSON.stringify([text, font, fontSize, box.x, box.y, box.w, box.h]);
  let d = paths.get(key);
  if (d === undefined) {
    d = outline(text, font, fontSize, box);
    paths.set(key, d);
  }
  return d;
}

function outline(
  text: string,
  font: FrameFont,
  fontSize: number,
  box: { x: number; y: number; w: number; h: number },
): string {
  const f = loadFont(font);
  const width = (size: number): number =>
    glyphRun(f, text, size).advances.reduce((a, b) => a + b, 0);
  let size = fontSize;
  const maxWidth = box.w * 0.9;
  const natural = width(size);
  if (natural > maxWidth) {
    size = (size * maxWidth) / natural;
  }
  const { glyphs, advances } = glyphRun(f, text, size);
  const total = advances.reduce((a, b) => a + b, 0);
  const ascent = (f.ascender / f.unitsPerEm) * size;
  const descent = (-f.descender / f.unitsPerEm) * size;
  const baseline = box.y + box.h / 2 + (ascent - descent) / 2;
  let x = box.x + (box.w - total) / 2;
  return glyphs
    .map((g, i) => {
      const d = g.getPath(x, baseline, size).toPathData(2);
      x += advances[i];
      return d;
    })
    .join('');
}
