import { parseDateTime, Problem } from '@app/common';
import { LinkSettings } from '@app/database';
import { UpdateLinkDto } from './dto/update-link.dto';

/** When a scheduled link redirects: from `start`, until `end`; null is open. */
export interface ScheduleWindow {
  start: Date | null;
  end: Date | null;
}

/**
 * Applies `schedule` of a body onto `settings` and reads its dates over `current`; a link with no
 * schedule has no window. The dates are checked even then, so that a bad one is a 400.
 */
export function readSchedule(
  settings: LinkSettings,
  dto: Pick<UpdateLinkDto, 'schedule' | 'start_date' | 'end_date'>,
  current: ScheduleWindow,
): { window: ScheduleWindow; problems: Problem[] } {
  if (dto.schedule !== undefined) settings.schedule = dto.schedule;
  const start =
    dto.start_date !== undefined
      ? parseDate(dto.start_date, 'start_date')
      : { date: current.start, problems: [] };
  const end =
    dto.end_date !== undefined
      ? parseDate(dto.end_date, 'end_date')
      : { date: current.end, problems: [] };
  const problems = [...start.problems, ...end.problems];
  if (!settings.schedule) {
    return { window: { start: null, end: null }, problems };
  }
  if (start.date === null && end.date === null) {
    problems.push({ title: 'schedule needs start_date, end_date or both.', field: 'start_date' });
  }
  if (start.date !== null && end.date !== null && end.date <= start.date) {
    problems.push({ title: 'end_date must be after start_date.', field: 'end_date' });
  }
  return { window: { start: start.date, end: end.date }, problems };
}

/** An empty value clears the date. */
function parseDate(value: string, field: string): { date: Date | null; problems: Problem[] } {
  if (value === '') {
    return { date: null, problems: [] };
  }
  const date = parseDateTime(value);
  if (date === null) {
    return {
      date,
      problems: [{ title: `${field} is not a real date and time (Y-m-d H:i:s).`, field }],
    };
  }
  return { date, problems: [] };
}
