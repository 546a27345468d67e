import { isValidTimeZone } from './datetime';

/*
 * Time-zone arithmetic for statistics, on epoch milliseconds. Every offset in use today is a
 * multiple of 15 minutes, so a local day or hour always starts on a UTC quarter hour: that is the
 * grain of the roll-ups, and what keeps them exact in every zone.
 */

export const QUARTER_MS = 15 * 60 * 1000;
export const DAY_MS = 24 * 60 * 60 * 1000;

const formatters = new Map<string, Intl.DateTimeFormat>();

function formatterFor(zone: string): Intl.DateTimeFormat {
  let formatter = formatters.get(zone);
  if (formatter === undefined) {
    formatter = new Intl.DateTimeFormat('en-US', {
      timeZone: zone,
      hourCycle: 'h23',
      year: 'numeric',
      month: 'numeric',
      day: 'numeric',
      hour: 'numeric',
      minute: 'numeric',
      second: 'numeric',
    });
    formatters.set(zone, formatter);
  }
  return formatter;
}

/** A zone that can be used; an unknown one (a stale user setting) counts as UTC. */
export function usableTimeZone(zone: string): string {
  return isValidTimeZone(zone) ? zone : 'UTC';
}

/** How far the zone's wall clock is ahead of UTC at the instant, in milliseconds. */
export function zoneOffsetMs(zone: string, epochMs: number): number {
  const parts: Record<string, number> = {};
  for (const part of formatterFor(zone).formatToParts(epochMs)) {
    if (part.type !== 'literal') {
      parts[part.type] = Number(part.value);
    }
  }
  let wall = Date.UTC(
    parts.year,
    parts.month - 1,
    parts.day,
    parts.hour,
    parts.minute,
    parts.second,
  );
  if (parts.year < 100) {
    // Date.UTC reads the years 0–99 as 1900–1999.
    const date = new Date(wall);
    date.setUTCFullYear(parts.year);
    wall = date.getTime();
  }
  const whole = epochMs - (epochMs % 1000);
  return wall - whole;
}

/** The local calendar date of the instant as days since 1970-01-01. */
export function localDayNumber(zone: string, epochMs: number): number {
  return Math.floor((epochMs + zoneOffsetMs(zone, epochMs)) / DAY_MS);
}

/**
 * The instant the local date (days since 1970-01-01) begins in the zone: its first quarter hour.
 * Where clocks jump forward at midnight (Santiago, the Azores, Havana), midnight does not exist and
 * the offset before the jump lands the estimate on the previous day; it then moves forward a quarter
 * at a time until it reaches the day (and back, should it overshoot). No transition moves clocks by
 * more than a few hours, so both walks are short.
 */
export function localMidnight(zone: string, day: number): number {
  const wall = day * DAY_MS;
  const guess = wall - zoneOffsetMs(zone, wall);
  let start = wall - zoneOffsetMs(zone, guess);
  for (let i = 0; i < 24 && localDayNumber(zone, start) < day; i++) {
    start += QUARTER_MS;
  }
  for (let i = 0; i < 24 && localDayNumber(zone, start - QUARTER_MS) >= day; i++) {
    start -= QUARTER_MS;
  }
  return start;
}

/** A stretch of time with one offset: [start, end) in epoch ms. */
export interface OffsetSegment {
  start: number;
  end: number;
  offsetMs: number;
}

/**
 * Splits [start, end) into stretches of constant offset, cut exactly at the zone's transitions
 * (found to the quarter hour). A year has at most a few.
 */
export function offsetSegments(zone: string, start: number, end: number): OffsetSegment[] {
  const offsetAt = (quarter: number): number => zoneOffsetMs(zone, quarter * QUARTER_MS);
  const first = Math.floor(start / QUARTER_MS);
  const last = Math.ceil(end / QUARTER_MS) - 1;
  const segments: OffsetSegment[] = [];
  let segmentStart = start;
  let offset = offsetAt(first);
  let known = first; // the latest quarter known to have `offset`
  while (known < last) {
    const probe = Math.min(known + 96, last);
    if (offsetAt(probe) === offset) {
      known = probe;
      continue;
    }
    // The change lies in (known, probe]: find the first quarter with another offset.
    let low = known;
    let high = probe;
    while (high - low > 1) {
      const middle = Math.floor((low + high) / 2);
      if (offsetAt(middle) === offset) {
        low = middle;
      } else {
        high = middle;
      }
    }
    const cut = high * QUARTER_MS;
    segments.push({ start: segmentStart, end: cut, offsetMs: offset });
    segmentStart = cut;
    offset = offsetAt(high);
    known = high;
  }
  segments.push({ start: segmentStart, end, offsetMs: offset });
  return segments;
}

/** Parses `Y-m-d` into days since 1970-01-01; null unless it is a real calendar date. */
export function parseDay(value: string): number | null {
  const match = /^(\d{4})-(\d{2})-(\d{2})$/.exec(value);
  if (!match) {
    return null;
  }
  const ms = Date.UTC(Number(match[1]), Number(match[2]) - 1, Number(match[3]));
  return formatDay(ms / DAY_MS) === value ? ms / DAY_MS : null;
}

/** Days since 1970-01-01 as `Y-m-d`. */
export function formatDay(day: number): string {
  return new Date(day * DAY_MS).toISOString().slice(0, 10);
}
