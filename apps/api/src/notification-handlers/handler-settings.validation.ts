import { Matches, ValidateBy } from 'class-validator';
import {
  IsEmailAddress,
  isHttpUrl,
  normalizeHttpUrl,
  Problem,
  instanceProblems,
} from '@app/common';
import { HANDLER_FIELDS, HandlerSettings, HandlerType, newWebhookSecret } from '@app/notifications';

const E164 = /^\+[1-9]\d{6,14}$/;
const X_KEY = /^[A-Za-z0-9_-]{10,200}$/;

/** A string `test` accepts, reported with `message`. */
function Satisfies(test: (value: string) => boolean, message: string): PropertyDecorator {
  return ValidateBy(
    {
      name: 'satisfies',
      validator: { validate: (value: unknown) => typeof value === 'string' && test(value) },
    },
    { message },
  );
}

/** An https URL (by the one URL rule, `isHttpUrl`) on the default port of one of `hosts`. */
function httpsUrlOn(hosts: (host: string) => boolean, path: RegExp): (value: string) => boolean {
  return (value) => {
    if (!isHttpUrl(value)) {
      return false;
    }
    const url = new URL(value);
    return (
      url.protocol === 'https:' &&
      url.port === '' &&
      hosts(url.hostname) &&
      path.test(`${url.pathname}${url.search}`)
    );
  };
}

const E164_MESSAGE = (field: string) =>
  `${field} must be a phone number in E.164 form (+15551234567).`;

/** The class-validator rule of each per-kind field. */
const FIELD_RULES: Record<string, PropertyDecorator> = {
  email: IsEmailAddress({ message: 'email must be an email address.' }),
  webhook: Satisfies(isHttpUrl, 'webhook must be an http(s) URL.'),
  webhook_secret: Matches(/^[\x21-\x7e]{16,128}$/, {
    message: 'webhook_secret must be 16 to 128 printable characters without spaces.',
  }),
  slack: Satisfies(
    httpsUrlOn(
      (h) => h === 'hooks.slack.com' || h === 'hooks.slack-gov.com',
      /^\/(services|workflows|triggers)\/[A-Za-z0-9/_-]+$/,
    ),
    'slack must be a Slack incoming-webhook URL (https://hooks.slack.com/services/...).',
  ),
  discord: Satisfies(
    httpsUrlOn(
      (h) => /^(ptb\.|canary\.)?discord(app)?\.com$/.test(h),
      /^\/api\/webhooks\/\d+\/[A-Za-z0-9_-]+$/,
    ),
    'discord must be a Discord webhook URL (https://discord.com/api/webhooks/{id}/{token}).',
  ),
  microsoft_teams: Satisfies(
    httpsUrlOn(
      (h) => /\.(webhook\.office\.com|logic\.azure\.com|powerplatform\.com)$/.test(h),
      /^\/.+/,
    ),
    'microsoft_teams must be a Teams webhook URL (https://....webhook.office.com/... or a Workflows URL on logic.azure.com or powerplatform.com).',
  ),
  google_chat: Satisfies(
    httpsUrlOn((h) => h === 'chat.googleapis.com', /^\/v1\/spaces\/[^/]+\/messages\?.+/),
    'google_chat must be a Google Chat webhook URL (https://chat.googleapis.com/v1/spaces/.../messages?key=...).',
  ),
  telegram: Matches(/^\d{5,15}:[A-Za-z0-9_-]{30,50}$/, {
    message: 'telegram must be a bot token as given by @BotFather (123456789:AA...).',
  }),
  telegram_chat_id: Satisfies(
    (v) => /^-?\d{1,20}$/.test(v) || /^@[A-Za-z][A-Za-z0-9_]{4,31}$/.test(v),
    'telegram_chat_id must be a chat id (a number) or a @channelname.',
  ),
  x_consumer_key: Matches(X_KEY, { message: 'x_consumer_key must be an X API key.' }),
  x_consumer_secret: Matches(X_KEY, { message: 'x_consumer_secret must be an X API key secret.' }),
  x_access_token: Matches(X_KEY, { message: 'x_access_token must be an X access token.' }),
  x_access_token_secret: Matches(X_KEY, {
    message: 'x_access_token_secret must be an X access token secret.',
  }),
  push_subscriber_id: Matches(/^[1-9]\d{0,9}$/, {
    message: 'push_subscriber_id must be the id of a push subscriber.',
  }),
  twilio: Matches(E164, { message: E164_MESSAGE('twilio') }),
  twilio_call: Matches(E164, { message: E164_MESSAGE('twilio_call') }),
  whatsapp: Matches(E164, { message: E164_MESSAGE('whatsapp') }),
};

/**
 * One class-validator class per handler type, declaring that type's fields (HANDLER_FIELDS) in
 * their order, each with its rule: built once, at start-up.
 */
const SETTINGS_CLASSES = new Map<HandlerType, new () => object>(
  (Object.keys(HANDLER_FIELDS) as HandlerType[]).map((type) => {
    const Settings = class {};
    Object.defineProperty(Settings, 'name', { value: `${type}HandlerSettings` });
    for (const field of HANDLER_FIELDS[type]) {
      FIELD_RULES[field](Settings.prototype, field);
    }
    return [type, Settings];
  }),
);

/** Fields holding a URL: stored as the URL parser writes them (punycode host, encoded path). */
const URL_FIELDS: ReadonlySet<string> = new Set([
  'webhook',
  'slack',
  'discord',
  'microsoft_teams',
  'google_chat',
]);

/**
 * The settings of a handler of `type` after this request: the sent fields over the current ones
 * (only when the type is unchanged), each required field present and well-formed. A webhook
 * without a secret gets a generated one.
 */
export function buildHandlerSettings(
  type: HandlerType,
  body: object,
  current: HandlerSettings,
): { settings: HandlerSettings; problems: Problem[]; generatedSecret: string | null } {
  const input = body as Record<string, unknown>;
  const problems: Problem[] = [];
  const settings: HandlerSettings = {};
  let generatedSecret: string | null = null;
  const checked = new (SETTINGS_CLASSES.get(type) as new () => Record<string, string>)();
  const missing = new Map<string, Problem>();
  for (const field of HANDLER_FIELDS[type]) {
    const sent = input[field];
    const given = typeof sent === 'string' && sent !== '' ? sent : current[field];
    const value = given && URL_FIELDS.has(field) ? (normalizeHttpUrl(given) ?? given) : given;
    if (value === undefined || value === '') {
      if (field === 'webhook_secret') {
        generatedSecret = newWebhookSecret();
        continue;
      }
      missing.set(field, { title: `${field} is required for type ${type}.`, field });
      continue;
    }
    checked[field] = value;
  }
  const invalid = new Map(instanceProblems(checked).map((p) => [p.field, p]));
  for (const field of HANDLER_FIELDS[type]) {
    const problem = missing.get(field) ?? invalid.get(field);
    if (problem) {
      problems.push(problem);
    } else if (checked[field] !== undefined) {
      settings[field] = checked[field];
    } else if (field === 'webhook_secret' && generatedSecret !== null) {
      settings[field] = generatedSecret;
    }
  }
  if (type === 'webhook') {
    const format = input.webhook_format ?? current.webhook_format;
    if (format === 'form' || format === 'json') {
      settings.webhook_format = format;
    }
  }
  return { settings, problems, generatedSecret };
}
