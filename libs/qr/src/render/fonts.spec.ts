import { readStraight } from '../readability';
import { textPath, UnsupportedCharactersError, unsupportedCharacters } from './fonts';
import { prepareRasterImages } from './images';
import { layout } from './layout';
import { FRAME_FONTS } from './options';
import { plainOptions } from './plain-options';
import { rasterize } from './raster';

/**
 * Text in the scripts a frame must draw: Latin Extended, Cyrillic, Greek, CJK, Hangul, symbols,
 * and the scripts that need shaping (see shaping.spec.ts for how they are drawn).
 */
const SAMPLES = {
  latinExtended: 'Zażółć gęślą jaźń · Øresund · Şişli · Nguyễn',
  cyrillic: 'Сканируй меня · Ґанок · Ђорђе',
  greek: 'Σάρωσέ με',
  chinese: '扫码点餐',
  japanese: 'スキャンしてね',
  korean: '스캔하세요 · 메뉴 ㅋㅋ',
  symbols: '€ £ ¥ № ™ → ✓',
  hebrew: 'סרוק אותי',
  arabic: 'امسح الرمز',
  devanagari: 'स्कैन करें',
  thai: 'สแกนเลย',
};

/** Every code point from `first` to `last`, as a string. */
const span = (first: number, last: number): string =>
  String.fromCodePoint(...Array.from({ length: last - first + 1 }, (_, i) => first + i));

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

  it('draws each name in its own look-alike; only the aliases of one font draw the same', () => {
    // arial/helvetica (Arimo), courier/courier_new (Cousine) and papyrus/georgia (Gelasio, Papyrus
    // having no open look-alike) are the same font on purpose.
    const box = { x: 0, y: 0, w: 200, h: 40 };
    const drawn = new Map<string, string[]>();
    for (const font of FRAME_FONTS) {
      const d = textPath('Menu Rag', font, 20, box);
      drawn.set(d, [...(drawn.get(d) ?? []), font]);
    }
    expect([...drawn.values()].filter((fonts) => fonts.length > 1)).toEqual([
      ['georgia', 'papyrus'],
      ['courier', 'courier_new'],
      ['arial', 'helvetica'],
    ]);
    expect(drawn.size).toBe(FRAME_FONTS.length - 3);
  });

  it.each(FRAME_FONTS)(
    'draws Latin Extended, Cyrillic, Greek, CJK, Hangul, symbols, Hebrew, Arabic, Devanagari and Thai in %s',
    (font) => {
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
        korean: [],
        symbols: [],
        hebrew: [],
        arabic: [],
        devanagari: [],
        thai: [],
      });
    },
  );

  it('draws every Hangul syllable, the compatibility jamo and the kana of modern Japanese', () => {
    expect(unsupportedCharacters(span(0xac00, 0xd7a3), 'arial')).toEqual([]);
    expect(unsupportedCharacters(span(0x3131, 0x318e), 'arial')).toEqual([]);
    // ぁ…ん, ゛…ゞ, ァ…ヶ, ・…ヾ. The rarer ゔゕゖゟ゠ヷヸヹヺヿ are in none of the packaged subsets.
    const kana = span(0x3041, 0x3093) + span(0x309b, 0x309e) + span(0x30a1, 0x30f6);
    expect(unsupportedCharacters(kana + span(0x30fb, 0x30fe), 'arial')).toEqual([]);
  });

  it.each(FRAME_FONTS)(
    'draws a different outline for every letter in %s, never one shared box',
    (font) => {
      // A font without the glyph draws .notdef, the same box for every missing letter: 'Жы' and
      // 'Ыж' would give the same two boxes in swapped order, i.e. the same path.
      const box = { x: 0, y: 0, w: 400, h: 40 };
      const same = [
        ['Ж', 'ы'],
        ['ą', 'ł'],
        ['Σ', 'λ'],
        ['扫', '码'],
        ['ス', 'キ'],
        ['한', '국'],
      ].filter(([a, b]) => textPath(a, font, 20, box) === textPath(b, font, 20, box));
      expect(same).toEqual([]);
    },
  );

  it('names the characters no font of any chain has, and draws none of them', () => {
    // Linear B and Tibetan: in none of the packaged fonts (DejaVu Sans has Ogham, so not that).
    for (const font of FRAME_FONTS) {
      expect(unsupportedCharacters('Hi 𐀀𐀁 ok ༀ 𐀀', font)).toEqual(['𐀀', '𐀁', 'ༀ']);
    }
    const box = { x: 0, y: 0, w: 200, h: 40 };
    let thrown: unknown;
    try {
      textPath('Hi 𐀀 한국 ༀ', 'arial', 20, box);
    } catch (e) {
      thrown = e;
    }
    expect(thrown).toBeInstanceOf(UnsupportedCharactersError);
    expect((thrown as UnsupportedCharactersError).characters).toEqual(['𐀀', 'ༀ']);
  });
});

describe('frame text in every font', () => {
  /**
   * A framed code whose text mixes the font's own letters with fallback ones (Cyrillic, CJK,
   * Hangul) still reads on both decoders. Straight only: a font changes the frame's text, not the
   * code, and the grid checks turned and blurred copies of framed codes (in Sora).
   */
  it.each(FRAME_FONTS)('reads on zxing-wasm, jsQR and ZBar with a frame in %s', async (font) => {
    const options = plainOptions({
      size: 300,
      frame: {
        name: 'straight_bottom_text',
        text: 'Scan Сканируй 扫码 스캔',
        textSize: 0,
        font,
        color: '#000000',
        textColor: '#ffffff',
      },
    });
    const scene = layout(options);
    const pixels = await rasterize(scene, options, prepareRasterImages(scene, options));
    expect(await readStraight(pixels, options.data, scene.moduleBox.w / scene.matrix.size)).toEqual(
      { copy: 'straight', zxing: true, jsqr: true, zbar: true },
    );
  });
});
