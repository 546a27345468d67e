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

/**
 * A TEXT value of iCalendar (RFC 5545 §3.3.11) or vCard 3.0 (RFC 2426 §4): `\\ ; ,` escaped,
 * every kind of line break written `\n`, and the other control characters, which a text value
 * cannot hold, dropped (a tab stays).
 */
export function escapeText(v: string): string {
  return v
    .replace(/\\/g, '\\\\')
    .replace(/;/g, '\\;')
    .replace(/,/g, '\\,')
    .replace(/\r\n|[\r\n\u2028\u2029]/g, '\\n')
    .replace(/[^\P{Cc}\t]/gu, '');
}
