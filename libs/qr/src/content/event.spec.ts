import { createRequire } from 'node:module';
import type ICALModule from 'ical.js' with { 'resolution-mode': 'import' };
import { ContentError, encodeContent, QrContentFields } from '.';

const ICAL = createRequire(__filename)('ical.js') as typeof ICALModule;

const NOW = new Date('2026-01-02T03:04:05Z');

/** The calendar as ical.js (Mozilla's parser, used by Thunderbird) reads it. */
function read(fields: QrContentFields) {
  const calendar = new ICAL.Component(ICAL.parse(encodeContent('event', fields, NOW)));
  const vevent = calendar.getFirstSubcomponent('vevent');
  if (!vevent) {
    throw new Error('no VEVENT');
  }
  const event = new ICAL.Event(vevent);
  return { calendar, vevent, event };
}

const at = (t: InstanceType<typeof ICALModule.Time>): string => t.toJSDate().toISOString();

describe('iCalendar events (RFC 5545), read by ical.js', () => {
  // A floating time is read in the reader's own zone: run the reader in three.
  it.each([
    ['2026-01-15 10:30', '2026-01-15T09:30:00.000Z'],
    ['2026-07-15 10:30', '2026-07-15T08:30:00.000Z'],
  ])('puts %p in Europe/Paris at %p, wherever it is read', (start, instant) => {
    const zone = process.env.TZ;
    try {
      for (const reader of ['America/New_York', 'Asia/Tokyo', 'UTC']) {
        process.env.TZ = reader;
        const { event } = read({
          event: 'Talk',
          event_timezone: 'Europe/Paris',
          event_start_datetime: start,
        });
        expect([reader, at(event.startDate)]).toEqual([reader, instant]);
        expect(event.startDate.zone?.tzid).toBe('UTC');
      }
    } finally {
      if (zone === undefined) {
        delete process.env.TZ;
      } else {
        process.env.TZ = zone;
      }
    }
  });

  it('has VERSION, PRODID, UID and DTSTAMP, and the end and alarm at their instants', () => {
    const { calendar, vevent, event } = read({
      event: 'Launch',
      event_timezone: 'America/New_York',
      event_start_datetime: '2026-03-01 09:00',
      event_end_datetime: '2026-03-01 10:15',
      event_first_alert_datetime: '2026-03-01 08:30',
    });
    expect(calendar.getFirstPropertyValue('version')).toBe('2.0');
    expect(calendar.getFirstPropertyValue('prodid')).toBe('-//Linkdock//QR codes//EN');
    expect(vevent.getFirstPropertyValue('uid')).toMatch(/^[0-9a-f]{32}@linkdock$/);
    expect(
      at(vevent.getFirstPropertyValue('dtstamp') as InstanceType<typeof ICALModule.Time>),
    ).toBe('2026-01-02T03:04:05.000Z');
    expect(at(event.endDate)).toBe('2026-03-01T15:15:00.000Z');
    const alarm = vevent.getFirstSubcomponent('valarm');
    expect(
      at(alarm?.getFirstPropertyValue('trigger') as InstanceType<typeof ICALModule.Time>),
    ).toBe('2026-03-01T13:30:00.000Z');
  });

  // RFC 5545 §3.3.5: a skipped local time takes the offset before the gap; a repeated one is
  // its first occurrence.
  it.each([
    ['2026-03-29 02:30', '2026-03-29T01:30:00.000Z'],
    ['2026-10-25 02:30', '2026-10-25T00:30:00.000Z'],
    ['2026-10-25 03:30', '2026-10-25T02:30:00.000Z'],
  ])('reads the local time %p around a change of clocks as RFC 5545 does', (start, instant) => {
    const { event } = read({
      event: 'x',
      event_timezone: 'Europe/Paris',
      event_start_datetime: start,
    });
    expect(at(event.startDate)).toBe(instant);
  });

  it('folds long lines at 75 octets without splitting a character, and ical.js unfolds them', () => {
    const summary = `Réunion 🎉 ${'Grüße, ünd; 日本語 '.repeat(6)}`.trim();
    const note = `${'x'.repeat(74)}é${'y'.repeat(73)}👋\nline 2`;
    const payload = encodeContent(
      'event',
      { event: summary, event_note: note, event_start_datetime: '2026-05-01 10:00' },
      NOW,
    );
    for (const line of payload.split('\r\n')) {
      expect(Buffer.byteLength(line)).toBeLessThanOrEqual(75);
      expect(line.isWellFormed()).toBe(true);
    }
    const { event } = read({
      event: summary,
      event_note: note,
      event_start_datetime: '2026-05-01 10:00',
    });
    expect(event.summary).toBe(summary);
    expect(event.description).toBe(note);
  });

  // RFC 5545 §3.1 `contentline = name *(";" param) ":" value CRLF` and §3.4
  // `icalobject = "BEGIN" ":" "VCALENDAR" CRLF icalbody "END" ":" "VCALENDAR" CRLF`.
  it('ends every content line with CRLF, END:VCALENDAR too', () => {
    const payload = encodeContent('event', {
      event: 'x',
      event_start_datetime: '2026-05-01 10:00',
    });
    expect(payload).toMatch(/^BEGIN:VCALENDAR\r\n(?:[^\r\n]+\r\n)+END:VCALENDAR\r\n$/);
  });

  it('writes every kind of line break in a text as \\n and keeps a tab', () => {
    const { event } = read({
      event: 'a\rb',
      event_note: 'one\rtwo\u2028three\r\nfour\tfive',
      event_start_datetime: '2026-05-01 10:00',
    });
    expect([event.summary, event.description]).toEqual(['a\nb', 'one\ntwo\nthree\nfour\tfive']);
  });

  it.each([
    ['event', '\u0000'],
    ['event_location', '\u001b'],
    ['event_note', '\u007f'],
    ['event_note', '\u0085'],
  ] as const)('refuses %s with the control character %p instead of dropping it', (field, c) => {
    const base = { event: 'x', event_start_datetime: '2026-05-01 10:00' };
    expect(() => encodeContent('event', { ...base, [field]: `a${c}b` })).toThrow(
      new ContentError(
        field,
        `${field} cannot contain control characters other than line breaks and tabs`,
      ),
    );
  });

  it('refuses an end before the start, and a URL that would break its line', () => {
    const base = { event: 'x', event_start_datetime: '2026-05-01 10:00' };
    expect(() =>
      encodeContent('event', { ...base, event_end_datetime: '2026-05-01 09:00' }),
    ).toThrow(
      new ContentError(
        'event_end_datetime',
        'event_end_datetime must be after event_start_datetime',
      ),
    );
    expect(() =>
      encodeContent('event', { ...base, event_url: 'https://e.com\r\nATTACH:https://evil.test' }),
    ).toThrow(
      new ContentError(
        'event_url',
        'event_url cannot contain line breaks or other control characters',
      ),
    );
  });
});
