import { normalizeHttpUrl, Problem, readHttpUrl, urlCredentialsMessage } from '@app/common';
import { TargetingRule, TargetingType, TARGETING_TYPES } from '@app/database';
import { MAX_TARGETING_RULES } from './dto/create-link.dto';

export const CONTINENT_CODES = ['AF', 'AN', 'AS', 'EU', 'NA', 'OC', 'SA'] as const;
export const DEVICE_TYPES = ['desktop', 'mobile', 'tablet'] as const;

/** The targeting fields of a create or update body, keyed by name. */
export type TargetingInput = Partial<Record<string, string[] | undefined>>;

/**
 * Reads `targeting_<type>_key[]` / `_value[]` into rules, or problems naming the field at fault.
 * Keys are normalised so the edge can compare them directly with the visitor's attributes.
 */
export function parseTargeting(
  type: TargetingType,
  body: TargetingInput,
): { rules: TargetingRule[]; problems: Problem[] } {
  const problems: Problem[] = [];
  const keyField = `targeting_${type}_key`;
  const valueField = `targeting_${type}_value`;
  const keys = body[keyField] ?? [];
  const values = body[valueField] ?? [];
  if (keys.length === 0) {
    problems.push({
      title: `${keyField} needs at least one rule for targeting_type ${type}.`,
      field: keyField,
    });
    return { rules: [], problems };
  }
  if (keys.length !== values.length) {
    problems.push({
      title: `${keyField} and ${valueField} must have the same number of entries (${keys.length} and ${values.length}).`,
      field: valueField,
    });
    return { rules: [], problems };
  }
  if (keys.length > MAX_TARGETING_RULES) {
    problems.push({ title: `At most ${MAX_TARGETING_RULES} targeting rules.`, field: keyField });
    return { rules: [], problems };
  }
  const rules: TargetingRule[] = [];
  keys.forEach((rawKey, i) => {
    const key = normaliseTargetingKey(type, rawKey.trim());
    const value = readHttpUrl(values[i] ?? '');
    if (key === null) {
      problems.push({ title: `${keyField}[${i}]: ${describeKey(type)}.`, field: keyField });
    }
    if (!value.ok) {
      problems.push({
        title: value.credentials
          ? urlCredentialsMessage(`${valueField}[${i}]`)
          : `${valueField}[${i}] must be an http:// or https:// URL with a host.`,
        field: valueField,
      });
    }
    if (key !== null && value.ok) {
      rules.push({ key, value: value.href });
    }
  });
  return { rules, problems };
}

export function isTargetingType(value: string): value is TargetingType {
  return (TARGETING_TYPES as readonly string[]).includes(value);
}

function normaliseTargetingKey(type: TargetingType, key: string): string | null {
  switch (type) {
    case 'country_code':
      return /^[A-Za-z]{2}$/.test(key) ? key.toUpperCase() : null;
    case 'continent_code': {
      const upper = key.toUpperCase();
      return (CONTINENT_CODES as readonly string[]).includes(upper) ? upper : null;
    }
    case 'device_type': {
      const lower = key.toLowerCase();
      return (DEVICE_TYPES as readonly string[]).includes(lower) ? lower : null;
    }
    case 'os_name':
    case 'browser_name':
      return key !== '' && key.length <= 64 ? key : null;
    case 'browser_language':
      return /^[A-Za-z]{2,3}$/.test(key) ? key.toLowerCase() : null;
    case 'rotation':
      return /^\d{1,4}$/.test(key) && Number(key) >= 1 && Number(key) <= 1000
        ? String(Number(key))
        : null;
  }
}

function describeKey(type: TargetingType): string {
  switch (type) {
    case 'country_code':
      return 'a two-letter ISO 3166-1 country code, e.g. US';
    case 'continent_code':
      return `a continent code, one of ${CONTINENT_CODES.join(', ')}`;
    case 'device_type':
      return `a device type, one of ${DEVICE_TYPES.join(', ')}`;
    case 'os_name':
      return 'an operating system name such as Windows, iOS or Android (at most 64 characters)';
    case 'browser_name':
      return 'a browser name such as Chrome, Firefox or Safari (at most 64 characters)';
    case 'browser_language':
      return 'a two- or three-letter language code, e.g. en';
    case 'rotation':
      return 'a whole-number weight from 1 to 1000';
  }
}

/** The wa.me address of a chat link. */
export function whatsappUrl(phoneNumber: string, message: string | null | undefined): string {
  return message
    ? `https://wa.me/${phoneNumber}?text=${encodeURIComponent(message)}`
    : `https://wa.me/${phoneNumber}`;
}

/** The number and message of a chat link. */
export interface ChatTarget {
  phoneNumber: string;
  message: string | null;
}

/** Reads a wa.me or api.whatsapp.com/send address back into number and message. */
export function parseWhatsappUrl(value: string): ChatTarget | null {
  const href = normalizeHttpUrl(value);
  if (href === null) {
    return null;
  }
  const url = new URL(href);
  if (url.protocol !== 'https:' || url.username !== '' || url.password !== '') {
    return null;
  }
  let phone: string | null = null;
  if (url.hostname === 'wa.me') {
    phone = url.pathname.replace(/^\/|\/$/g, '');
  } else if (url.hostname === 'api.whatsapp.com' && /^\/send\/?$/.test(url.pathname)) {
    phone = url.searchParams.get('phone');
  }
  if (phone === null || !/^[1-9]\d{6,14}$/.test(phone)) {
    return null;
  }
  return { phoneNumber: phone, message: url.searchParams.get('text') || null };
}

/**
 * The chat a walink body asks for: from its wa.me `location_url` when that comes without a
 * `phone_number`, else from `phone_number` and `message`.
 */
export function chatTarget(
  phoneNumber: string | undefined,
  message: string | null | undefined,
  locationUrl: string | undefined,
): { chat: ChatTarget | null; problems: Problem[] } {
  if (locationUrl !== undefined && phoneNumber === undefined) {
    const parsed = parseWhatsappUrl(locationUrl);
    if (!parsed) {
      return {
        chat: null,
        problems: [
          {
            title: 'location_url of a walink must be https://wa.me/<number>?text=<message>.',
            field: 'location_url',
          },
        ],
      };
    }
    return { chat: parsed, problems: [] };
  }
  if (!phoneNumber) {
    return {
      chat: null,
      problems: [{ title: 'phone_number is required.', field: 'phone_number' }],
    };
  }
  return { chat: { phoneNumber, message: message || null }, problems: [] };
}
