import { isIP } from 'node:net';
import { ValidateIf } from 'class-validator';
import { isEmailAddress } from '@app/common/validation/email';
import { isHttpUrl, normalizeHttpUrl } from '@app/common/validation/http-url';
import {
  LOG_LEVELS,
  type LogLevel,
  VISIT_WRITER_MODES,
  type VisitWriterMode,
  WORKER_MODES,
  type WorkerMode,
} from './app-config';
import {
  EnvEmail,
  EnvHttpUrl,
  EnvInt,
  EnvMatches,
  EnvOneOf,
  EnvRule,
  EnvRuleAlways,
  EnvSetTogether,
} from './env-rules';
import { decodeSecretsKey } from './notifications-config';
import { STORAGE_DRIVERS, type StorageDriver } from './storage-config';

const MIB = 1024 * 1024;
const MAX_INT = 2_147_483_647;

/**
 * Every environment variable Linkdock reads, with its rule and its default: the one declaration of
 * the environment, validated once by `loadConfig` (as Immich's `EnvDto`). Variables are listed in
 * the order a failed boot names them. A variable unset or blank takes the default written here;
 * `loadConfig` maps the result onto `AppConfig`, the shape the rest of the code reads.
 */
export class EnvDto {
  @EnvInt(1, 65535)
  PORT: number = 3000;

  HOST: string = '0.0.0.0';

  /** Default: `http://localhost:$PORT`. */
  @EnvRule(appUrlProblem)
  APP_URL?: string;

  DATA_DIR: string = './data';

  /** Unset: the SQLite file `$DATA_DIR/linkdock.sqlite`. */
  @EnvRule(databaseUrlProblem)
  DATABASE_URL?: string;

  @EnvRule(redisUrlProblem)
  REDIS_URL?: string;

  @EnvInt(1, 1_000_000)
  API_RATE_LIMIT: number = 600;

  @EnvOneOf(LOG_LEVELS)
  LOG_LEVEL: LogLevel = 'info';

  @EnvEmail()
  ADMIN_EMAIL: string = 'admin@linkdock.local';

  @EnvRule(dnsServersProblem)
  DNS_SERVERS?: string;

  @EnvRule(trustedProxiesProblem)
  TRUSTED_PROXIES?: string;

  @EnvInt(100, 10_000_000)
  LINK_CACHE_SIZE: number = 100_000;

  /** 0: forever. */
  @EnvInt(0, 36_500)
  VISITS_RETENTION_DAYS: number = 0;

  /** 0: forever. */
  @EnvInt(0, 36_500)
  ACCOUNT_LOGS_RETENTION_DAYS: number = 90;

  @EnvInt(2, 3_600)
  EVENTS_LEASE_SECONDS: number = 120;

  /** The daily check of link destinations (docs/links.md); `off` turns the worker job off. */
  @EnvOneOf(['on', 'off'] as const)
  LINK_CHECKS: 'on' | 'off' = 'on';

  @EnvOneOf(WORKER_MODES)
  WORKER: WorkerMode = 'internal';

  @EnvOneOf(VISIT_WRITER_MODES)
  VISIT_WRITER: VisitWriterMode = 'thread';

  // Notifications

  @EnvMatches(
    { test: (value) => decodeSecretsKey(value) !== null },
    'SECRETS_KEY must be 32 random bytes as 64 hex digits or base64 (e.g. `openssl rand -base64 32`)',
  )
  SECRETS_KEY?: string;

  @EnvRule((value, name) =>
    value === '0' || value === '1' ? null : `${name} must be 0 or 1 (got "${String(value)}")`,
  )
  ALLOW_PRIVATE_WEBHOOKS: '0' | '1' = '0';

  @EnvInt(100, 120_000)
  NOTIFY_TIMEOUT_MS: number = 10_000;

  @EnvMatches(
    /^smtps?:\/\/[^\s]+$/,
    'SMTP_URL must start with smtp:// or smtps://, e.g. smtp://user:pass@mail.example.com:587',
  )
  SMTP_URL?: string;

  SMTP_FROM: string = 'Linkdock <no-reply@linkdock.local>';

  @EnvSetTogether(
    ['TWILIO_AUTH_TOKEN', 'TWILIO_FROM'],
    'TWILIO_ACCOUNT_SID, TWILIO_AUTH_TOKEN and TWILIO_FROM must be set together',
  )
  TWILIO_ACCOUNT_SID?: string;

  TWILIO_AUTH_TOKEN?: string;

  TWILIO_FROM?: string;

  @EnvSetTogether(
    ['WHATSAPP_PHONE_NUMBER_ID'],
    'WHATSAPP_TOKEN and WHATSAPP_PHONE_NUMBER_ID must be set together',
  )
  WHATSAPP_TOKEN?: string;

  WHATSAPP_PHONE_NUMBER_ID?: string;

  /** Unset with VAPID_PRIVATE_KEY: the pair is derived from the secrets key. */
  @EnvRuleAlways(vapidKeysProblem)
  @EnvSetTogether(
    ['VAPID_PRIVATE_KEY'],
    'VAPID_PUBLIC_KEY and VAPID_PRIVATE_KEY must be set together',
  )
  VAPID_PUBLIC_KEY?: string;

  VAPID_PRIVATE_KEY?: string;

  @EnvMatches({ test: isVapidSubject }, 'VAPID_SUBJECT must be a mailto: or https: URL')
  VAPID_SUBJECT?: string;

  @EnvHttpUrl({ bare: false })
  TELEGRAM_API_URL: string = 'https://api.telegram.org';

  @EnvHttpUrl({ bare: false })
  X_API_URL: string = 'https://api.x.com';

  @EnvHttpUrl({ bare: false })
  NOTIFY_VENDOR_BASE_URL?: string;

  @EnvHttpUrl({ bare: false })
  TWILIO_API_URL: string = 'https://api.twilio.com';

  @EnvHttpUrl({ bare: false })
  WHATSAPP_API_URL: string = 'https://graph.facebook.com/v21.0';

  @EnvMatches(
    /^[a-z0-9_]{1,512}$/,
    'WHATSAPP_TEMPLATE must be a template name (lowercase letters, digits, _)',
  )
  WHATSAPP_TEMPLATE?: string;

  @EnvMatches(
    /^[a-z]{2,3}(_[A-Z]{2})?$/,
    'WHATSAPP_TEMPLATE_LANGUAGE must be a language code such as en_US or fr',
  )
  WHATSAPP_TEMPLATE_LANGUAGE: string = 'en_US';

  // Stored files

  @EnvOneOf(STORAGE_DRIVERS)
  STORAGE_DRIVER: StorageDriver = 'local';

  @EnvHttpUrl({ bare: true })
  STORAGE_PUBLIC_URL?: string;

  @EnvRuleAlways((value, name, env) => {
    if (value === undefined) {
      return env.STORAGE_DRIVER === 's3' ? `${name} is required when STORAGE_DRIVER=s3` : null;
    }
    const bucket = typeof value === 'string' ? value : '';
    return /^[a-z0-9][a-z0-9.-]{1,61}[a-z0-9]$/.test(bucket)
      ? null
      : `${name} must be a valid bucket name (got "${bucket}")`;
  })
  S3_BUCKET?: string;

  // The S3 variables below are read only when S3 is in use (STORAGE_DRIVER=s3 or S3_BUCKET set).

  @ValidateIf(usesS3)
  @EnvRule((value, name) =>
    typeof value === 'string' && /^[a-z0-9-]{2,32}$/.test(value)
      ? null
      : `${name} must be a region name such as eu-west-1 (got "${String(value)}")`,
  )
  S3_REGION: string = 'us-east-1';

  @ValidateIf(usesS3)
  @EnvHttpUrl({ bare: true })
  S3_ENDPOINT?: string;

  /** Default: true with S3_ENDPOINT (MinIO and friends), false on AWS. */
  @ValidateIf(usesS3)
  @EnvRule((value, name) =>
    parseFlag(value) !== null ? null : `${name} must be true or false (got "${String(value)}")`,
  )
  S3_FORCE_PATH_STYLE?: string;

  @ValidateIf(usesS3)
  @EnvSetTogether(
    ['S3_SECRET_ACCESS_KEY'],
    'S3_ACCESS_KEY_ID and S3_SECRET_ACCESS_KEY must be set together (or neither)',
  )
  S3_ACCESS_KEY_ID?: string;

  S3_SECRET_ACCESS_KEY?: string;

  // Metrics, billing, static sites

  @EnvMatches(
    /^[\x21-\x7e]{16,256}$/,
    'METRICS_TOKEN must be 16 to 256 printable characters without spaces',
  )
  METRICS_TOKEN?: string;

  @EnvRule((value, name, env) =>
    value === env.PORT ? `${name} must differ from PORT (both ${String(value)})` : null,
  )
  @EnvInt(1, 65535)
  METRICS_PORT?: number;

  /** Unset: users without a plan are unlimited. */
  @EnvInt(1, MAX_INT)
  DEFAULT_PLAN_ID?: number;

  STRIPE_WEBHOOK_SECRET?: string;

  PADDLE_WEBHOOK_SECRET?: string;

  LEMONSQUEEZY_WEBHOOK_SECRET?: string;

  @EnvInt(1024, 1024 * MIB)
  STATIC_MAX_UPLOAD_BYTES: number = 20 * MIB;

  @EnvInt(1024, 4096 * MIB)
  STATIC_MAX_BYTES: number = 50 * MIB;

  @EnvInt(1, 100_000)
  STATIC_MAX_FILES: number = 1000;
}

function usesS3(env: EnvDto): boolean {
  return env.STORAGE_DRIVER === 's3' || env.S3_BUCKET !== undefined;
}

/** `1/true/yes/on` or `0/false/no/off`, in any case; null for anything else. */
export function parseFlag(raw: unknown): boolean | null {
  const value = typeof raw === 'string' ? raw.toLowerCase() : '';
  if (['1', 'true', 'yes', 'on'].includes(value)) return true;
  if (['0', 'false', 'no', 'off'].includes(value)) return false;
  return null;
}

function appUrlProblem(value: unknown): string | null {
  const href = typeof value === 'string' ? normalizeHttpUrl(value) : null;
  if (href === null) {
    return `APP_URL must be an absolute http(s) URL such as https://links.example.com (got "${String(value)}")`;
  }
  const url = new URL(href);
  if (url.username !== '' || url.password !== '') {
    return 'APP_URL must not carry a user name or password';
  }
  return url.search || url.hash
    ? `APP_URL must be an http(s) URL without a query or fragment (got "${String(value)}")`
    : null;
}

function databaseUrlProblem(value: unknown): string | null {
  const raw = String(value);
  if (/^postgres(ql)?:\/\//.test(raw)) {
    return URL.canParse(raw) ? null : 'DATABASE_URL is not a valid postgres:// URL';
  }
  if (raw.startsWith('sqlite:')) {
    return raw.slice('sqlite:'.length).replace(/^\/\//, '') === ''
      ? 'DATABASE_URL sqlite: needs a file path, e.g. sqlite:./data/linkdock.sqlite'
      : null;
  }
  return 'DATABASE_URL must start with postgres://, postgresql:// or sqlite: (leave it unset for SQLite in DATA_DIR)';
}

function redisUrlProblem(value: unknown): string | null {
  const raw = String(value);
  if (!/^rediss?:\/\//.test(raw)) {
    return 'REDIS_URL must start with redis:// or rediss://';
  }
  return URL.canParse(raw) ? null : 'REDIS_URL is not a valid URL';
}

/** `ip`, `ip:port`, `[ipv6]` or `[ipv6]:port`, comma-separated: what node's Resolver.setServers takes. */
function dnsServersProblem(value: unknown): string | null {
  const servers = String(value)
    .split(',')
    .map((s) => s.trim());
  return servers.every(isDnsServer)
    ? null
    : `DNS_SERVERS must be a comma-separated list of IP addresses, each optionally with a port, such as 1.1.1.1,127.0.0.1:5353,[2606:4700:4700::1111]:53 (got "${String(value)}")`;
}

function isDnsServer(server: string): boolean {
  const bracketed = /^\[([^\]]+)\](?::(\d+))?$/.exec(server);
  const plain = /^([^:]+)(?::(\d+))?$/.exec(server);
  let address: string;
  let port: string | undefined;
  if (bracketed) {
    [, address, port] = bracketed;
    if (isIP(address) !== 6) {
      return false;
    }
  } else if (plain) {
    [, address, port] = plain;
    if (isIP(address) !== 4) {
      return false;
    }
  } else {
    return isIP(server) === 6;
  }
  return (
    port === undefined || (/^\d{1,5}$/.test(port) && Number(port) >= 1 && Number(port) <= 65535)
  );
}

/** A comma-separated list of IP addresses and CIDR ranges (IPv4 or IPv6). */
function trustedProxiesProblem(value: unknown): string | null {
  const bad = listOf(String(value)).find((entry) => {
    const [address, prefix, extra] = entry.split('/');
    const family = isIP(address ?? '');
    const maxPrefix = family === 4 ? 32 : 128;
    const prefixOk =
      prefix === undefined || (/^\d{1,3}$/.test(prefix) && Number(prefix) <= maxPrefix);
    return family === 0 || !prefixOk || extra !== undefined;
  });
  return bad === undefined
    ? null
    : `TRUSTED_PROXIES must list IP addresses or CIDR ranges, comma-separated (bad entry "${bad}")`;
}

/** The entries of a comma-separated list, trimmed, without empty ones. */
export function listOf(raw: string): string[] {
  return raw
    .split(',')
    .map((e) => e.trim())
    .filter((e) => e !== '');
}

function vapidKeysProblem(
  value: unknown,
  _name: string,
  env: Record<string, unknown>,
): string | null {
  const [publicKey, privateKey] = [value, env.VAPID_PRIVATE_KEY];
  if (typeof publicKey !== 'string' || typeof privateKey !== 'string') {
    return null;
  }
  const pub = Buffer.from(publicKey, 'base64url');
  const priv = Buffer.from(privateKey, 'base64url');
  return pub.length === 65 && pub[0] === 4 && priv.length === 32
    ? null
    : 'VAPID_PUBLIC_KEY must be a 65-byte and VAPID_PRIVATE_KEY a 32-byte P-256 key, base64url (npx web-push generate-vapid-keys)';
}

/** `mailto:` and an email address, or an https URL: whom a push service may contact. */
function isVapidSubject(value: string): boolean {
  return value.startsWith('mailto:')
    ? isEmailAddress(value.slice('mailto:'.length))
    : value.startsWith('https://') && isHttpUrl(value);
}
