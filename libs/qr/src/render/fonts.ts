import { readFileSync } from 'node:fs';
import { dirname, join } from 'node:path';
import { inflateSync } from 'node:zlib';
import { parse } from 'opentype.js';
import { lru } from './cache';
import { FrameFont } from './options';
import { diacriticCluster, FontFace, ignorable, placesMarks, shapeLine } from './shaping';

/**
 * Frame fonts come from @fontsource packages (SIL OFL 1.1) and load from node_modules, so text is
 * turned into the same outlines on every machine. Names the origin uses for system fonts map to a
 * metric-compatible or look-alike open font. Each name is a chain: a character the first family
 * does not have comes from the next one. Noto Sans covers Latin Extended, Cyrillic, Greek and
 * Vietnamese; Noto Sans SC covers CJK ideographs, kana, full-width forms and many symbols; Noto
 * Sans KR covers Hangul (all 11,172 syllables and the compatibility jamo). SC goes before KR so
 * that Chinese text takes Chinese glyph forms; the 18 compatibility jamo SC also has are the same
 * Source Han Sans design in both, so a Korean word does not change style halfway. Before them, for
 * the scripts that need shaping, the Noto font of each script (its script's subset alone, `family/
 * subset`): a frame font without Arabic, Hebrew, Devanagari or Thai draws them in Noto Sans
 * Arabic, Hebrew, Devanagari or Thai, whose tables HarfBuzz shapes them with (shaping.ts).
 */
const FALLBACK = [
  'noto-sans-arabic/arabic',
  'noto-sans-hebrew/hebrew',
  'noto-sans-devanagari/devanagari',
  'noto-sans-thai/thai',
  'noto-sans',
  'noto-sans-sc',
  'noto-sans-kr',
];

const FONT_CHAINS: Record<FrameFont, string[]> = {
  sora: ['sora', ...FALLBACK],
  // Tinos, Cousine and Arimo are metric-compatible with Times New Roman, Courier New and Arial.
  times_new_roman: ['tinos', ...FALLBACK],
  georgia: ['gelasio', ...FALLBACK],
  courier: ['cousine', ...FALLBACK],
  courier_new: ['cousine', ...FALLBACK],
  arial: ['arimo', ...FALLBACK],
  helvetica: ['arimo', ...FALLBACK],
  // DejaVu Sans (Bitstream Vera) has Verdana's wide letters and tall x-height. Its package ships
  // one file, the whole font, Cyrillic and Greek included; Noto Sans adds what it lacks.
  verdana: ['dejavu-sans', ...FALLBACK],
  // Tahoma is a narrow Verdana; no open condensed look-alike is packaged, Noto Sans is near.
  tahoma: [...FALLBACK],
  // Fira Sans: a humanist sans of Trebuchet's build, with its own Cyrillic and Greek.
  trebuchet_ms: ['fira-sans', ...FALLBACK],
  // Apple replaced Monaco with Menlo, which is DejaVu Sans Mono: the nearest open look.
  monaco: ['dejavu-mono', ...FALLBACK],
  // Comic Neue, Libre Baskerville, MedievalSharp, Dancing Script and Anton are Latin only (Comic
  // Neue not even Latin Extended): other letters come from the Noto fonts behind them.
  comic_sans_ms: ['comic-neue', ...FALLBACK],
  impact: ['anton', ...FALLBACK],
  luminari: ['medievalsharp', ...FALLBACK],
  baskerville: ['libre-baskerville', ...FALLBACK],
  brush_script_mt: ['dancing-script', ...FALLBACK],
  // Papyrus, a proprietary rough-edged display face, has no open look-alike in @fontsource; a
  // plain serif (Gelasio) keeps the text legible rather than imitating it badly.
  papyrus: ['gelasio', ...FALLBACK],
};

/**
 * Frame text is bold. Anton and MedievalSharp ship one weight (400, Anton's is already heavy), so
 * each family takes the weight its package ships that is nearest to bold.
 */
const BOLD = 700;

function weightOf(root: string): number {
  const { weights } = JSON.parse(readFileSync(join(root, 'metadata.json'), 'utf8')) as {
    weights: number[];
  };
  return weights.reduce((best, w) => (Math.abs(w - BOLD) < Math.abs(best - BOLD) ? w : best));
}

/** A family's subset files and the code points each declares (its CSS unicode-range). */
interface Subset {
  file: string;
  ranges: Array<[number, number]>;
}

const subsetsOf = new Map<string, Subset[]>();

/** The subset files of a chain entry: a family, or `family/subset` for one of its subsets. */
function familySubsets(entry: string): Subset[] {
  let subsets = subsetsOf.get(entry);
  if (subsets) {
    return subsets;
  }
  const [family, only] = entry.split('/');
  const root = dirname(require.resolve(`@fontsource/${family}/package.json`));
  const declared = JSON.parse(readFileSync(join(root, 'unicode.json'), 'utf8')) as Record<
    string,
    string
  >;
  const weight = weightOf(root);
  const file = (key: string): string =>
    join(root, 'files', `${family}-${key.replace(/[[\]]/g, '')}-${weight}-normal.woff`);
  subsets = Object.entries(declared)
    .filter(([key]) => only === undefined || key === only)
    .map(([key, ranges]) => ({
      file: file(key),
      ranges: ranges.split(',').map((r): [number, number] => {
        const [a, b] = r.trim().replace(/^U\+/i, '').split('-');
        return [parseInt(a, 16), parseInt(b ?? a, 16)];
      }),
    }));
  if (subsets.length === 0) {
    // A package that ships one subset without declaring its range: its cmap says what it has.
    subsets = [{ file: file('latin'), ranges: [[0, 0x10ffff]] }];
  }
  subsetsOf.set(entry, subsets);
  return subsets;
}

/**
 * A WOFF 1.0 file as the sfnt it wraps (W3C WOFF: a table directory, then each table zlib-
 * compressed unless that would not shrink it). opentype.js's own inflater rejects some of the
 * Noto Sans SC subsets; node's zlib reads them all.
 */
function woffToSfnt(woff: Buffer): Buffer {
  const count = woff.readUInt16BE(12);
  const tables = Array.from({ length: count }, (_, i) => {
    const o = 44 + i * 20;
    return {
      tag: woff.readUInt32BE(o),
      offset: woff.readUInt32BE(o + 4),
      compLength: woff.readUInt32BE(o + 8),
      origLength: woff.readUInt32BE(o + 12),
      checksum: woff.readUInt32BE(o + 16),
    };
  });
  const head = 12 + 16 * count;
  const size = tables.reduce((s, t) => s + ((t.origLength + 3) & ~3), head);
  const out = Buffer.alloc(size);
  out.writeUInt32BE(woff.readUInt32BE(4), 0);
  out.writeUInt16BE(count, 4);
  const power = 2 ** Math.floor(Math.log2(count));
  out.writeUInt16BE(power * 16, 6);
  out.writeUInt16BE(Math.log2(power), 8);
  out.writeUInt16BE(count * 16 - power * 16, 10);
  let at = head;
  tables.forEach((t, i) => {
    const raw = woff.subarray(t.offset, t.offset + t.compLength);
    const data = t.compLength < t.origLength ? inflateSync(raw) : raw;
    const r = 12 + i * 16;
    out.writeUInt32BE(t.tag, r);
    out.writeUInt32BE(t.checksum, r + 4);
    out.writeUInt32BE(at, r + 8);
    out.writeUInt32BE(t.origLength, r + 12);
    data.copy(out, at);
    at += (t.origLength + 3) & ~3;
  });
  return out;
}

const files = new Map<string, FontFace>();

function loadFile(file: string): FontFace {
  let face = files.get(file);
  if (!face) {
    const sfnt = woffToSfnt(readFileSync(file));
    const font = parse(sfnt.buffer.slice(sfnt.byteOffset, sfnt.byteOffset + sfnt.byteLength));
    face = { file, font, sfnt, hb: null };
    files.set(file, face);
  }
  return face;
}

/** The first font file of the chain that has a glyph for the code point. */
function faceFor(chain: string[], cp: number): FontFace | null {
  const ch = String.fromCodePoint(cp);
  for (const family of chain) {
    for (const subset of familySubsets(family)) {
      if (!subset.ranges.some(([a, b]) => cp >= a && cp <= b)) {
        continue;
      }
      const face = loadFile(subset.file);
      if (face.font.charToGlyphIndex(ch) > 0) {
        return face;
      }
    }
  }
  return null;
}

/**
 * The first font file of the chain that draws every code point of a cluster of a base and its
 * diacritics and places the marks over the base (see placesMarks).
 */
function faceForCluster(chain: string[], cluster: string): FontFace | null {
  const cps = [...cluster].map((ch) => ch.codePointAt(0) as number);
  for (const family of chain) {
    for (const subset of familySubsets(family)) {
      if (!cps.every((cp) => subset.ranges.some(([a, b]) => cp >= a && cp <= b))) {
        continue;
      }
      const face = loadFile(subset.file);
      if (placesMarks(face, cluster)) {
        return face;
      }
    }
  }
  return null;
}

/** The frame text has characters that none of the font's families can draw. */
export class UnsupportedCharactersError extends Error {
  constructor(
    readonly characters: string[],
    readonly font: FrameFont,
  ) {
    super(`The frame font ${font} cannot draw ${characters.join(' ')}`);
    this.name = 'UnsupportedCharactersError';
  }
}

/** The distinct characters of `text` that the font cannot draw, in order of appearance. */
export function unsupportedCharacters(text: string, font: FrameFont): string[] {
  const missing = new Set<string>();
  const chain = FONT_CHAINS[font];
  for (let i = 0; i < text.length;) {
    const cluster = diacriticCluster(text, i);
    if (cluster !== null) {
      if (!faceForCluster(chain, cluster)) {
        missing.add(cluster);
      }
      i += cluster.length;
      continue;
    }
    const cp = text.codePointAt(i) as number;
    if (!ignorable(cp) && !faceFor(chain, cp)) {
      missing.add(String.fromCodePoint(cp));
    }
    i += String.fromCodePoint(cp).length;
  }
  return [...missing];
}

/** The glyphs of one line of text in a frame font, shaped (see shapeLine), and its width in em. */
export function shapeFrameText(text: string, font: FrameFont): ReturnType<typeof shapeLine> {
  const chain = FONT_CHAINS[font];
  const shaped = shapeLine(
    text,
    (cp) => faceFor(chain, cp),
    (cluster) => faceForCluster(chain, cluster),
  );
  if (shaped.missing.length > 0) {
    throw new UnsupportedCharactersError(shaped.missing, font);
  }
  return shaped;
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
  const { glyphs, width } = shapeFrameText(text, font);
  const size = Math.min(fontSize, (box.w * 0.9) / Math.max(width, 1e-9));
  // The first family's metrics place the baseline, whichever family each glyph comes from.
  const primary = loadFile(familySubsets(FONT_CHAINS[font][0])[0].file).font;
  const ascent = (primary.ascender / primary.unitsPerEm) * size;
  const descent = (-primary.descender / primary.unitsPerEm) * size;
  const baseline = box.y + box.h / 2 + (ascent - descent) / 2;
  const left = box.x + (box.w - width * size) / 2;
  return glyphs
    .map(({ face, gid, x, y }) =>
      face.font.glyphs
        .get(gid)
        .getPath(left + x * size, baseline - y * size, size)
        .toPathData(2),
    )
    .join('');
}
