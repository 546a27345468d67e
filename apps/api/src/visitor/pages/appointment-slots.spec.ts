import { freeSlots, localToInstant, type AppointmentHours } from './appointment-slots';

const DAY = 86_400_000;
const dayOf = (ymd: string): number => Date.parse(`${ymd}T00:00:00Z`) / DAY;

const PARIS: AppointmentHours = {
  timezone: 'Europe/Paris',
  days: ['sat', 'sun', 'mon'],
  start_time: '09:00',
  end_time: '11:00',
  duration_value: 1,
  duration_type: 'hours',
  max_days_ahead: 3,
  min_notice_minutes: 0,
};

describe('appointment slots', () => {
  it('keeps local wall-clock times across the end of summer time (Paris, 2026-10-25)', () => {
    // Saturday 24 October 2026, 00:00 in Paris (UTC+2).
    const now = Date.parse('2026-10-23T22:00:00Z');
    const slots = freeSlots(PARIS, now, new Set());
    expect(
      slots.map((s) => [s.localDate, s.localStart, new Date(s.startMs).toISOString()]),
    ).toEqual([
      ['2026-10-24', '09:00', '2026-10-24T07:00:00.000Z'],
      ['2026-10-24', '10:00', '2026-10-24T08:00:00.000Z'],
      ['2026-10-25', '09:00', '2026-10-25T08:00:00.000Z'],
      ['2026-10-25', '10:00', '2026-10-25T09:00:00.000Z'],
      ['2026-10-26', '09:00', '2026-10-26T08:00:00.000Z'],
      ['2026-10-26', '10:00', '2026-10-26T09:00:00.000Z'],
    ]);
  });

  it('skips a slot in the hour clocks skip, and the booked and too-soon ones', () => {
    const hours: AppointmentHours = {
      ...PARIS,
      days: ['sun'],
      start_time: '01:30',
      end_time: '04:30',
      max_days_ahead: 1,
    };
    // Sunday 29 March 2026 in Paris: 02:00 becomes 03:00.
    const now = Date.parse('2026-03-28T23:00:00Z');
    const all = freeSlots(hours, now, new Set());
    expect(all.map((s) => s.localStart)).toEqual(['03:30']);
    expect(localToInstant('Europe/Paris', dayOf('2026-03-29'), 150)).toBeNull();

    const weekday: AppointmentHours = { ...PARIS, days: ['mon'], max_days_ahead: 7 };
    const monday9 = Date.parse('2026-11-23T08:00:00Z');
    const booked = new Set([monday9]);
    const from = Date.parse('2026-11-22T12:00:00Z');
    expect(freeSlots(weekday, from, booked).map((s) => s.localStart)).toEqual(['10:00']);
    const late = { ...weekday, min_notice_minutes: 24 * 60 };
    expect(
      freeSlots(late, Date.parse('2026-11-22T08:30:00Z'), new Set()).map((s) => s.localStart),
    ).toEqual(['10:00']);
  });

  it('uses the duration in minutes and stops at end_time', () => {
    const hours: AppointmentHours = {
      ...PARIS,
      timezone: 'UTC',
      days: ['mon'],
      start_time: '09:00',
      end_time: '10:10',
      duration_value: 25,
      duration_type: 'minutes',
      max_days_ahead: 1,
    };
    const slots = freeSlots(hours, Date.parse('2026-11-23T00:00:00Z'), new Set());
    expect(slots.map((s) => `${s.localStart}-${s.localEnd}`)).toEqual([
      '09:00-09:25',
      '09:25-09:50',
    ]);
  });
});
