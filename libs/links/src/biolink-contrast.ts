import { Problem } from '@app/common';
import { BiolinkPageSettings } from '@app/database';
import { contrastRatio } from '@app/qr';

/** WCAG 2.1 SC 1.4.3 (AA): text of normal size needs 4.5:1 against what is behind it. */
export const MIN_TEXT_CONTRAST = 4.5;

type ColourField =
  'text_color' | 'background_color' | 'background_color_two' | 'button_color' | 'button_text_color';

/**
 * The text and what it is drawn on: the page text on the background (both ends of a gradient) and
 * the button text on the button. The same WCAG ratio as QR codes' contrast check, at the level for
 * text.
 */
const PAIRS: ReadonlyArray<[ColourField, ColourField]> = [
  ['text_color', 'background_color'],
  ['text_color', 'background_color_two'],
  ['button_text_color', 'button_color'],
];

/**
 * Colour pairs of a bio page that visitors could not read, one problem each naming both colours.
 * Only pairs with a colour the request sets are checked, so a page stored before this rule can
 * still change its title without first changing its colours.
 */
export function biolinkContrastProblems(
  page: BiolinkPageSettings,
  given: Partial<Record<ColourField, string | null>>,
): Problem[] {
  const problems: Problem[] = [];
  for (const [fg, bg] of PAIRS) {
    const text = page[fg];
    const behind = page[bg];
    if (text === null || behind === null || (given[fg] === undefined && given[bg] === undefined)) {
      continue;
    }
    const ratio = contrastRatio(text, behind);
    if (ratio < MIN_TEXT_CONTRAST) {
      problems.push({
        field: given[fg] !== undefined ? fg : bg,
        title: `${fg} ${text} on ${bg} ${behind} has a contrast of ${Math.floor(ratio * 100) / 100}:1; text on a bio page needs at least ${MIN_TEXT_CONTRAST}:1 (WCAG 2.1 AA).`,
      });
    }
  }
  return problems;
}
