import {
  freeSlots,
  localToInstant,
  MAX_SLOTS_PER_BLOCK,
  slotsPerBlock,
  type AppointmentHours,
} from './appointment-slots';

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
    const { slots } = freeSlots(PARIS, now, new Set());
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
    const all = freeSlots(hours, now, new Set()).slots;
    expect(all.map((s) => s.localStart)).toEqual(['03:30']);
    expect(localToInstant('Europe/Paris', dayOf('2026-03-29'), 150)).toBeNull();

    const weekday: AppointmentHours = { ...PARIS, days: ['mon'], max_days_ahead: 7 };
    const monday9 = Date.parse('2026-11-23T08:00:00Z');
    const booked = new Set([monday9]);
    const from = Date.parse('2026-11-22T12:00:00Z');
    expect(freeSlots(weekday, from, booked).slots.map((s) => s.localStart)).toEqual(['10:00']);
    const late = { ...weekday, min_notice_minutes: 24 * 60 };
    expect(
      freeSlots(late, Date.parse('2026-11-22T08:30:00Z'), new Set()).slots.map((s) => s.localStart),
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
    const { slots } = freeSlots(hours, Date.parse('2026-11-23T00:00:00Z'), new Set());
    expect(slots.map((s) => `${s.localStart}-${s.localEnd}`)).toEqual([
      '09:00-09:25',
      '09:25-09:50',
    ]);
  });

  describe('the window a page shows', () => {
    // The worst an owner can ask for: 1-minute slots all day, every day, 90 days ahead.
    const WORST: AppointmentHours = {
      timezone: 'Europe/Paris',
      days: ['mon', 'tue', 'wed', 'thu', 'fri', 'sat', 'sun'],
      start_time: '00:00',
      end_time: '23:59',
      duration_value: 1,
      duration_type: 'minutes',
      max_days_ahead: 90,
      min_notice_minutes: 0,
    };
    const now = Date.parse('2026-11-23T08:00:00Z');

    it('stops at the limit and says where the next slots start', () => {
      const w = freeSlots(WORST, now, new Set());
      expect(w.slots).toHaveLength(MAX_SLOTS_PER_BLOCK);
      expect(w.slots[0].startMs).toBe(now);
      expect(w.next).toBe(w.slots[MAX_SLOTS_PER_BLOCK - 1].startMs + 1);
      const more = freeSlots(WORST, now, new Set(), w.next);
      expect(more.slots[0].startMs).toBe(w.slots[MAX_SLOTS_PER_BLOCK - 1].startMs + 60_000);
    });

    it('shows 7 local days at most, then links the next week; nothing after max_days_ahead', () => {
      const hourly: AppointmentHours = {
        ...WORST,
        start_time: '09:00',
        end_time: '10:00',
        duration_value: 1,
        duration_type: 'hours',
        max_days_ahead: 10,
      };
      const w = freeSlots(hourly, now, new Set());
      expect(w.slots.map((s) => s.localDate)).toEqual([
        '2026-11-23',
        '2026-11-24',
        '2026-11-25',
        '2026-11-26',
        '2026-11-27',
        '2026-11-28',
        '2026-11-29',
      ]);
      // Midnight of 30 November in Paris.
      expect(w.next).toBe(Date.parse('2026-11-29T23:00:00Z'));
      const later = freeSlots(hourly, now, new Set(), w.next);
      expect(later.slots.map((s) => s.localDate)).toEqual([
        '2026-11-30',
        '2026-12-01',
        '2026-12-02',
      ]);
      expect(later.next).toBeNull();
      expect(freeSlots(hourly, now, new Set(), Date.parse('2026-12-03T08:00:00Z')).slots).toEqual(
        [],
      );
    });

    it('finds one requested slot 89 days ahead without walking the days before it', () => {
      const far = Date.parse('2027-02-20T10:17:00Z');
      const started = process.hrtime.bigint();
      const w = freeSlots(WORST, now, new Set([far]), far, 1);
      const elapsedMs = Number(process.hrtime.bigint() - started) / 1e6;
      expect(w.slots.map((s) => s.startMs)).toEqual([far + 60_000]);
      expect(elapsedMs).toBeLessThan(1000);
    });

    it('shares a page budget of slots between blocks, 10 each at least', () => {
      expect([1, 5, 10, 100].map(slotsPerBlock)).toEqual([200, 200, 100, 10]);
    });
  });
});
