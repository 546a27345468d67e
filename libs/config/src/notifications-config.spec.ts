import { ConfigError, loadConfig } from './load-config';

function problemsOf(env: Record<string, string>): string[] {
  try {
    loadConfig(env);
  } catch (error) {
    if (error instanceof ConfigError) {
      return error.problems;
    }
    throw error;
  }
  throw new Error(`loadConfig accepted ${JSON.stringify(env)}`);
}

describe('notifications configuration', () => {
  const HEX = 'ab'.repeat(32);
  const BASE64 = Buffer.alloc(32, 7).toString('base64');

  it('reads every notification variable', () => {
    expect(
      loadConfig({
        SECRETS_KEY: HEX,
        ALLOW_PRIVATE_WEBHOOKS: '1',
        NOTIFY_TIMEOUT_MS: '2500',
        SMTP_URL: 'smtp://u:p@mail.example.com:587',
        SMTP_FROM: 'Links <links@example.com>',
        TELEGRAM_API_URL: 'http://127.0.0.1:9000/',
        NOTIFY_VENDOR_BASE_URL: 'http://127.0.0.1:9003/hooks/',
        X_API_URL: 'http://127.0.0.1:9004',
        TWILIO_API_URL: 'http://127.0.0.1:9001',
        TWILIO_ACCOUNT_SID: 'AC123',
        TWILIO_AUTH_TOKEN: 'tok',
        TWILIO_FROM: '+15550001111',
        WHATSAPP_API_URL: 'http://127.0.0.1:9002/v21.0',
        WHATSAPP_TOKEN: 'wa',
        WHATSAPP_PHONE_NUMBER_ID: '123',
        WHATSAPP_TEMPLATE: 'linkdock_event',
        VAPID_SUBJECT: 'mailto:ops@example.com',
      }).notifications,
    ).toEqual({
      secretsKey: Buffer.from(HEX, 'hex'),
      vapidKeys: null,
      vapidSubject: 'mailto:ops@example.com',
      allowPrivateWebhooks: true,
      timeoutMs: 2500,
      smtpUrl: 'smtp://u:p@mail.example.com:587',
      smtpFrom: 'Links <links@example.com>',
      telegramApiUrl: 'http://127.0.0.1:9000',
      xApiUrl: 'http://127.0.0.1:9004',
      vendorBaseUrl: 'http://127.0.0.1:9003/hooks',
      twilio: {
        apiUrl: 'http://127.0.0.1:9001',
        accountSid: 'AC123',
        authToken: 'tok',
        from: '+15550001111',
      },
      whatsapp: {
        apiUrl: 'http://127.0.0.1:9002/v21.0',
        token: 'wa',
        phoneNumberId: '123',
        template: { name: 'linkdock_event', language: 'en_US' },
      },
    });
  });

  it('accepts a base64 key', () => {
    expect(loadConfig({ SECRETS_KEY: BASE64 }).notifications.secretsKey).toEqual(
      Buffer.alloc(32, 7),
    );
  });

  it.each([
    [{ SECRETS_KEY: 'short' }, 'SECRETS_KEY must be 32 random bytes'],
    [{ SECRETS_KEY: 'ab'.repeat(31) }, 'SECRETS_KEY must be 32 random bytes'],
    [{ ALLOW_PRIVATE_WEBHOOKS: 'yes' }, 'ALLOW_PRIVATE_WEBHOOKS must be 0 or 1 (got "yes")'],
    [{ NOTIFY_TIMEOUT_MS: '5' }, 'NOTIFY_TIMEOUT_MS must be a whole number from 100 to 120000'],
    [{ SMTP_URL: 'http://mail' }, 'SMTP_URL must start with smtp:// or smtps://'],
    [{ TELEGRAM_API_URL: 'ftp://x' }, 'TELEGRAM_API_URL must be an http(s) URL (got "ftp://x")'],
    [{ NOTIFY_VENDOR_BASE_URL: 'x' }, 'NOTIFY_VENDOR_BASE_URL must be an http(s) URL'],
    [{ TWILIO_ACCOUNT_SID: 'AC1' }, 'TWILIO_ACCOUNT_SID, TWILIO_AUTH_TOKEN and TWILIO_FROM'],
    [{ WHATSAPP_TOKEN: 'x' }, 'WHATSAPP_TOKEN and WHATSAPP_PHONE_NUMBER_ID must be set together'],
    [{ VAPID_PUBLIC_KEY: 'abc' }, 'VAPID_PUBLIC_KEY and VAPID_PRIVATE_KEY must be set together'],
    [{ VAPID_SUBJECT: 'ops@example.com' }, 'VAPID_SUBJECT must be a mailto: or https: URL'],
    [{ VAPID_SUBJECT: 'mailto:ops@@example.com' }, 'VAPID_SUBJECT must be a mailto: or https: URL'],
    [{ VAPID_SUBJECT: 'https://u:p@example.com' }, 'VAPID_SUBJECT must be a mailto: or https: URL'],
    [
      { X_API_URL: 'https://u:p@api.example.com' },
      'X_API_URL must not carry a user name or password',
    ],
    [{ TWILIO_API_URL: 'https://api.twi\tlio.com' }, 'TWILIO_API_URL must be an http(s) URL'],
    [
      { WHATSAPP_TOKEN: 'x', WHATSAPP_PHONE_NUMBER_ID: '1', WHATSAPP_TEMPLATE: 'Bad Name' },
      'WHATSAPP_TEMPLATE must be a template name (lowercase letters, digits, _)',
    ],
  ])('refuses %j', (env, message) => {
    const problems = problemsOf(env);
    expect(problems).toHaveLength(1);
    expect(problems[0]).toContain(message);
  });
});
