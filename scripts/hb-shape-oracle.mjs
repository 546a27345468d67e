// HarfBuzz's own shaping through harfbuzzjs's published API (the ES module the engine cannot
// load), for fonts.spec.ts to compare the frame text engine against. Reads
// [{ font: path of a TrueType file, text, direction?: 'ltr' | 'rtl' }] as JSON on stdin, writes
// [[{ g: glyph id, cl: cluster, ax, dx, dy, path }]] (font units) on stdout.
import { readFileSync } from 'node:fs';
import * as hb from 'harfbuzzjs';

const requests = JSON.parse(readFileSync(0, 'utf8'));
const fonts = new Map();
const out = requests.map(({ font: file, text, direction }) => {
  let font = fonts.get(file);
  if (!font) {
    font = new hb.Font(new hb.Face(new hb.Blob(readFileSync(file))));
    fonts.set(file, font);
  }
  const buffer = new hb.Buffer();
  buffer.addText(text);
  buffer.guessSegmentProperties();
  if (direction) buffer.setDirection(direction);
  hb.shape(font, buffer);
  const positions = buffer.getGlyphPositions();
  return buffer.getGlyphInfos().map((info, i) => ({
    g: info.codepoint,
    cl: info.cluster,
    ax: positions[i].xAdvance,
    dx: positions[i].xOffset,
    dy: positions[i].yOffset,
    path: font.glyphToPath(info.codepoint),
  }));
});
process.stdout.write(JSON.stringify(out));
