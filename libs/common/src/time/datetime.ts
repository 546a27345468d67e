const API_DATETIME = /^(\d{4})-(\d{2})-(\d{2}) (\d{2}):(\d{2}):(\d{2})$/;

/** `Y-m-d H:i:s` in UTC, the API's one datetime format; null stays null. */
export function formatDateTime(date: Date): string;
export function formatDateTime(date: Date | null): string | null;
export function formatDateTime(date: Date | null): string | null {
  if (date === null) {
    return null;
  }
  return date.toISOString().slice(0, 19).replace('T', ' ');
}

/** Parses `Y-m-d H:i:s` (UTC). Returns null unless it is a real calendar date and time. */
export function parseDateTime(value: string): Date | null {
  const match = API_DATETIME.exec(value);
  if (!match) {
    return null;
  }
  const date = new Date(`${value.replace(' ', 'T')}Z`);
  return Number.isNaN(date.getTime()) || formatDateTime(date) !== value ? null : date;
}

/** Whether `zone` is an IANA time zone this runtime knows, e.g. `Europe/Berlin`. */
export function isValidTimeZone(zone: string): boolean {
  try {
    new Intl.DateTimeFormat('en-US', { timeZone: zone });
    return true;
  } catch {
    return false;
  }
}
