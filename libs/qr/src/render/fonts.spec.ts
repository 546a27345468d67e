import { textPath } from './fonts';
import { FRAME_FONTS } from './options';

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
});
