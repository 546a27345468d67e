import { textPath, UnsupportedCharactersError, unsupportedCharacters } from './fonts';
import { FRAME_FONTS } from './options';

/** Text in the scripts a frame must draw: Latin Extended, Cyrillic, Greek, CJK and symbols. */
const SAMPLES = {
  latinExtended: 'Zażółć gęślą jaźń · Øresund · Şişli · Nguyễn',
  cyrillic: 'Сканируй меня · Ґанок · Ђорђе',
  greek: 'Σάρωσέ με',
  chinese: '扫码点餐',
  japanese: 'スキャンしてね',
  symbols: '€ £ ¥ № ™ → ✓',
};

describe('textPath', () => {
  it.each(FRAME_FONTS)('outlines text in %s, centred in its box and shrunk to fit', (font) => {
    const box = { x: 10, y: 20, w: 300, h: 60 };
    const d = textPath('Scan me · Ünïcödé 123 fi ff', font, 30, box);
    expect(d).toMatch(/^M[\d.-]+ [\d.-]+/);
    const xs = [...d.matchAll(/[MLQCZ]?(-?\d+(?:\.\d+)?) (-?\d+(?:\.\d+)?)/g)].map((m) =>
      Number(m[1]),
    );
    expect(Math.min(...xs)).toBeGreaterThanOrEqual(box.x);
    expect(Math.max(...xs)).toBeLessThanOrEqual(box.x + box.w);
  });

  it('maps arial and helvetica to the same open font and sora to another', () => {
    const box = { x: 0, y: 0, w: 200, h: 40 };
    expect(textPath('Menu', 'arial', 20, box)).toBe(textPath('Menu', 'helvetica', 20, box));
    expect(textPath('Menu', 'sora', 20, box)).not.toBe(textPath('Menu', 'arial', 20, box));
  });

  it.each(FRAME_FONTS)('draws Latin Extended, Cyrillic, Greek, CJK and symbols in %s', (font) => {
    expect(
      Object.fromEntries(
        Object.entries(SAMPLES).map(([script, text]) => [
          script,
          unsupportedCharacters(text, font),
        ]),
      ),
    ).toEqual({
      latinExtended: [],
      cyrillic: [],
      greek: [],
      chinese: [],
      japanese: [],
      symbols: [],
    });
  });

  it('draws a different outline for every letter, never one shared box', () => {
    // A font without the glyph draws .notdef, the same box for every missing letter: 'Жы' and
    // 'Ыж' would give the same two boxes in swapped order, i.e. the same path.
    const box = { x: 0, y: 0, w: 400, h: 40 };
    for (const [a, b] of [
      ['Ж', 'ы'],
      ['ą', 'ł'],
      ['Σ', 'λ'],
      ['扫', '码'],
    ]) {
      const one = textPath(a, 'sora', 20, box);
      const two = textPath(b, 'sora', 20, box);
      expect(one).not.toBe(two);
    }
  });

  it('names the characters no font of the chain has, and draws none of them', () => {
    expect(unsupportedCharacters('Hi 한국어 ok 한', 'times_new_roman')).toEqual(['한', '국', '어']);
    const box = { x: 0, y: 0, w: 200, h: 40 };
    expect(() => textPath('Hi 한국', 'arial', 20, box)).toThrow(UnsupportedCharactersError);
    try {
      textPath('Hi 한국', 'arial', 20, box);
    } catch (e) {
      expect((e as UnsupportedCharactersError).characters).toEqual(['한', '국']);
    }
  });
});
