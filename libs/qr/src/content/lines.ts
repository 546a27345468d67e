import { ContentError } from './fields';

/** RFC 5545 §3.1 and RFC 6350 §3.2: content lines are folded at 75 octets. */
const MAX_OCTETS = 75;

/**
 * One content line folded into CRLF + space continuations of at most 75 octets each (the space
 * included), cut between characters, never inside a character's UTF-8 bytes.
 */
export function foldLine(line: string): string {
  const parts: string[] = [];
  let current = '';
  let octets = 0;
  for (const ch of line) {
    const size = Buffer.byteLength(ch, 'utf8');
    if (octets + size > MAX_OCTETS) {
      parts.push(current);
      current = ' ';
      octets = 1;
    }
    current += ch;
    octets += size;
  }
  parts.push(current);
  return parts.join('\r\n');
}

/**
 * Content lines folded, each ended by CRLF, the last one too: the grammars of RFC 5545 §3.4
 * (`"END" ":" "VCALENDAR" CRLF`) and RFC 2426 §4 (`"END" ":" "VCARD" 1*CRLF`) end with it.
 */
export function contentLines(lines: readonly string[]): string {
  return lines.map((line) => `${foldLine(line)}\r\n`).join('');
}

/** Control characters other than a tab and the line breaks (CR, LF): a text value cannot hold them. */
const NOT_TEXT = /[^\P{Cc}\t\r\n]/u;

/**
 * A TEXT value of iCalendar (RFC 5545 §3.3.11) or vCard 3.0 (RFC 2426 §4) of `field`: `\\ ; ,`
 * escaped and every kind of line break written `\n`. The other control characters, which a text
 * value cannot hold, are refused naming the field rather than dropped (a tab stays).
 */
export function escapeText(field: string, v: string): string {
  if (NOT_TEXT.test(v)) {
    throw new ContentError(
      field,
      `${field} cannot contain control characters other than line breaks and tabs`,
    );
  }
  return v
    .replace(/\\/g, '\\\\')
    .replace(/;/g, '\\;')
    .replace(/,/g, '\\,')
    .replace(/\r\n|[\r\n\u2028\u2029]/g, '\\n');
}
