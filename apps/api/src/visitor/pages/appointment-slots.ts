import { DAY_MS, localDayNumber, localMidnight, zoneOffsetMs } from '@app/common';

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

/** What a page shows of a block: the slots of at most this many local days from where it starts. */
export const SLOT_WINDOW_DAYS = 7;
/** The most slots one block shows on a page (a page with one appointment block). */
export const MAX_SLOTS_PER_BLOCK = 200;
/** The most slots a page shows in all: shared by its appointment blocks, ... */
export const PAGE_SLOT_BUDGET = 1000;
/** ... each of which shows at least this many. */
export const MIN_SLOTS_PER_BLOCK = 10;

/** The slots one block shows on a page that has `appointmentBlocks` of them. */
export function slotsPerBlock(appointmentBlocks: number): number {
  const share = Math.floor(PAGE_SLOT_BUDGET / Math.max(1, appointmentBlocks));
  return Math.max(MIN_SLOTS_PER_BLOCK, Math.min(MAX_SLOTS_PER_BLOCK, share));
}

/** The slots a page shows, and where the next ones start (null when there are no later ones). */
export interface SlotWindow {
  slots: Slot[];
  next: number | null;
}
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
 * A day's wall-clock minutes as instants. A day without a change of offset (nearly all) is its
 * midnight plus the minutes; a day with one takes the exact, slower path for every time.
 */
function dayClock(zone: string, day: number): (minutes: number) => number | null {
  const midnight = localToInstant(zone, day, 0);
  const next = localToInstant(zone, day + 1, 0);
  if (midnight !== null && next !== null && next - midnight === DAY_MS) {
    return (minutes) => midnight + minutes * 60_000;
  }
  return (minutes) => localToInstant(zone, day, minutes);
}

/**
 * The free slots a page shows: on every open day of the next `max_days_ahead` local days (today
 * included), from `start_time` in steps of the duration while the slot ends by `end_time`, at
 * least `min_notice_minutes` ahead, and not in `booked` (start instants). Of those, the ones
 * starting at `fromMs` or later (null: now), within SLOT_WINDOW_DAYS local days of the first day
 * looked at, and at most `limit`; `next` is where the following window starts. Wall-clock times
 * are the zone's on each day, so a slot at 10:00 stays at 10:00 across a change of daylight saving
 * time. The work is bounded by the window, whatever the duration and `max_days_ahead`.
 */
export function freeSlots(
  hours: AppointmentHours,
  nowMs: number,
  booked: ReadonlySet<number>,
  fromMs: number | null = null,
  limit = MAX_SLOTS_PER_BLOCK,
): SlotWindow {
  const zone = hours.timezone;
  const step = hours.duration_value * (hours.duration_type === 'hours' ? 60 : 1);
  const open = minutesOf(hours.start_time);
  const close = minutesOf(hours.end_time);
  const earliest = Math.max(nowMs + hours.min_notice_minutes * 60_000, fromMs ?? 0);
  const today = localDayNumber(zone, nowMs);
  const horizon = today + hours.max_days_ahead;
  const first = Math.max(today, localDayNumber(zone, earliest));
  const last = Math.min(horizon, first + SLOT_WINDOW_DAYS);
  const slots: Slot[] = [];
  for (let day = first; day < last; day += 1) {
    const weekday = WEEKDAY_OF_EPOCH_DAY[((day % 7) + 7) % 7];
    if (!hours.days.includes(weekday)) continue;
    const instant = dayClock(zone, day);
    for (let start = open; start + step <= close; start += step) {
      const startMs = instant(start);
      const endMs = instant(start + step);
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
      if (slots.length >= limit) return { slots, next: startMs + 1 };
    }
  }
  return { slots, next: last < horizon ? localMidnight(zone, last) : null };
}
