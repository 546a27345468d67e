import { createHash } from 'node:crypto';
import { ContentError, QrContentFields, required, singleLine } from './fields';
import { contentLines, escapeText } from './lines';

const DATETIME = /^(\d{4})-(\d{2})-(\d{2})[T ](\d{2}):(\d{2})(?::(\d{2}))?$/;

export function isTimeZone(tz: string): boolean {
  try {
    new Intl.DateTimeFormat('en-US', { timeZone: tz });
    return true;
  } catch {
    return false;
  }
}

function parts(field: string, value: string): number[] {
  const m = DATETIME.exec(value);
  if (!m) {
    throw new ContentError(field, `${field} must be a date and time as Y-m-d H:i`);
  }
  const p = m.slice(1).map((v) => Number(v ?? 0));
  const d = new Date(Date.UTC(p[0], p[1] - 1, p[2], p[3], p[4], p[5]));
  if (
    d.getUTCMonth() !== p[1] - 1 ||
    d.getUTCDate() !== p[2] ||
    p[3] > 23 ||
    p[4] > 59 ||
    p[5] > 59
  ) {
    throw new ContentError(field, `${field} is not a valid date and time`);
  }
  return p;
}

const HOUR = 3_600_000;

/** The offset from UTC, in ms, of a time zone at an instant. */
function offsetAt(tz: string, t: number): number {
  const f = new Intl.DateTimeFormat('en-US', {
    timeZone: tz,
    hourCycle: 'h23',
    year: 'numeric',
    month: 'numeric',
    day: 'numeric',
    hour: 'numeric',
    minute: 'numeric',
    second: 'numeric',
  }).formatToParts(new Date(t));
  const get = (type: string): number => Number(f.find((x) => x.type === type)?.value);
  const wall = Date.UTC(
    get('year'),
    get('month') - 1,
    get('day'),
    get('hour'),
    get('minute'),
    get('second'),
  );
  return wall - Math.floor(t / 1000) * 1000;
}

/**
 * The UTC instant of a wall-clock time in a time zone, read as RFC 5545 §3.3.5 says: a time that
 * occurs twice (clocks set back) is the first occurrence, and a time skipped by the change to
 * daylight saving time takes the offset in force before the gap.
 */
export function zonedToUtc(p: number[], tz: string): Date {
  const wall = Date.UTC(p[0], p[1] - 1, p[2], p[3], p[4], p[5]);
  const before = offsetAt(tz, wall - 36 * HOUR);
  const after = offsetAt(tz, wall + 36 * HOUR);
  const candidates = [wall - before, wall - after]
    .filter((t) => offsetAt(tz, t) === wall - t)
    .sort((a, b) => a - b);
  return new Date(candidates[0] ?? wall - before);
}

const utc = (d: Date): string => `${d.toISOString().replace(/[-:]/g, '').slice(0, 15)}Z`;

/**
 * An iCalendar object (RFC 5545) with one VEVENT. Times are written in UTC, computed from the
 * wall-clock times in `event_timezone`: a TZID without its VTIMEZONE is read as floating time by
 * real clients. UID is derived from the event itself (the same event always has the same UID);
 * DTSTAMP is when the payload was written. Lines are folded at 75 octets.
 */
export function encodeEvent(f: QrContentFields, now: Date): string {
  const tz = f.event_timezone ?? 'UTC';
  if (!isTimeZone(tz)) {
    throw new ContentError(
      'event_timezone',
      'event_timezone must be an IANA time zone such as Europe/Paris',
    );
  }
  const summary = escapeText('event', required(f, 'event'));
  const start = zonedToUtc(parts('event_start_datetime', required(f, 'event_start_datetime')), tz);
  const event = [`SUMMARY:${summary}`, `DTSTART:${utc(start)}`];
  if (f.event_end_datetime) {
    const end = zonedToUtc(parts('event_end_datetime', f.event_end_datetime), tz);
    if (end.getTime() <= start.getTime()) {
      throw new ContentError(
        'event_end_datetime',
        'event_end_datetime must be after event_start_datetime',
      );
    }
    event.push(`DTEND:${utc(end)}`);
  }
  if (f.event_location) {
    event.push(`LOCATION:${escapeText('event_location', f.event_location)}`);
  }
  if (f.event_url) {
    // A URI value (RFC 5545 §3.3.13): not text-escaped, so it must not break the line.
    event.push(`URL:${singleLine('event_url', f.event_url)}`);
  }
  if (f.event_note) {
    event.push(`DESCRIPTION:${escapeText('event_note', f.event_note)}`);
  }
  for (const key of ['event_first_alert_datetime', 'event_second_alert_datetime'] as const) {
    const value = f[key];
    if (value) {
      const at = zonedToUtc(parts(key, value), tz);
      event.push(
        'BEGIN:VALARM',
        'ACTION:DISPLAY',
        `DESCRIPTION:${summary}`,
        `TRIGGER;VALUE=DATE-TIME:${utc(at)}`,
        'END:VALARM',
      );
    }
  }
  const uid = createHash('sha256').update(event.join('\n')).digest('hex').slice(0, 32);
  return contentLines([
    'BEGIN:VCALENDAR',
    'VERSION:2.0',
    'PRODID:-//Linkdock//QR codes//EN',
    'BEGIN:VEVENT',
    `UID:${uid}@linkdock`,
    `DTSTAMP:${utc(now)}`,
    ...event,
    'END:VEVENT',
    'END:VCALENDAR',
  ]);
}
