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

/** A secrets key written as 64 hex digits or as base64 of 32 bytes; null for anything else. */
export function decodeSecretsKey(raw: string): Buffer | null {
  const hex = /^[0-9a-fA-F]{64}$/.test(raw);
  const key = hex ? Buffer.from(raw, 'hex') : Buffer.from(raw, 'base64');
  return key.length === 32 && (hex || /^[A-Za-z0-9+/]{43}=?$/.test(raw)) ? key : null;
}
