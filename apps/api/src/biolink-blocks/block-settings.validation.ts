import { Problem, validateAs } from '@app/common';
import { BiolinkBlockType } from '@app/database';
import { AppointmentHoursOrder, BLOCK_SETTINGS } from './dto/block-settings.dto';

/** The settings of a block as stored (JSON) and shown under `settings`. */
export type BlockSettings = Record<string, unknown>;

/** What a create or update body may carry for the settings, as the DTO hands it over. */
export type BlockSettingsInput = Partial<Record<string, unknown>>;

/** The fields of a block type, in their order, with the values a new block starts with. */
export function initialBlockSettings(type: BiolinkBlockType): BlockSettings {
  return { ...new BLOCK_SETTINGS[type]() };
}

/**
 * The settings of a block of `type`: the body's fields over `current` (a new block starts from
 * the initial values of its type's settings class). A field absent or null in the body keeps its
 * value and is not checked again; the sent ones are checked by the class's rules, and a required
 * field must end up set. Problems name the field.
 */
export function buildBlockSettings(
  type: BiolinkBlockType,
  body: BlockSettingsInput,
  current: BlockSettings | null,
): { settings: BlockSettings; problems: Problem[] } {
  const before: BlockSettings = { ...initialBlockSettings(type), ...current };
  const sent: Record<string, unknown> = {};
  for (const field of Object.keys(initialBlockSettings(type))) {
    const raw = body[field];
    if (raw !== undefined && raw !== null) {
      sent[field] = raw;
    } else if (before[field] === null) {
      // Not sent and not set: a required field says so.
      sent[field] = null;
    }
  }
  const checked = validateAs(BLOCK_SETTINGS[type], sent, { partial: true });
  const settings: BlockSettings = {};
  for (const field of Object.keys(initialBlockSettings(type))) {
    const value = (checked.value as BlockSettings)[field];
    settings[field] = value === undefined ? before[field] : value;
  }
  if (type === 'appointment_calendar' && checked.problems.length === 0) {
    return { settings, problems: validateAs(AppointmentHoursOrder, settings).problems };
  }
  return { settings, problems: checked.problems };
}
