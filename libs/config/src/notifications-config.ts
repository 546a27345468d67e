import { isEmailAddress } from '@app/common/validation/email';
import { hasUrlCredentials, isHttpUrl, normalizeHttpUrl } from '@app/common/validation/http-url';

/** Outbound delivery of notifications: SMTP, vendor API bases, the SSRF switch, the key for secrets. */
export interface NotificationsConfig {
  /** SECRETS_KEY: 32-byte AES-256-GCM key, or null to use (or create) `$DATA_DIR/secrets.key`. */
  secretsKey: Buffer | null;
  /**
   * VAPID keys for web push (VAPID_PUBLIC_KEY and VAPID_PRIVATE_KEY, base64url); null derives
   * them from the secrets key, so every instance signs with the same pair and nothing is stored.
   */
  vapidKeys: { publicKey: string; privateKey: string } | null;
  /** The contact push services see in each request (VAPID_SUBJECT: mailto: or https:). */
  vapidSubject: string | null;
  /** ALLOW_PRIVATE_WEBHOOKS=1 lets outbound requests reach private, loopback and link-local addresses. */
  allowPrivateWebhooks: boolean;
  /** Per outbound request (connect, send, read), in milliseconds. */
  timeoutMs: number;
  smtpUrl: string | null;
  smtpFrom: string;
  telegramApiUrl: string;
  /** X API v2 base (tweets of `x` handlers). */
  xApiUrl: string;
  /** NOTIFY_VENDOR_BASE_URL: when set, Slack/Discord/Google Chat/Teams webhooks go to `<base>/<type><path>`. */
  vendorBaseUrl: string | null;
  twilio: { apiUrl: string; accountSid: string; authToken: string; from: string } | null;
  whatsapp: {
    apiUrl: string;
    token: string;
    phoneNumberId: string;
    /**
     * The approved message template events are sent with (WHATSAPP_TEMPLATE, with two body
     * parameters: the title and the text), and its language; null sends plain text.
     */
    template: { name: string; language: string } | null;
  } | null;
}

type Get = (name: string) => string | undefined;

export function parseNotificationsConfig(get: Get, problems: string[]): NotificationsConfig {
  const secretsKey = parseSecretsKey(get('SECRETS_KEY'), problems);
  const allow = get('ALLOW_PRIVATE_WEBHOOKS');
  if (allow !== undefined && allow !== '0' && allow !== '1') {
    problems.push(`ALLOW_PRIVATE_WEBHOOKS must be 0 or 1 (got "${allow}")`);
  }
  const rawTimeout = get('NOTIFY_TIMEOUT_MS');
  let timeoutMs = 10_000;
  if (rawTimeout !== undefined) {
    if (/^\d+$/.test(rawTimeout) && Number(rawTimeout) >= 100 && Number(rawTimeout) <= 120_000) {
      timeoutMs = Number(rawTimeout);
    } else {
      problems.push(
        `NOTIFY_TIMEOUT_MS must be a whole number from 100 to 120000 (got "${rawTimeout}")`,
      );
    }
  }
  const smtpUrl = get('SMTP_URL') ?? null;
  if (smtpUrl !== null && !/^smtps?:\/\/[^\s]+$/.test(smtpUrl)) {
    problems.push(
      'SMTP_URL must start with smtp:// or smtps://, e.g. smtp://user:pass@mail.example.com:587',
    );
  }
  const smtpFrom = get('SMTP_FROM') ?? 'Linkdock <no-reply@linkdock.local>';
  const twilioSid = get('TWILIO_ACCOUNT_SID');
  const twilioToken = get('TWILIO_AUTH_TOKEN');
  const twilioFrom = get('TWILIO_FROM');
  const twilioSet = [twilioSid, twilioToken, twilioFrom].filter((v) => v !== undefined).length;
  if (twilioSet > 0 && twilioSet < 3) {
    problems.push('TWILIO_ACCOUNT_SID, TWILIO_AUTH_TOKEN and TWILIO_FROM must be set together');
  }
  const waToken = get('WHATSAPP_TOKEN');
  const waPhone = get('WHATSAPP_PHONE_NUMBER_ID');
  if ((waToken === undefined) !== (waPhone === undefined)) {
    problems.push('WHATSAPP_TOKEN and WHATSAPP_PHONE_NUMBER_ID must be set together');
  }
  const vapidPublic = get('VAPID_PUBLIC_KEY');
  const vapidPrivate = get('VAPID_PRIVATE_KEY');
  let vapidKeys: { publicKey: string; privateKey: string } | null = null;
  if ((vapidPublic === undefined) !== (vapidPrivate === undefined)) {
    problems.push('VAPID_PUBLIC_KEY and VAPID_PRIVATE_KEY must be set together');
  } else if (vapidPublic !== undefined && vapidPrivate !== undefined) {
    const pub = Buffer.from(vapidPublic, 'base64url');
    const priv = Buffer.from(vapidPrivate, 'base64url');
    if (pub.length !== 65 || pub[0] !== 4 || priv.length !== 32) {
      problems.push(
        'VAPID_PUBLIC_KEY must be a 65-byte and VAPID_PRIVATE_KEY a 32-byte P-256 key, base64url (npx web-push generate-vapid-keys)',
      );
    } else {
      vapidKeys = { publicKey: vapidPublic, privateKey: vapidPrivate };
    }
  }
  const vapidSubject = get('VAPID_SUBJECT') ?? null;
  if (vapidSubject !== null && !isVapidSubject(vapidSubject)) {
    problems.push('VAPID_SUBJECT must be a mailto: or https: URL');
  }
  return {
    secretsKey,
    vapidKeys,
    vapidSubject,
    allowPrivateWebhooks: allow === '1',
    timeoutMs,
    smtpUrl,
    smtpFrom,
    telegramApiUrl: parseBaseUrl(
      get('TELEGRAM_API_URL'),
      'TELEGRAM_API_URL',
      'https://api.telegram.org',
      problems,
    ),
    xApiUrl: parseBaseUrl(get('X_API_URL'), 'X_API_URL', 'https://api.x.com', problems),
    vendorBaseUrl:
      get('NOTIFY_VENDOR_BASE_URL') === undefined
        ? null
        : parseBaseUrl(get('NOTIFY_VENDOR_BASE_URL'), 'NOTIFY_VENDOR_BASE_URL', '', problems),
    twilio:
      twilioSid && twilioToken && twilioFrom
        ? {
            apiUrl: parseBaseUrl(
              get('TWILIO_API_URL'),
              'TWILIO_API_URL',
              'https://api.twilio.com',
              problems,
            ),
            accountSid: twilioSid,
            authToken: twilioToken,
            from: twilioFrom,
          }
        : null,
    whatsapp:
      waToken && waPhone
        ? {
            apiUrl: parseBaseUrl(
              get('WHATSAPP_API_URL'),
              'WHATSAPP_API_URL',
              'https://graph.facebook.com/v21.0',
              problems,
            ),
            token: waToken,
            phoneNumberId: waPhone,
            template: parseWhatsappTemplate(
              get('WHATSAPP_TEMPLATE'),
              get('WHATSAPP_TEMPLATE_LANGUAGE'),
              problems,
            ),
          }
        : null,
  };
}

function parseSecretsKey(raw: string | undefined, problems: string[]): Buffer | null {
  if (raw === undefined) {
    return null;
  }
  const key = decodeSecretsKey(raw);
  if (!key) {
    problems.push(
      'SECRETS_KEY must be 32 random bytes as 64 hex digits or base64 (e.g. `openssl rand -base64 32`)',
    );
  }
  return key;
}

/** A secrets key written as 64 hex digits or as base64 of 32 bytes; null for anything else. */
export function decodeSecretsKey(raw: string): Buffer | null {
  const hex = /^[0-9a-fA-F]{64}$/.test(raw);
  const key = hex ? Buffer.from(raw, 'hex') : Buffer.from(raw, 'base64');
  return key.length === 32 && (hex || /^[A-Za-z0-9+/]{43}=?$/.test(raw)) ? key : null;
}

function parseBaseUrl(
  raw: string | undefined,
  name: string,
  fallback: string,
  problems: string[],
): string {
  if (raw === undefined) {
    return fallback;
  }
  const href = normalizeHttpUrl(raw);
  if (href === null) {
    problems.push(`${name} must be an http(s) URL (got "${raw}")`);
    return fallback;
  }
  if (hasUrlCredentials(href)) {
    problems.push(`${name} must not carry a user name or password`);
    return fallback;
  }
  return href.replace(/\/+$/, '');
}

/** `mailto:` and an email address, or an https URL: whom a push service may contact. */
function isVapidSubject(value: string): boolean {
  return value.startsWith('mailto:')
    ? isEmailAddress(value.slice('mailto:'.length))
    : value.startsWith('https://') && isHttpUrl(value);
}

/** A template name as Meta allows them (lowercase, digits, underscores) and a language code. */
function parseWhatsappTemplate(
  name: string | undefined,
  language: string | undefined,
  problems: string[],
): { name: string; language: string } | null {
  if (name === undefined) return null;
  if (!/^[a-z0-9_]{1,512}$/.test(name)) {
    problems.push('WHATSAPP_TEMPLATE must be a template name (lowercase letters, digits, _)');
  }
  const lang = language ?? 'en_US';
  if (!/^[a-z]{2,3}(_[A-Z]{2})?$/.test(lang)) {
    problems.push('WHATSAPP_TEMPLATE_LANGUAGE must be a language code such as en_US or fr');
  }
  return { name, language: lang };
}
