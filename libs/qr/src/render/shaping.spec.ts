import { execFileSync } from 'node:child_process';
import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { shapeFrameText, unsupportedCharacters, UnsupportedCharactersError } from './fonts';
import { FRAME_FONTS, FrameFont } from './options';
import { placesMarks, type PlacedGlyph } from './shaping';

/** Words a native reader must see drawn as their script is written. */
const WORDS = {
  hebrew: 'סרוק אותי',
  arabic: 'امسح الرمز',
  hindi: 'हिन्दी',
  scan: 'स्कैन करें',
  thai: 'สแกนเลย',
  mark: 'Ŝ̈',
};

interface OracleGlyph {
  g: number;
  cl: number;
  ax: number;
  dx: number;
  dy: number;
}

/**
 * HarfBuzz's own output for each word, in the font file the engine chose, through harfbuzzjs's
 * published API in a Node process of its own (scripts/hb-shape-oracle.mjs): direction, script
 * and language guessed by HarfBuzz from the text, the whole word one buffer.
 */
function oracle(requests: Array<{ font: string; text: string }>): OracleGlyph[][] {
  const out = execFileSync(
    process.execPath,
    [join(__dirname, '../../../../scripts/hb-shape-oracle.mjs')],
    {
      input: JSON.stringify(requests),
      maxBuffer: 64 << 20,
    },
  );
  return JSON.parse(out.toString()) as OracleGlyph[][];
}

const nominal = (g: PlacedGlyph, ch: string): number => g.face.font.charToGlyphIndex(ch);

describe('shapeFrameText', () => {
  const dir = mkdtempSync(join(tmpdir(), 'shaping-'));
  afterAll(() => rmSync(dir, { recursive: true, force: true }));

  it('draws every word in every font exactly as HarfBuzz shapes it: glyph ids, order, positions', () => {
    const all = FRAME_FONTS.flatMap((font) =>
      Object.entries(WORDS).map(([word, text]) => ({
        font,
        word,
        text,
        ...shapeFrameText(text, font),
      })),
    );
    // Every word is one font file (Ŝ̈ the one that places its mark): the oracle shapes in it.
    const split = all.filter((c) => new Set(c.glyphs.map((g) => g.face.file)).size > 1);
    expect(split.map((c) => `${c.font} ${c.word}`)).toEqual([]);
    const cases = all.filter((c) => !split.includes(c));
    const paths = new Map<string, string>();
    for (const c of cases) {
      const face = c.glyphs[0].face;
      if (!paths.has(face.file)) {
        const path = join(dir, `${paths.size}.ttf`);
        writeFileSync(path, face.sfnt);
        paths.set(face.file, path);
      }
    }
    const expected = oracle(
      cases.map((c) => ({ font: paths.get(c.glyphs[0].face.file) as string, text: c.text })),
    );
    const wrong = cases.filter((c, i) => {
      const upem = c.glyphs[0].face.font.unitsPerEm;
      let pen = 0;
      const want = expected[i].map((g) => {
        const placed = { gid: g.g, cluster: g.cl, x: (pen + g.dx) / upem, y: g.dy / upem };
        pen += g.ax;
        return placed;
      });
      const near = (p: number, q: number): boolean => Math.abs(p - q) < 1e-9;
      const same =
        c.glyphs.length === want.length &&
        c.glyphs.every(
          (g, k) =>
            g.gid === want[k].gid &&
            g.cluster === want[k].cluster &&
            near(g.x, want[k].x) &&
            near(g.y, want[k].y),
        );
      return !same || !near(c.width, pen / upem);
    });
    expect(wrong.map((c) => `${c.font} ${c.word}`)).toEqual([]);
  });

  it.each(['arial', 'verdana', 'tahoma'] as FrameFont[])(
    'lays Hebrew out right to left (%s)',
    (font) => {
      const { glyphs } = shapeFrameText(WORDS.hebrew, font);
      // No ligatures in this word: the glyphs, left to right, are the letters last to first.
      expect(glyphs.map((g) => g.gid)).toEqual(
        [...WORDS.hebrew].reverse().map((ch) => nominal(glyphs[0], ch)),
      );
    },
  );

  it.each(['arial', 'verdana', 'sora'] as FrameFont[])(
    'joins Arabic letters and lays them out right to left (%s)',
    (font) => {
      const text = WORDS.arabic;
      const { glyphs } = shapeFrameText(text, font);
      // Left to right on the line is last to first in the text.
      const clusters = glyphs.map((g) => g.cluster);
      expect(clusters).toEqual([...clusters].sort((a, b) => b - a));
      // ا م س ح ␠ ا ل ر م ز: alef joins nothing on its left, so م and ل begin a joined run, س is
      // medial, and ح, ر and ز end one; each of those takes a joined form, not its isolated glyph.
      // (DejaVu Sans draws two of them as one ligature, one glyph for two clusters.)
      const joined = [1, 2, 3, 7, 8, 9, 10];
      const isolated = glyphs
        .filter((g) => joined.includes(g.cluster))
        .map((g) => g.gid === nominal(g, text[g.cluster]));
      expect(isolated.length).toBeGreaterThanOrEqual(joined.length - 1);
      expect(isolated.every((nominalGlyph) => !nominalGlyph)).toBe(true);
      // The alefs stand alone: their isolated glyph.
      for (const at of [0, 5]) {
        const alef = glyphs.find((g) => g.cluster === at) as PlacedGlyph;
        expect(alef.gid).toBe(nominal(alef, text[at]));
      }
    },
  );

  it.each(FRAME_FONTS)('shapes Devanagari: ि before its consonant, no bare virama (%s)', (font) => {
    const hindi = shapeFrameText(WORDS.hindi, font).glyphs;
    // हि: the vowel sign is drawn first (left of ह), both in the first cluster.
    expect(hindi[0].cluster).toBe(0);
    expect(hindi[0].gid).not.toBe(nominal(hindi[0], 'ह'));
    expect(hindi[1].gid).toBe(nominal(hindi[1], 'ह'));
    // न्द and स्क become conjuncts (half forms): no virama glyph is left on its own.
    for (const text of [WORDS.hindi, WORDS.scan]) {
      const { glyphs } = shapeFrameText(text, font);
      expect(glyphs.filter((g) => g.gid === nominal(g, '\u094d'))).toEqual([]);
    }
  });

  /**
   * Cousine and DejaVu Sans Mono have U+0308 but no mark attachment (HarfBuzz leaves the mark
   * between the cells); Anton, Dancing Script and MedievalSharp have no U+0308. Their Ŝ̈ is drawn
   * in the first font of the chain that places the mark; the next letter is back in their own.
   */
  const MARK_ELSEWHERE: FrameFont[] = [
    'courier_new',
    'courier',
    'monaco',
    'impact',
    'brush_script_mt',
    'luminari',
  ];
  it.each(FRAME_FONTS)('draws Ŝ̈ in one font that places its mark (%s)', (font) => {
    const { glyphs } = shapeFrameText(`${WORDS.mark}a`, font);
    const a = glyphs.find((g) => g.cluster === WORDS.mark.length) as PlacedGlyph;
    const cluster = glyphs.filter((g) => g !== a);
    expect(new Set(cluster.map((g) => g.face)).size).toBe(1);
    const face = cluster[0].face;
    expect(placesMarks(face, WORDS.mark)).toBe(true);
    // The file the chain gives Ŝ alone: the font's own (or its fallback's, for Comic Neue).
    const own = shapeFrameText(WORDS.mark[0], font).glyphs[0].face;
    expect(face === own).toBe(!MARK_ELSEWHERE.includes(font));
    expect(placesMarks(own, WORDS.mark)).toBe(!MARK_ELSEWHERE.includes(font));
    expect(unsupportedCharacters(`${WORDS.mark}a`, font)).toEqual([]);
  });

  it('refuses a cluster whose mark no font of the chain places on its base', () => {
    // A diaeresis on an Arabic letter: Noto Sans Arabic has no U+0308, Noto Sans no Arabic.
    expect(unsupportedCharacters('\u0634\u0308', 'arial')).toEqual(['\u0634\u0308']);
    expect(() => shapeFrameText('\u0634\u0308', 'arial')).toThrow(UnsupportedCharactersError);
  });

  it.each(FRAME_FONTS)('puts a combining mark on its base, not on the next letter (%s)', (font) => {
    const { glyphs } = shapeFrameText(`${WORDS.mark}a`, font);
    const a = glyphs.find((g) => g.cluster === WORDS.mark.length) as PlacedGlyph;
    const marks = glyphs.filter((g) => g !== a && g.x > 0);
    expect(marks.length).toBeGreaterThan(0);
    for (const m of marks) {
      const box = m.face.font.glyphs.get(m.gid).getBoundingBox();
      const centre = m.x + (box.x1 + box.x2) / 2 / m.face.font.unitsPerEm;
      // The mark's middle lies over Ŝ, left of where a begins.
      expect(centre).toBeLessThan(a.x);
    }
  });
});
