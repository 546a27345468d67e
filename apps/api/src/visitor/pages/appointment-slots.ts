import { DAY_MS, localDayNumber, zoneOffsetMs } from '@app/common';

/** The opening hours of an appointment block, as stored in its settings. */
export interface AppointmentHours {
  timezone: string;
  days: readonly string[];
  start_time: string;
  end_time: string;
  duration_value: number;
  duration_type: 'minutes' | 'hours';
  max_days_ahead: number;
  min_notice_minutes: number;
}

/** One bookable slot: its instants and its wall-clock times in the block's zone. */
export interface Slot {
  startMs: number;
  endMs: number;
  /** Local `Y-m-d`, `H:i` and `H:i`. */
  localDate: string;
  localStart: string;
  localEnd: string;
}

/** More than any page should list; the form shows the first ones. */
export const MAX_SLOTS = 500;
const WEEKDAY_OF_EPOCH_DAY = ['thu', 'fri', 'sat', 'sun', 'mon', 'tue', 'wed'];

function minutesOf(hhmm: string): number {
  const [h, m] = hhmm.split(':').map(Number);
  return h * 60 + m;
}

function pad(n: number): string {
  return String(n).padStart(2, '0');
}

/**
 * The instant a local wall-clock time happens in the zone, or null when it does not exist (the
 * hour skipped when clocks go forward). In the repeated hour when clocks go back, the first.
 */
export function localToInstant(zone: string, day: number, minutes: number): number | null {
  const wall = day * DAY_MS + minutes * 60_000;
  for (const guess of [
    wall - zoneOffsetMs(zone, wall - 12 * 3600_000),
    wall - zoneOffsetMs(zone, wall),
  ]) {
    const candidate = wall - zoneOffsetMs(zone, guess);
    if (candidate + zoneOffsetMs(zone, candidate) === wall) {
      return candidate;
    }
  }
  return null;
}

function localDate(day: number): string {
  return new Date(day * DAY_MS).toISOString().slice(0, 10);
}

function hhmm(minutes: number): string {
  return `${pad(Math.floor(minutes / 60))}:${pad(minutes % 60)}`;
}

/**
 * The free slots from now on: every open day of the next `max_days_ahead` local days (today
 * included), from `start_time` in steps of the duration while the slot ends by `end_time`, at
 * least `min_notice_minutes` ahead, and not in `booked` (start instants). Wall-clock times are the
 * zone's on each day, so a slot at 10:00 stays at 10:00 across a change of daylight saving time.
 */
export function freeSlots(
  hours: AppointmentHours,
  nowMs: number,
  booked: ReadonlySet<number>,
): Slot[] {
  const zone = hours.timezone;
  const step = hours.duration_value * (hours.duration_type === 'hours' ? 60 : 1);
  const open = minutesOf(hours.start_time);
  const close = minutesOf(hours.end_time);
  const earliest = nowMs + hours.min_notice_minutes * 60_000;
  const today = localDayNumber(zone, nowMs);
  const slots: Slot[] = [];
  for (let day = today; day < today + hours.max_days_ahead; day += 1) {
    const weekday = WEEKDAY_OF_EPOCH_DAY[((day % 7) + 7) % 7];
    if (!hours.days.includes(weekday)) continue;
    for (let start = open; start + step <= close; start += step) {
      const startMs = localToInstant(zone, day, start);
      const endMs = localToInstant(zone, day, start + step);
      if (startMs === null || endMs === null || startMs < earliest || booked.has(startMs)) {
        continue;
      }
      slots.push({
        startMs,
        endMs,
        localDate: localDate(day),
        localStart: hhmm(start),
        localEnd: hhmm(start + step),
      });
      if (slots.length >= MAX_SLOTS) return slots;
    }
  }
  return slots;
}
