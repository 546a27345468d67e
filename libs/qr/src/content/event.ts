import { ContentError, QrContentFields, required } from './fields';

const DATETIME = /^(\d{4})-(\d{2})-(\d{2})[T ](\d{2}):(\d{2})(?::(\d{2}))?$/;

/** RFC 5545 §3.3.11 text escaping. */
export function icalText(v: string): string {
  return v
    .replace(/\\/g, '\\\\')
    .replace(/;/g, '\\;')
    .replace(/,/g, '\\,')
    .replace(/\r?\n/g, '\\n');
}

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
  if (d.getUTCMonth() !== p[1] - 1 || d.getUTCDate() !== p[2] || p[3] > 23 || p[4] > 59) {
    throw new ContentError(field, `${field} is not a valid date and time`);
  }
  return p;
}

const pad = (v: number): string => String(v).padStart(2, '0');
const local = (p: number[]): string =>
  `${p[0]}${pad(p[1])}${pad(p[2])}T${pad(p[3])}${pad(p[4])}${pad(p[5])}`;

/** The UTC instant of a wall-clock time in a time zone (alarm triggers must be UTC, RFC 5545 §3.8.6.3). */
export function zonedToUtc(p: number[], tz: string): Date {
  const guess = Date.UTC(p[0], p[1] - 1, p[2], p[3], p[4], p[5]);
  const offsetAt = (t: number): number => {
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
    return (
      Date.UTC(
        get('year'),
        get('month') - 1,
        get('day'),
        get('hour'),
        get('minute'),
        get('second'),
      ) - t
    );
  };
  const first = guess - offsetAt(guess);
  return new Date(guess - offsetAt(first));
}

const utc = (d: Date): string => `${d.toISOString().replace(/[-:]/g, '').slice(0, 15)}Z`;

/** An iCalendar VEVENT (RFC 5545) with TZID times and up to two display alarms. */
export function encodeEvent(f: QrContentFields): string {
  const tz = f.event_timezone ?? 'UTC';
  if (!isTimeZone(tz)) {
    throw new ContentError(
      'event_timezone',
      'event_timezone must be an IANA time zone such as Europe/Paris',
    );
  }
  const start = parts('event_start_datetime', required(f, 'event_start_datetime'));
  const lines = [
    'BEGIN:VCALENDAR',
    'VERSION:2.0',
    'BEGIN:VEVENT',
    `SUMMARY:${icalText(required(f, 'event'))}`,
  ];
  lines.push(`DTSTART;TZID=${tz}:${local(start)}`);
  if (f.event_end_datetime) {
    lines.push(`DTEND;TZID=${tz}:${local(parts('event_end_datetime', f.event_end_datetime))}`);
  }
  if (f.event_location) {
    lines.push(`LOCATION:${icalText(f.event_location)}`);
  }
  if (f.event_url) {
    lines.push(`URL:${f.event_url}`);
  }
  if (f.event_note) {
    lines.push(`DESCRIPTION:${icalText(f.event_note)}`);
  }
  for (const key of ['event_first_alert_datetime', 'event_second_alert_datetime'] as const) {
    const value = f[key];
    if (value) {
      const at = zonedToUtc(parts(key, value), tz);
      lines.push(
        'BEGIN:VALARM',
        'ACTION:DISPLAY',
        `DESCRIPTION:${icalText(f.event ?? '')}`,
        `TRIGGER;VALUE=DATE-TIME:${utc(at)}`,
        'END:VALARM',
      );
    }
  }
  lines.push('END:VEVENT', 'END:VCALENDAR');
  return lines.join('\r\n');
}
