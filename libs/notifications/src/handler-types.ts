/** Channel kinds of a notification handler (origin-api.md §9). */
export const HANDLER_TYPES = [
  'email',
  'webhook',
  'slack',
  'discord',
  'telegram',
  'microsoft_teams',
  'twilio',
  'twilio_call',
  'whatsapp',
  'x',
  'google_chat',
  'push_subscriber_id',
] as const;
export type HandlerType = (typeof HANDLER_TYPES)[number];

export const X_FIELDS = [
  'x_consumer_key',
  'x_consumer_secret',
  'x_access_token',
  'x_access_token_secret',
] as const;

/** The settings fields of each kind, all required for that kind (webhook_secret is generated). */
export const HANDLER_FIELDS: Record<HandlerType, readonly string[]> = {
  email: ['email'],
  webhook: ['webhook', 'webhook_secret'],
  slack: ['slack'],
  discord: ['discord'],
  telegram: ['telegram', 'telegram_chat_id'],
  microsoft_teams: ['microsoft_teams'],
  google_chat: ['google_chat'],
  x: X_FIELDS,
  push_subscriber_id: ['push_subscriber_id'],
  twilio: ['twilio'],
  twilio_call: ['twilio_call'],
  whatsapp: ['whatsapp'],
};

export const ALL_HANDLER_FIELDS = [...new Set(Object.values(HANDLER_FIELDS).flat())];

/** Fields shown masked in responses: tokens, keys and webhook URLs whose path is the secret. */
export const SECRET_FIELDS: ReadonlySet<string> = new Set([
  'webhook',
  'webhook_secret',
  'slack',
  'discord',
  'telegram',
  'microsoft_teams',
  'google_chat',
  ...X_FIELDS,
]);

export type HandlerSettings = Record<string, string>;

/** `****` and the last four characters; a URL keeps its origin so the user can tell which it is. */
export function maskSecret(value: string): string {
  const tail = value.length > 8 ? value.slice(-4) : '';
  try {
    const url = new URL(value);
    if (url.protocol === 'http:' || url.protocol === 'https:') {
      return `${url.origin}/****${tail}`;
    }
  } catch {
    // not a URL
  }
  return `****${tail}`;
}

export function maskSettings(settings: HandlerSettings): HandlerSettings {
  const out: HandlerSettings = {};
  for (const [key, value] of Object.entries(settings)) {
    out[key] = SECRET_FIELDS.has(key) ? maskSecret(value) : value;
  }
  return out;
}
