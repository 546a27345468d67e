import sharp from 'sharp';
import { readabilityChecks, readStraight } from '../readability';
import { prepareRasterImages } from './images';
import { layout } from './layout';
import {
  FRAMES,
  Foreground,
  FrameName,
  GRADIENT_STYLES,
  INNER_EYE_STYLES,
  MODULE_STYLES,
  OUTER_EYE_STYLES,
  RenderOptions,
} from './options';
import { rasterize } from './raster';

/**
 * The readability grid. Every module style × inner eye style × outer eye style (180 cells) is
 * rendered with short and with long content (360 renders). Each render also takes a foreground
 * (solid or one of the five gradients), a logo or none, and a frame (one of the 19) or none,
 * chosen greedily so that every pair of values of any two dimensions appears in at least one
 * render; the test checks that coverage itself. Both decoders must return exactly the encoded
 * string from the render as drawn and from every copy of the readability check (turned ±7°,
 * slanted, blurred, downscaled), i.e. is_readable must be true, except for KNOWN_UNREADABLE.
 */
const SHORT = 'https://linkdock.test/m';
const LONG =
  'BEGIN:VCARD\r\nVERSION:3.0\r\nN:Lovelace;Ada;;;\r\nFN:Ada Lovelace\r\nORG:Analytical Engines\\, Ltd\r\n' +
  'TEL;TYPE=work:+44 20 7946 0000\r\nEMAIL;TYPE=INTERNET:ada@example.com\r\n' +
  'URL:https://example.com/people/ada-lovelace?ref=qr\r\nNOTE:First programmer\r\nEND:VCARD';

const FOREGROUNDS: Foreground[] = [
  { type: 'color', color: '#111111' },
  ...GRADIENT_STYLES.map((style): Foreground => ({
    type: 'gradient',
    style,
    one: '#000000',
    two: '#1d3557',
  })),
];
const FRAME_CHOICES: Array<FrameName | null> = [null, ...FRAMES];
const CONTENTS = [SHORT, LONG];

type Cell = [number, number, number, number, number, number, number];
const DIMENSIONS = [
  MODULE_STYLES.length,
  INNER_EYE_STYLES.length,
  OUTER_EYE_STYLES.length,
  CONTENTS.length,
  FOREGROUNDS.length,
  2,
  FRAME_CHOICES.length,
];

function pairsOf(cell: Cell): string[] {
  const out: string[] = [];
  for (let a = 0; a < cell.length; a++) {
    for (let b = a + 1; b < cell.length; b++) {
      out.push(`${a}:${cell[a]}|${b}:${cell[b]}`);
    }
  }
  return out;
}

function buildGrid(): Cell[] {
  const covered = new Set<string>();
  const cells: Cell[] = [];
  for (let m = 0; m < DIMENSIONS[0]; m++) {
    for (let i = 0; i < DIMENSIONS[1]; i++) {
      for (let o = 0; o < DIMENSIONS[2]; o++) {
        for (let c = 0; c < DIMENSIONS[3]; c++) {
          let best: Cell | null = null;
          let bestGain = -1;
          for (let f = 0; f < DIMENSIONS[4]; f++) {
            for (let l = 0; l < DIMENSIONS[5]; l++) {
              for (let r = 0; r < DIMENSIONS[6]; r++) {
                const cell: Cell = [m, i, o, c, f, l, r];
                const gain = pairsOf(cell).filter((p) => !covered.has(p)).length;
                if (gain > bestGain) {
                  best = cell;
                  bestGain = gain;
                }
              }
            }
          }
          const chosen = best as Cell;
          pairsOf(chosen).forEach((p) => covered.add(p));
          cells.push(chosen);
        }
      }
    }
  }
  return cells;
}

let logo: Buffer;

/**
 * Cells the readability check calls unreadable, and why; all fail in jsQR. is_readable is false for
 * them, which is the truth about these two decoders; they are listed so that the test notices both
 * a new failure and one of these starting to read.
 * - Long content in the circle frame: the circle leaves the code 58 % of the image's height, so
 *   the 245-byte vCard gets 3.8 px per module at 500 px (Q under the logo; 3.4 at H) and no copy
 *   can be made at four. The same code without a frame at the same pixels fails as often: over
 *   31 sizes from 470 to 530 px, 19 are unreadable at Q and 16 at H; none at 800 px.
 * - Long content with a dot centre in round_card_bottom_text, downscaled: at about three pixels per
 *   module jsQR takes a finder-like patch of data for the top-left finder, whose round centre
 *   measures further from 1:1:3:1:1 along jsQR's diagonal than a square one (it scores 10.8
 *   against 5.8 for the patch). Over 81 sizes from 460 to 540 px these two cells fail 4 and 3
 *   times, never with a square centre.
 */
const KNOWN_UNREADABLE = [
  'dot/dot/square long fg=vertical logo=0 frame=round_card_bottom_text: downscaled jsqr',
  'rounded/dot/square long fg=color logo=0 frame=round_card_bottom_text: downscaled jsqr',
  'diamond/square/square long fg=vertical logo=1 frame=circle_simple_bottom_text: slanted jsqr',
  'flower/square/square long fg=vertical logo=1 frame=circle_simple_bottom_text: slanted jsqr, blurred jsqr',
];

function options(cell: Cell): RenderOptions {
  const [m, i, o, c, f, l, r] = cell;
  const frame = FRAME_CHOICES[r];
  return {
    data: CONTENTS[c],
    ecc: 'M',
    size: 500,
    margin: 2,
    style: MODULE_STYLES[m],
    innerEyeStyle: INNER_EYE_STYLES[i],
    outerEyeStyle: OUTER_EYE_STYLES[o],
    foreground: FOREGROUNDS[f],
    eyes: null,
    background: { color: '#ffffff', transparency: 0 },
    logo: l === 1 ? { image: logo, size: 25 } : null,
    backgroundImage: null,
    foregroundImage: null,
    frame: frame
      ? {
          name: frame,
          text: 'Scan me',
          textSize: 0,
          font: 'sora',
          color: '#000000',
          textColor: '#ffffff',
        }
      : null,
  };
}

describe('readability grid', () => {
  const cells = buildGrid();

  beforeAll(async () => {
    logo = await sharp({ create: { width: 120, height: 120, channels: 4, background: '#e63946' } })
      .png()
      .toBuffer();
  });

  it('covers the full cross of module and eye styles and every pair of all dimensions', () => {
    expect(cells).toHaveLength(6 * 6 * 5 * 2);
    const covered = new Set(cells.flatMap(pairsOf));
    const missing: string[] = [];
    for (let a = 0; a < DIMENSIONS.length; a++) {
      for (let b = a + 1; b < DIMENSIONS.length; b++) {
        for (let x = 0; x < DIMENSIONS[a]; x++) {
          for (let y = 0; y < DIMENSIONS[b]; y++) {
            if (!covered.has(`${a}:${x}|${b}:${y}`)) {
              missing.push(`${a}:${x}|${b}:${y}`);
            }
          }
        }
      }
    }
    expect(missing).toEqual([]);
  });

  /**
   * Every cell is read straight by the three decoders. The copies of the readability check (five
   * copies, each at a few scales, three times decoded) cost about two thirds of a second per cell
   * on a 2-core machine (more when it is shared: the timeout leaves room), so the test command checks them for every FULL_EVERY-th cell, a different
   * quarter of the grid on each day of the month; `QR_GRID=full` (npm run test:qr-grid) checks
   * them for all 360 cells.
   */
  const full = process.env.QR_GRID === 'full';
  const FULL_EVERY = 4;
  const offset = new Date().getUTCDate() % FULL_EVERY;
  const withCopies = (index: number): boolean => full || index % FULL_EVERY === offset;

  it(`reads back every cell with zxing-wasm, jsQR and ZBar, straight and (${full ? 'every cell' : `every ${FULL_EVERY}th cell`}) in every copy`, async () => {
    const failures: string[] = [];
    const checked = new Set<string>();
    for (const [index, cell] of cells.entries()) {
      const o = options(cell);
      const scene = layout(o);
      const pixels = await rasterize(scene, o, prepareRasterImages(scene, o));
      const modulePixels = scene.moduleBox.w / scene.matrix.size;
      const checks = withCopies(index)
        ? await readabilityChecks(pixels, o.data, modulePixels, true)
        : [await readStraight(pixels, o.data, modulePixels)];
      const label =
        `${o.style}/${o.innerEyeStyle}/${o.outerEyeStyle} ${o.data === SHORT ? 'short' : 'long'} ` +
        `fg=${o.foreground.type === 'color' ? 'color' : o.foreground.style} logo=${o.logo ? 1 : 0} ` +
        `frame=${o.frame?.name ?? 'none'}`;
      if (withCopies(index)) checked.add(label);
      const missed = checks
        .filter((c) => !c.zxing || !c.jsqr || !c.zbar)
        .map(
          (c) =>
            `${c.copy}${c.zxing ? '' : ' zxing'}${c.jsqr ? '' : ' jsqr'}${c.zbar ? '' : ' zbar'}`,
        );
      if (missed.length > 0) {
        failures.push(`${label}: ${missed.join(', ')}`);
      }
    }
    expect(failures).toEqual(
      KNOWN_UNREADABLE.filter((known) => checked.has(known.slice(0, known.indexOf(': ')))),
    );
  }, 1_200_000);
});
