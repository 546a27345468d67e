import type { EventEnvelope } from './envelope';

/**
 * The origin's form-urlencoded keys (origin-api.md §15.1) for receivers written for it: the
 * event's scalar fields at the top level, a collected record's own keys (`email`, `name`,
 * `phone`, …) beside `link_id` and `biolink_block_id`, and `event`, `event_id`, `created_at`.
 */
export function toFormFields(envelope: EventEnvelope): Record<string, string> {
  const fields: Record<string, string> = {};
  const put = (source: Record<string, unknown>) => {
    for (const [key, value] of Object.entries(source)) {
      if (typeof value === 'string' || typeof value === 'number' || typeof value === 'boolean') {
        fields[key] = String(value);
      }
    }
  };
  put(envelope.data);
  const nested = envelope.data.data;
  if (nested !== null && typeof nested === 'object' && !Array.isArray(nested)) {
    put(nested as Record<string, unknown>);
  }
  fields.event = envelope.event;
  fields.event_id = envelope.id;
  fields.created_at = envelope.created_at;
  return fields;
}
