/** A CSV cell: text is written as given (neutralised when a spreadsheet would run it), a number as digits. */
export type CsvCell = string | number | null;

/** What a cell may start with for a spreadsheet to read it as a formula (OWASP CSV injection). */
const TRIGGERS = new Set(['=', '+', '-', '@', '|']);
/** Characters a spreadsheet reads past: blanks and format characters (Cf, as U+200B or U+FEFF). */
const SKIPPED = /^[\s\p{Cf}]*/u;
const QUOTES = /^["']+/;

/**
 * Text that a spreadsheet would run as a formula, with a leading apostrophe so that it shows as
 * text (OWASP, CSV injection): a cell starting with a tab, CR or LF, or whose first character
 * past blanks and format characters (after NFKC, so full-width forms count), past any quotes, is
 * one of = + - @ |. Anything else is returned unchanged.
 */
export function neutraliseCsvText(value: string): string {
  if (/^[\t\r\n]/.test(value)) return `'${value}`;
  const head = value.normalize('NFKC').replace(SKIPPED, '');
  const start = head.replace(QUOTES, '').replace(SKIPPED, '');
  return TRIGGERS.has(start.charAt(0)) ? `'${value}` : value;
}

/**
 * The text neutraliseCsvText was given, for a cell read back from one of our own exports: the
 * apostrophe comes off only where neutraliseCsvText would have put it, so a title that really
 * starts with one keeps it.
 */
export function restoreCsvText(cell: string): string {
  return cell.startsWith("'") && neutraliseCsvText(cell.slice(1)) === cell ? cell.slice(1) : cell;
}

/**
 * One CSV record, RFC 4180: fields with a comma, quote, CR or LF are quoted; lines end in CRLF.
 * Text is neutralised (neutraliseCsvText); numbers are written as they are; null is empty.
 */
export function csvRecord(cells: readonly CsvCell[]): string {
  return `${cells.map(csvField).join(',')}\r\n`;
}

function csvField(cell: CsvCell): string {
  if (cell === null) return '';
  if (typeof cell === 'number') return String(cell);
  const text = neutraliseCsvText(cell);
  return /[",\r\n]/.test(text) ? `"${text.replace(/"/g, '""')}"` : text;
}
