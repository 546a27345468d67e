import {
  DAY_MS,
  formatDay,
  localDayNumber,
  localMidnight,
  offsetSegments,
  parseDay,
  zoneOffsetMs,
} from './time-zone';

const HOUR = 3_600_000;
const utc = (iso: string): number => Date.parse(iso);
const day = (ymd: string): number => parseDay(ymd) as number;

describe('time zones', () => {
  it('reads offsets, including half and quarter hours and both sides of DST', () => {
    expect(zoneOffsetMs('UTC', utc('2026-06-01T00:00:00Z'))).toBe(0);
    expect(zoneOffsetMs('Europe/Berlin', utc('2026-01-15T12:00:00Z'))).toBe(1 * HOUR);
    expect(zoneOffsetMs('Europe/Berlin', utc('2026-07-15T12:00:00Z'))).toBe(2 * HOUR);
    expect(zoneOffsetMs('Asia/Kolkata', utc('2026-07-15T12:00:00Z'))).toBe(5.5 * HOUR);
    expect(zoneOffsetMs('Asia/Kathmandu', utc('2026-07-15T12:00:00Z'))).toBe(5.75 * HOUR);
    expect(zoneOffsetMs('America/New_York', utc('2026-01-15T12:34:56.789Z'))).toBe(-5 * HOUR);
  });

  it('finds local days and midnights', () => {
    expect(formatDay(localDayNumber('Europe/Berlin', utc('2026-10-24T22:30:00Z')))).toBe(
      '2026-10-25',
    );
    expect(formatDay(localDayNumber('America/Los_Angeles', utc('2026-10-25T06:59:00Z')))).toBe(
      '2026-10-24',
    );
    expect(localMidnight('Europe/Berlin', day('2026-10-25'))).toBe(utc('2026-10-24T22:00:00Z'));
    expect(localMidnight('Europe/Berlin', day('2026-10-26'))).toBe(utc('2026-10-25T23:00:00Z'));
    expect(localMidnight('Asia/Kolkata', day('2026-03-01'))).toBe(utc('2026-02-28T18:30:00Z'));
    expect(localMidnight('UTC', day('2026-03-01'))).toBe(day('2026-03-01') * DAY_MS);
    expect(localMidnight('Asia/Kathmandu', day('2026-03-01'))).toBe(utc('2026-02-28T18:15:00Z'));
  });

  it('starts a day whose midnight does not exist (clocks jump forward at 00:00) at its first hour', () => {
    // Santiago: 2026-09-06 00:00 -04 becomes 01:00 -03.
    expect(localMidnight('America/Santiago', day('2026-09-06'))).toBe(utc('2026-09-06T04:00:00Z'));
    expect(localMidnight('America/Santiago', day('2026-09-07'))).toBe(utc('2026-09-07T03:00:00Z'));
    // The day before ends where the new one starts: 23 hours after its own midnight.
    expect(localMidnight('America/Santiago', day('2026-09-05'))).toBe(utc('2026-09-05T04:00:00Z'));
    // The Azores: 2026-03-29 00:00 -01 becomes 01:00 +00.
    expect(localMidnight('Atlantic/Azores', day('2026-03-29'))).toBe(utc('2026-03-29T01:00:00Z'));
    // Havana: 2026-03-08 00:00 -05 becomes 01:00 -04.
    expect(localMidnight('America/Havana', day('2026-03-08'))).toBe(utc('2026-03-08T05:00:00Z'));
    // Santiago's autumn change repeats 23:00-24:00 of 2026-04-04: the 5th starts at the second midnight.
    expect(localMidnight('America/Santiago', day('2026-04-05'))).toBe(utc('2026-04-05T04:00:00Z'));
  });

  it('reads years below 100 as such, not as 19xx', () => {
    const year50 = new Date(0).setUTCFullYear(50, 5, 1);
    expect(zoneOffsetMs('UTC', year50)).toBe(0);
    expect(zoneOffsetMs('Asia/Tokyo', year50)).toBe(zoneOffsetMs('Asia/Tokyo', year50 + DAY_MS));
  });

  it('cuts a range exactly at the transitions, and not elsewhere', () => {
    const start = localMidnight('Europe/Berlin', day('2026-01-01'));
    const end = localMidnight('Europe/Berlin', day('2027-01-01'));
    expect(offsetSegments('Europe/Berlin', start, end)).toEqual([
      { start, end: utc('2026-03-29T01:00:00Z'), offsetMs: HOUR },
      { start: utc('2026-03-29T01:00:00Z'), end: utc('2026-10-25T01:00:00Z'), offsetMs: 2 * HOUR },
      { start: utc('2026-10-25T01:00:00Z'), end, offsetMs: HOUR },
    ]);
    expect(offsetSegments('Asia/Tokyo', start, end)).toEqual([{ start, end, offsetMs: 9 * HOUR }]);
    // A range that starts exactly on a transition.
    const cut = utc('2026-10-25T01:00:00Z');
    expect(offsetSegments('Europe/Berlin', cut, cut + 2 * HOUR)).toEqual([
      { start: cut, end: cut + 2 * HOUR, offsetMs: HOUR },
    ]);
    // Lord Howe Island moves by half an hour.
    const lh = offsetSegments(
      'Australia/Lord_Howe',
      utc('2026-04-04T00:00:00Z'),
      utc('2026-04-06T00:00:00Z'),
    );
    expect(lh.map((s) => s.offsetMs / HOUR)).toEqual([11, 10.5]);
    expect(lh[0].end).toBe(utc('2026-04-04T15:00:00Z'));
  });

  it('parses only real Y-m-d dates', () => {
    expect(formatDay(day('2024-02-29'))).toBe('2024-02-29');
    expect(parseDay('2026-02-29')).toBeNull();
    expect(parseDay('2026-2-1')).toBeNull();
    expect(parseDay('2026-01-01T00:00')).toBeNull();
  });
});
