import bidiFactory from 'bidi-js';
import type { Font } from 'opentype.js';
import { hbFont, hbShape } from './harfbuzz';

/** One font file: opentype.js reads its cmap, metrics and outlines, HarfBuzz shapes with it. */
export interface FontFace {
  file: string;
  font: Font;
  sfnt: Uint8Array;
  /** The HarfBuzz font, made on first use. */
  hb: number | null;
}

/** A glyph placed on the line, in em: x from the line's left end, y up from the baseline. */
export interface PlacedGlyph {
  face: FontFace;
  gid: number;
  /** The UTF-16 index in the line of the first character the glyph draws. */
  cluster: number;
  x: number;
  y: number;
}

/** Code points that draw nothing by definition (joiners, marks of direction, selectors, BOM). */
export function ignorable(cp: number): boolean {
  return (
    (cp >= 0x200b && cp <= 0x200f) ||
    (cp >= 0xfe00 && cp <= 0xfe0f) ||
    cp === 0xfeff ||
    (cp >= 0xe0100 && cp <= 0xe01ef)
  );
}

/** Scripts told apart when splitting a line into runs (ISO 15924, HarfBuzz's script tags). */
const SCRIPTS: Array<[string, RegExp]> = [
  ['Latn', /\p{Script=Latin}/u],
  ['Grek', /\p{Script=Greek}/u],
  ['Cyrl', /\p{Script=Cyrillic}/u],
  ['Arab', /\p{Script=Arabic}/u],
  ['Hebr', /\p{Script=Hebrew}/u],
  ['Deva', /\p{Script=Devanagari}/u],
  ['Thai', /\p{Script=Thai}/u],
  ['Hani', /\p{Script=Han}/u],
  ['Hira', /\p{Script=Hiragana}/u],
  ['Kana', /\p{Script=Katakana}/u],
  ['Hang', /\p{Script=Hangul}/u],
];
const COMMON = /[\p{Script=Common}\p{Script=Inherited}]/u;

/** The script of a character; null for Common and Inherited, which take their neighbours'. */
function scriptOf(ch: string): string | null {
  if (COMMON.test(ch)) {
    return null;
  }
  return SCRIPTS.find(([, re]) => re.test(ch))?.[0] ?? 'Zzzz';
}

const hasGlyph = (face: FontFace, ch: string): boolean => face.font.charToGlyphIndex(ch) > 0;

/** A generic combining diacritic (U+0300…, script Inherited): drawn on the base before it. */
const DIACRITIC = /^(?=\p{Mn})\p{Script=Inherited}$/u;

/**
 * The base character at `i` and the combining diacritics that follow it, when there are any:
 * the cluster a mark-carrying grapheme is drawn from. Marks of a script's own (Hebrew points,
 * Indic vowel signs, Thai marks) are left to the script's run and its shaper.
 */
export function diacriticCluster(text: string, i: number): string | null {
  const base = String.fromCodePoint(text.codePointAt(i) as number);
  if (DIACRITIC.test(base)) {
    return null;
  }
  let end = i + base.length;
  while (end < text.length) {
    const ch = String.fromCodePoint(text.codePointAt(end) as number);
    if (!DIACRITIC.test(ch)) {
      break;
    }
    end += ch.length;
  }
  return end > i + base.length ? text.slice(i, end) : null;
}

/**
 * Whether a face draws every code point of a cluster and puts each mark over its base: either
 * HarfBuzz shapes the cluster as one glyph (a precomposed form), or the ink of every mark glyph
 * is centred within the advance of the base glyph (the widest one). A font with no mark
 * positioning leaves a spacing mark after its base, which fails the second test.
 */
export function placesMarks(face: FontFace, cluster: string): boolean {
  if (![...cluster].every((ch) => hasGlyph(face, ch))) {
    return false;
  }
  face.hb ??= hbFont(face.sfnt);
  const shaped = hbShape(face.hb, cluster, false, null);
  if (shaped.length === 1) {
    return true;
  }
  let pen = 0;
  const placed = shaped.map((g) => {
    const at = { gid: g.gid, x: pen + g.xOffset, advance: g.xAdvance };
    pen += g.xAdvance;
    return at;
  });
  const base = placed.reduce((a, b) => (b.advance > a.advance ? b : a));
  if (base.advance <= 0) {
    return false;
  }
  return placed
    .filter((g) => g !== base)
    .every((mark) => {
      const glyph = face.font.glyphs.get(mark.gid);
      const box = glyph.getBoundingBox();
      const centre = mark.x + (box.x1 + box.x2) / 2;
      return centre > base.x && centre < base.x + base.advance;
    });
}

interface Run {
  start: number;
  end: number;
  level: number;
  face: FontFace;
  script: string | null;
  /** A run of one cluster in a fallback font: nothing more joins it. */
  sealed?: boolean;
}

const bidi = bidiFactory();

/**
 * The runs of a line in logical order: stretches of one bidi level (UAX #9), one script and one
 * font file. A character goes to the first font of the chain (`lookup`) that has it, except that
 * marks, joiners, spaces and punctuation, and letters of the script in hand, stay in the current
 * run's font when it has them: a word is shaped in one font, a mark on its base.
 */
function itemise(
  text: string,
  lookup: (cp: number) => FontFace | null,
  clusterFace: (cluster: string) => FontFace | null,
): { runs: Run[]; missing: string[] } {
  const { levels } = bidi.getEmbeddingLevels(text, 'auto');
  const runs: Run[] = [];
  const missing: string[] = [];
  for (let i = 0; i < text.length;) {
    const cp = text.codePointAt(i) as number;
    const ch = String.fromCodePoint(cp);
    const next = i + ch.length;
    const level = levels[i];
    const script = scriptOf(ch);
    const cur = runs[runs.length - 1];
    const fits =
      cur !== undefined &&
      !cur.sealed &&
      cur.level === level &&
      (script === null || cur.script === null || cur.script === script);
    const cluster = diacriticCluster(text, i);
    if (cluster !== null) {
      // A base with diacritics: the whole cluster in the first font that places its marks.
      const end = i + cluster.length;
      const face = clusterFace(cluster);
      if (!face) {
        if (!missing.includes(cluster)) {
          missing.push(cluster);
        }
      } else if (fits && cur.face === face) {
        cur.end = end;
        cur.script ??= script;
      } else {
        // A fallback font holds this cluster only: the next letter goes back to its own font.
        const sealed = face !== lookup(cp);
        runs.push({ start: i, end, level, face, script, sealed });
      }
      i = end;
      continue;
    }
    if (fits && (ignorable(cp) || hasGlyph(cur.face, ch))) {
      cur.end = next;
      cur.script ??= script;
    } else if (ignorable(cp)) {
      // Nothing to draw and no run to join: dropped.
    } else {
      const face = lookup(cp);
      if (!face) {
        if (!missing.includes(ch)) {
          missing.push(ch);
        }
      } else if (fits && cur.face === face) {
        cur.end = next;
        cur.script ??= script;
      } else {
        runs.push({ start: i, end: next, level, face, script });
      }
    }
    i = next;
  }
  return { runs, missing };
}

/** UAX #9 rule L2 on runs: from the highest level down to the lowest odd one, reverse. */
function visualOrder(runs: Run[]): Run[] {
  const out = [...runs];
  const max = Math.max(0, ...out.map((r) => r.level));
  const lowestOdd = Math.min(...out.map((r) => r.level | 1));
  for (let level = max; level >= lowestOdd; level--) {
    for (let i = 0; i < out.length;) {
      if (out[i].level < level) {
        i++;
        continue;
      }
      let j = i;
      while (j < out.length && out[j].level >= level) {
        j++;
      }
      out.splice(i, j - i, ...out.slice(i, j).reverse());
      i = j;
    }
  }
  return out;
}

/**
 * A line of text shaped as a native reader expects it: split into runs, each run shaped by
 * HarfBuzz in its direction and script (with the whole line as context, so Arabic letters join
 * across a change of font), the runs laid out in visual order. Returns the glyphs, the line's
 * width in em, and the characters no font of the chain has.
 */
export function shapeLine(
  text: string,
  lookup: (cp: number) => FontFace | null,
  clusterFace: (cluster: string) => FontFace | null,
): { glyphs: PlacedGlyph[]; width: number; missing: string[] } {
  const { runs, missing } = itemise(text, lookup, clusterFace);
  const glyphs: PlacedGlyph[] = [];
  let pen = 0;
  for (const run of visualOrder(runs)) {
    const { face } = run;
    face.hb ??= hbFont(face.sfnt);
    const upem = face.font.unitsPerEm;
    const rtl = run.level % 2 === 1;
    const script = run.script === 'Zzzz' ? null : run.script;
    for (const g of hbShape(face.hb, text, rtl, script, run.start, run.end - run.start)) {
      glyphs.push({
        face,
        gid: g.gid,
        cluster: g.cluster,
        x: pen + g.xOffset / upem,
        y: g.yOffset / upem,
      });
      pen += g.xAdvance / upem;
    }
  }
  return { glyphs, width: pen, missing };
}
