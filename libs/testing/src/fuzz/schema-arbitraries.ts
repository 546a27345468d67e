import fc from 'fast-check';
import type { SchemaObject } from './openapi-model';
import { aliasArb, dateArb, emailArb, hostArb, hostileValue, Ref, urlArb, Value } from './values';

/** Which pool of stored ids a field or path names. */
const ID_FIELDS: Record<string, string> = {
  project_id: 'projects',
  splash_page_id: 'splash-pages',
  domain_id: 'domains',
  team_id: 'teams',
  link_id: 'links',
};

export const refArb = (pool: string): fc.Arbitrary<Value> =>
  fc.oneof(
    { weight: 4, arbitrary: fc.nat(50).map((i) => new Ref(pool, 'own', i)) },
    { weight: 1, arbitrary: fc.nat(50).map((i) => new Ref(pool, 'other', i)) },
    { weight: 1, arbitrary: fc.constantFrom<Value>(0, '0', '', 999_999) },
  );

const TARGETING_KEYS: Record<string, readonly string[]> = {
  rotation: ['1', '5', '50', '100', '0', '-1', '1e3', '999999999999', '1.5', ''],
  country_code: ['US', 'DE', 'FR', 'ZZ', 'us', ''],
  continent_code: ['EU', 'NA', 'AS', 'XX'],
  device_type: ['desktop', 'mobile', 'tablet', 'toaster'],
  os_name: ['Windows', 'iOS', 'Android', 'Mac OS', 'linux'],
  browser_name: ['Chrome', 'Safari', 'Firefox', 'Edge'],
  browser_language: ['en', 'de', 'fr', 'zz', 'en-US'],
};

const LINK_SCHEMAS = new Set(['CreateLinkDto', 'UpdateLinkDto']);
const PHONE_FIELDS = /^(phone|phone_number|sms|whatsapp|facetime|twilio|twilio_call)$/;
const URL_FIELDS = /(_url|^url|^webhook|^slack|^discord|^microsoft_teams|^google_chat)$/;

const plainString = (maxLength = 40): fc.Arbitrary<Value> =>
  fc.oneof(
    fc.string({ maxLength: Math.min(maxLength, 40) }),
    fc.lorem({ maxCount: 3 }),
    fc.string({ unit: 'grapheme', maxLength: Math.min(maxLength, 20) }),
  );

/** A value that fits the declared schema (and what the field's name says it holds). */
export function validFor(
  name: string,
  schema: SchemaObject,
  schemaName: string,
): fc.Arbitrary<Value> {
  if (schema.enum && schema.enum.length > 0) {
    const values = schema.enum.filter(
      (v): v is string | number => typeof v === 'string' || typeof v === 'number',
    );
    const asText = values.filter((v) => typeof v === 'number').map(String);
    return fc.constantFrom<Value>(...values, ...asText);
  }
  if (schema.pattern) {
    return fc.stringMatching(new RegExp(schema.pattern));
  }
  const pool = ID_FIELDS[name];
  if (pool) {
    return refArb(pool);
  }
  const targeting = /^targeting_(.+)_(key|value)$/.exec(name);
  if (targeting) {
    const item: fc.Arbitrary<Value> =
      targeting[2] === 'value'
        ? urlArb
        : fc.constantFrom(...(TARGETING_KEYS[targeting[1]] ?? ['x']));
    return fc.array(item, { minLength: 1, maxLength: 3 });
  }
  if (schema.type === 'boolean') {
    return fc.constantFrom<Value>(0, 1, '0', '1', true, false);
  }
  if (schema.type === 'integer' || schema.type === 'number') {
    const min = schema.minimum ?? 0;
    const max = schema.maximum ?? 1000;
    const ints = fc.integer({ min: Math.ceil(min), max: Math.floor(max) });
    return schema.type === 'integer'
      ? fc.oneof(ints, ints.map(String))
      : fc.oneof(ints, fc.double({ min, max, noNaN: true }));
  }
  if (schema.type === 'array') {
    return fc.array(validFor(name, schema.items ?? {}, schemaName), { maxLength: 3 });
  }
  if (LINK_SCHEMAS.has(schemaName) && name === 'url') {
    return aliasArb;
  }
  if (name.includes('email')) {
    return emailArb;
  }
  if (name === 'host' || name === 'domain') {
    return hostArb;
  }
  if (URL_FIELDS.test(name)) {
    return urlArb;
  }
  if (name.includes('date')) {
    return dateArb;
  }
  if (PHONE_FIELDS.test(name)) {
    return fc.oneof(fc.stringMatching(/^\+?[0-9]{6,15}$/), fc.constantFrom('+1 555 123 4567'));
  }
  if (name === 'timezone' || name === 'event_timezone') {
    return fc.constantFrom('Europe/Berlin', 'UTC', 'Mars/Phobos', '+05:00', 'America/New_York');
  }
  return plainString(schema.maxLength);
}

/** Mostly a fitting value, sometimes a hostile one (null, a wrong type, a huge string). */
export function fieldArb(
  name: string,
  schema: SchemaObject,
  schemaName: string,
): fc.Arbitrary<Value> {
  return fc.oneof(
    { weight: 4, arbitrary: validFor(name, schema, schemaName) },
    { weight: 1, arbitrary: hostileValue },
  );
}

/** A minimal valid body per schema, so that most requests get past the first check. */
const BASES: Record<string, fc.Arbitrary<Record<string, Value>>> = {
  CreateLinkDto: fc.oneof(
    { weight: 4, arbitrary: urlArb.map((location_url) => ({ location_url })) },
    { weight: 1, arbitrary: fc.constant({ type: 'walink', phone_number: '15551234567' }) },
    { weight: 2, arbitrary: fc.constant({ type: 'static', name: 'Fuzz site' }) },
  ),
  CreateQrCodeDto: fc.constantFrom<Record<string, Value>>(
    { name: 'Fuzz', type: 'text', text: 'fuzz' },
    { name: 'Fuzz', type: 'url', url: 'https://example.com/' },
    { name: 'Fuzz', type: 'email', email: 'fuzz@example.com' },
    { name: 'Fuzz', type: 'wifi', wifi_ssid: 'net', wifi_encryption: 'WPA/WPA2' },
  ),
  CreateNotificationHandlerDto: fc.constantFrom<Record<string, Value>>(
    { name: 'Fuzz', type: 'email', email: 'fuzz@example.com' },
    { name: 'Fuzz', type: 'webhook', webhook: 'http://127.0.0.1:9/hook' },
  ),
  CreateTeamMemberDto: fc
    .tuple(fc.nat(50), emailArb)
    .map(([i, user_email]) => ({ team_id: new Ref('teams', 'own', i), user_email })),
  UpdateTeamsMemberDto: fc.constantFrom<Record<string, Value>>({ status: 1 }, { status: 0 }),
};

function requiredBase(
  schema: SchemaObject,
  schemaName: string,
): fc.Arbitrary<Record<string, Value>> {
  const model: Record<string, fc.Arbitrary<Value>> = {};
  for (const name of schema.required ?? []) {
    const prop = schema.properties?.[name];
    if (prop && prop.format !== 'binary') {
      model[name] = validFor(name, prop, schemaName);
    }
  }
  return fc.record(model);
}

/**
 * A body for a request schema: a valid base plus a few fields (fitting or hostile), every field
 * null at once, or every field hostile at once.
 */
export function bodyArb(schemaName: string, schema: SchemaObject): fc.Arbitrary<Value> {
  const props = Object.entries(schema.properties ?? {}).filter(([, s]) => s.format !== 'binary');
  const names = props.map(([name]) => name);
  const base = BASES[schemaName] ?? requiredBase(schema, schemaName);
  if (names.length === 0) {
    return fc.oneof(base, fc.constant({}));
  }
  const mixed = fc
    .tuple(
      fc.oneof({ weight: 8, arbitrary: base }, { weight: 1, arbitrary: fc.constant({}) }),
      fc.uniqueArray(fc.constantFrom(...names), { maxLength: Math.min(6, names.length) }),
    )
    .chain(([start, chosen]) =>
      fc
        .record(
          Object.fromEntries(
            chosen.map((name) => [name, fieldArb(name, schema.properties![name], schemaName)]),
          ),
        )
        .map((fields): Value => ({ ...start, ...fields })),
    );
  const allNull: Value = Object.fromEntries(names.map((name) => [name, null]));
  const allHostile = fc.record(Object.fromEntries(names.map((name) => [name, hostileValue])));
  return fc.oneof(
    { weight: 12, arbitrary: mixed },
    { weight: 1, arbitrary: fc.constant(allNull) },
    { weight: 1, arbitrary: allHostile },
  );
}
