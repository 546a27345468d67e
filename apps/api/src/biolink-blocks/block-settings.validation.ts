import { isValidTimeZone, Problem, readHttpUrl, urlCredentialsMessage } from '@app/common';
import { BiolinkBlockType } from '@app/database';
import { SOCIAL_NETWORKS } from '@app/signatures';

export const WEEKDAYS = ['mon', 'tue', 'wed', 'thu', 'fri', 'sat', 'sun'] as const;
export type Weekday = (typeof WEEKDAYS)[number];
export const DURATION_TYPES = ['minutes', 'hours'] as const;

/** The settings of a block as stored (JSON) and shown under `settings`. */
export type BlockSettings = Record<string, unknown>;

/** What a create or update body may carry for the settings, as the DTO hands it over. */
export type BlockSettingsInput = Partial<Record<string, unknown>>;

type Kind =
  | { kind: 'text'; max: number }
  | { kind: 'url' }
  | { kind: 'handle' }
  | { kind: 'time' }
  | { kind: 'int'; min: number; max: number }
  | { kind: 'enum'; values: readonly string[] }
  | { kind: 'days' }
  | { kind: 'timezone' }
  | { kind: 'ids' };

interface FieldRule {
  rule: Kind;
  required?: boolean;
  /** The value a new block starts with when the body leaves the field out. */
  initial: unknown;
}

const text = (max: number, initial: string | null = null, required = false): FieldRule => ({
  rule: { kind: 'text', max },
  initial,
  required,
});
const url = (required = false): FieldRule => ({ rule: { kind: 'url' }, initial: null, required });

const COLLECTOR: Record<string, FieldRule> = {
  name: text(128, 'Send'),
  title: text(256),
  description: text(2048),
  name_placeholder: text(128, 'Your name'),
  email_placeholder: text(128, 'Email address'),
  phone_placeholder: text(128, 'Phone number'),
  message_placeholder: text(128, 'Message'),
  thank_you_message: text(1024, 'Thank you!'),
  thank_you_url: url(),
  agreement_text: text(512),
  agreement_url: url(),
  notification_handlers_ids: { rule: { kind: 'ids' }, initial: [] },
};

/** The fields of each block type; anything else in a body is ignored. */
export const BLOCK_FIELDS: Record<BiolinkBlockType, Record<string, FieldRule>> = {
  link: { name: text(128, null, true), location_url: url(true) },
  heading: {
    text: text(256, null, true),
    heading_type: { rule: { kind: 'enum', values: ['h1', 'h2', 'h3'] }, initial: 'h2' },
  },
  paragraph: { text: text(4096, null, true) },
  image: { image_alt: text(256), location_url: url() },
  socials: Object.fromEntries(
    SOCIAL_NETWORKS.map((n) => [n, { rule: { kind: 'handle' }, initial: null }]),
  ),
  email_collector: COLLECTOR,
  phone_collector: COLLECTOR,
  contact_collector: COLLECTOR,
  appointment_calendar: {
    ...COLLECTOR,
    timezone: { rule: { kind: 'timezone' }, initial: 'UTC' },
    days: { rule: { kind: 'days' }, initial: ['mon', 'tue', 'wed', 'thu', 'fri'] },
    start_time: { rule: { kind: 'time' }, initial: '09:00' },
    end_time: { rule: { kind: 'time' }, initial: '17:00' },
    duration_value: { rule: { kind: 'int', min: 1, max: 1440 }, initial: 30 },
    duration_type: { rule: { kind: 'enum', values: DURATION_TYPES }, initial: 'minutes' },
    max_days_ahead: { rule: { kind: 'int', min: 1, max: 90 }, initial: 14 },
    min_notice_minutes: { rule: { kind: 'int', min: 0, max: 43200 }, initial: 60 },
  },
};

const TIME = /^([01]\d|2[0-3]):[0-5]\d$/;
const HANDLE = /^[A-Za-z0-9._-]{1,64}$/;

/** One field's value read from a body, or the problem with it. */
function read(field: string, rule: Kind, raw: unknown): { value?: unknown; problem?: string } {
  if (rule.kind === 'ids' || rule.kind === 'days') {
    const list =
      raw === ''
        ? []
        : Array.isArray(raw)
          ? raw
          : typeof raw === 'object' && raw
            ? Object.values(raw)
            : [raw];
    if (rule.kind === 'days') {
      const days = list.map((d) => String(d).trim().toLowerCase());
      if (days.some((d) => !(WEEKDAYS as readonly string[]).includes(d))) {
        return { problem: `${field} must list days among ${WEEKDAYS.join(', ')}.` };
      }
      return { value: WEEKDAYS.filter((d) => days.includes(d)) };
    }
    const ids = list.map((v) => (typeof v === 'number' ? v : Number(String(v).trim())));
    if (
      ids.length > 20 ||
      ids.some((id) => !Number.isInteger(id) || id < 1 || id > 2_147_483_647)
    ) {
      return { problem: `${field} must be at most 20 notification handler ids of yours.` };
    }
    return { value: [...new Set(ids)] };
  }
  if (typeof raw !== 'string' && typeof raw !== 'number') {
    return { problem: `${field} must be a single value.` };
  }
  const value = String(raw).trim();
  switch (rule.kind) {
    case 'text':
      return value.length > rule.max
        ? { problem: `${field} must be at most ${rule.max} characters.` }
        : { value: value === '' ? null : value };
    case 'url': {
      if (value === '') return { value: null };
      const url = readHttpUrl(value);
      if (url.ok) return { value: url.href };
      return {
        problem: url.credentials
          ? urlCredentialsMessage(field)
          : `${field} must be an http:// or https:// URL with a host.`,
      };
    }
    case 'handle':
      if (value === '') return { value: null };
      return HANDLE.test(value.replace(/^@/, ''))
        ? { value: value.replace(/^@/, '') }
        : { problem: `${field} must be a handle of letters, digits, ., _ or - (at most 64).` };
    case 'time':
      return TIME.test(value) ? { value } : { problem: `${field} must be a time as HH:MM (24 h).` };
    case 'int': {
      const n = /^\d{1,6}$/.test(value) ? Number(value) : NaN;
      return Number.isInteger(n) && n >= rule.min && n <= rule.max
        ? { value: n }
        : { problem: `${field} must be a whole number from ${rule.min} to ${rule.max}.` };
    }
    case 'enum':
      return rule.values.includes(value)
        ? { value }
        : { problem: `${field} must be one of ${rule.values.join(', ')}.` };
    case 'timezone':
      return isValidTimeZone(value)
        ? { value }
        : { problem: `${field} must be an IANA time zone such as Europe/Paris.` };
  }
}

/**
 * The settings of a block of `type`: the body's fields over `current` (a new block starts from
 * each field's initial value). Problems name the field; required fields must end up set.
 */
export function buildBlockSettings(
  type: BiolinkBlockType,
  body: BlockSettingsInput,
  current: BlockSettings | null,
): { settings: BlockSettings; problems: Problem[] } {
  const fields = BLOCK_FIELDS[type];
  const settings: BlockSettings = {};
  const problems: Problem[] = [];
  for (const [field, spec] of Object.entries(fields)) {
    const raw = body[field];
    const before = current && field in current ? current[field] : spec.initial;
    if (raw === undefined || raw === null) {
      settings[field] = before;
    } else {
      const { value, problem } = read(field, spec.rule, raw);
      if (problem !== undefined) {
        problems.push({ title: problem, field });
        continue;
      }
      settings[field] = value;
    }
    if (spec.required && (settings[field] === null || settings[field] === undefined)) {
      problems.push({ title: `${field} is required for a ${type} block.`, field });
    }
  }
  if (type === 'appointment_calendar' && problems.length === 0) {
    if (String(settings.start_time) >= String(settings.end_time)) {
      problems.push({ title: 'end_time must be after start_time.', field: 'end_time' });
    }
    if ((settings.days as string[]).length === 0) {
      problems.push({ title: 'days must name at least one day.', field: 'days' });
    }
  }
  return { settings, problems };
}
