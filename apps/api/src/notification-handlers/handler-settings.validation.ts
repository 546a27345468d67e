import { isEmailAddress, isHttpUrl, normalizeHttpUrl, Problem } from '@app/common';
import { HANDLER_FIELDS, HandlerSettings, HandlerType, newWebhookSecret } from '@app/notifications';

const E164 = /^\+[1-9]\d{6,14}$/;
const X_KEY = /^[A-Za-z0-9_-]{10,200}$/;

type Check = { test: (value: string) => boolean; message: string };

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

/** The format of each per-kind field. */
export const FIELD_CHECKS: Record<string, Check> = {
  email: {
    test: isEmailAddress,
    message: 'email must be an email address.',
  },
  webhook: { test: isHttpUrl, message: 'webhook must be an http(s) URL.' },
  webhook_secret: {
    test: (v) => /^[\x21-\x7e]{16,128}$/.test(v),
    message: 'webhook_secret must be 16 to 128 printable characters without spaces.',
  },
  slack: {
    test: httpsUrlOn(
      (h) => h === 'hooks.slack.com' || h === 'hooks.slack-gov.com',
      /^\/(services|workflows|triggers)\/[A-Za-z0-9/_-]+$/,
    ),
    message: 'slack must be a Slack incoming-webhook URL (https://hooks.slack.com/services/...).',
  },
  discord: {
    test: httpsUrlOn(
      (h) => /^(ptb\.|canary\.)?discord(app)?\.com$/.test(h),
      /^\/api\/webhooks\/\d+\/[A-Za-z0-9_-]+$/,
    ),
    message:
      'discord must be a Discord webhook URL (https://discord.com/api/webhooks/{id}/{token}).',
  },
  microsoft_teams: {
    test: httpsUrlOn(
      (h) => /\.(webhook\.office\.com|logic\.azure\.com|powerplatform\.com)$/.test(h),
      /^\/.+/,
    ),
    message:
      'microsoft_teams must be a Teams webhook URL (https://....webhook.office.com/... or a Workflows URL on logic.azure.com or powerplatform.com).',
  },
  google_chat: {
    test: httpsUrlOn((h) => h === 'chat.googleapis.com', /^\/v1\/spaces\/[^/]+\/messages\?.+/),
    message:
      'google_chat must be a Google Chat webhook URL (https://chat.googleapis.com/v1/spaces/.../messages?key=...).',
  },
  telegram: {
    test: (v) => /^\d{5,15}:[A-Za-z0-9_-]{30,50}$/.test(v),
    message: 'telegram must be a bot token as given by @BotFather (123456789:AA...).',
  },
  telegram_chat_id: {
    test: (v) => /^-?\d{1,20}$/.test(v) || /^@[A-Za-z][A-Za-z0-9_]{4,31}$/.test(v),
    message: 'telegram_chat_id must be a chat id (a number) or a @channelname.',
  },
  x_consumer_key: { test: (v) => X_KEY.test(v), message: 'x_consumer_key must be an X API key.' },
  x_consumer_secret: {
    test: (v) => X_KEY.test(v),
    message: 'x_consumer_secret must be an X API key secret.',
  },
  x_access_token: {
    test: (v) => X_KEY.test(v),
    message: 'x_access_token must be an X access token.',
  },
  x_access_token_secret: {
    test: (v) => X_KEY.test(v),
    message: 'x_access_token_secret must be an X access token secret.',
  },
  push_subscriber_id: {
    test: (v) => /^[1-9]\d{0,9}$/.test(v),
    message: 'push_subscriber_id must be the id of a push subscriber.',
  },
  twilio: {
    test: (v) => E164.test(v),
    message: 'twilio must be a phone number in E.164 form (+15551234567).',
  },
  twilio_call: {
    test: (v) => E164.test(v),
    message: 'twilio_call must be a phone number in E.164 form (+15551234567).',
  },
  whatsapp: {
    test: (v) => E164.test(v),
    message: 'whatsapp must be a phone number in E.164 form (+15551234567).',
  },
};

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
  for (const field of HANDLER_FIELDS[type]) {
    const sent = input[field];
    const given = typeof sent === 'string' && sent !== '' ? sent : current[field];
    const value = given && URL_FIELDS.has(field) ? (normalizeHttpUrl(given) ?? given) : given;
    if (value === undefined || value === '') {
      if (field === 'webhook_secret') {
        generatedSecret = newWebhookSecret();
        settings[field] = generatedSecret;
        continue;
      }
      problems.push({ title: `${field} is required for type ${type}.`, field });
      continue;
    }
    if (!FIELD_CHECKS[field].test(value)) {
      problems.push({ title: FIELD_CHECKS[field].message, field });
      continue;
    }
    settings[field] = value;
  }
  if (type === 'webhook') {
    const format = input.webhook_format ?? current.webhook_format;
    if (format === 'form' || format === 'json') {
      settings.webhook_format = format;
    }
  }
  return { settings, problems, generatedSecret };
}
