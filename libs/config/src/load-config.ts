import { isAbsolute, join, resolve } from 'node:path';
import { plainToInstance } from 'class-transformer';
import { validateSync } from 'class-validator';
import type { AppConfig, DatabaseConfig } from './app-config';
import { EnvDto, listOf, parseFlag } from './env.dto';
import { decodeSecretsKey, type NotificationsConfig } from './notifications-config';
import type { StorageConfig } from './storage-config';

/** Thrown when the environment holds a bad value; the message names every bad variable. */
export class ConfigError extends Error {
  constructor(readonly problems: string[]) {
    super(`Invalid configuration:\n${problems.map((p) => `  - ${p}`).join('\n')}`);
    this.name = 'ConfigError';
  }
}

type Env = Record<string, string | undefined>;

/** The variables `EnvDto` declares. */
const DECLARED = Object.keys(new EnvDto());

/**
 * Reads and validates the environment against its declaration (`EnvDto`), once. Every variable
 * is optional; an unset or blank variable takes its default. Every problem is collected, one line
 * per variable, so that one failed boot names all of them.
 */
export function loadConfig(env: Env = process.env): AppConfig {
  return toAppConfig(readEnv(env));
}

/** The environment as an `EnvDto`: declared variables only, trimmed, blank ones left unset. */
export function readEnv(env: Env): EnvDto {
  const set: Record<string, string> = {};
  for (const name of DECLARED) {
    const value = env[name]?.trim();
    if (value !== undefined && value !== '') {
      set[name] = value;
    }
  }
  const dto = plainToInstance(EnvDto, set);
  const problems = validateSync(dto, { stopAtFirstError: true }).flatMap((error) =>
    Object.values(error.constraints ?? {}),
  );
  if (problems.length > 0) {
    throw new ConfigError(problems);
  }
  return dto;
}

/** The shape the rest of the code reads. */
function toAppConfig(env: EnvDto): AppConfig {
  const dataDir = resolve(env.DATA_DIR);
  return {
    port: env.PORT,
    host: env.HOST,
    appUrl: env.APP_URL === undefined ? `http://localhost:${env.PORT}` : appUrlOf(env.APP_URL),
    database: databaseOf(env.DATABASE_URL, dataDir),
    dataDir,
    redisUrl: env.REDIS_URL ?? null,
    apiRateLimit: env.API_RATE_LIMIT,
    logLevel: env.LOG_LEVEL,
    adminEmail: env.ADMIN_EMAIL,
    trustedProxies: env.TRUSTED_PROXIES === undefined ? [] : listOf(env.TRUSTED_PROXIES),
    visitsRetentionDays: env.VISITS_RETENTION_DAYS === 0 ? null : env.VISITS_RETENTION_DAYS,
    linkCacheSize: env.LINK_CACHE_SIZE,
    dnsServers: env.DNS_SERVERS?.split(',').map((s) => s.trim()) ?? null,
    notifications: notificationsOf(env),
    staticSites: {
      maxUploadBytes: env.STATIC_MAX_UPLOAD_BYTES,
      maxBytes: env.STATIC_MAX_BYTES,
      maxFiles: env.STATIC_MAX_FILES,
    },
    storage: storageOf(env),
    metrics: { token: env.METRICS_TOKEN ?? null, port: env.METRICS_PORT ?? null },
    worker: env.WORKER,
    visitWriter: env.VISIT_WRITER,
    eventsLeaseMs: env.EVENTS_LEASE_SECONDS * 1000,
    accountLogsRetentionDays:
      env.ACCOUNT_LOGS_RETENTION_DAYS === 0 ? null : env.ACCOUNT_LOGS_RETENTION_DAYS,
    linkChecks: env.LINK_CHECKS === 'on',
    billing: {
      defaultPlanId: env.DEFAULT_PLAN_ID ?? null,
      stripeWebhookSecret: env.STRIPE_WEBHOOK_SECRET ?? null,
      paddleWebhookSecret: env.PADDLE_WEBHOOK_SECRET ?? null,
      lemonSqueezyWebhookSecret: env.LEMONSQUEEZY_WEBHOOK_SECRET ?? null,
    },
  };
}

/** Origin and path, without trailing slashes. */
function appUrlOf(raw: string): string {
  const url = new URL(raw);
  return `${url.origin}${url.pathname}`.replace(/\/+$/, '');
}

function databaseOf(raw: string | undefined, dataDir: string): DatabaseConfig {
  if (raw === undefined) {
    return { type: 'sqlite', path: join(dataDir, 'linkdock.sqlite') };
  }
  if (!raw.startsWith('sqlite:')) {
    return { type: 'postgres', url: raw };
  }
  const path = raw.slice('sqlite:'.length).replace(/^\/\//, '');
  return { type: 'sqlite', path: path === ':memory:' || isAbsolute(path) ? path : resolve(path) };
}

function notificationsOf(env: EnvDto): NotificationsConfig {
  const twilio = env.TWILIO_ACCOUNT_SID !== undefined;
  const whatsapp = env.WHATSAPP_TOKEN !== undefined;
  return {
    secretsKey: env.SECRETS_KEY === undefined ? null : decodeSecretsKey(env.SECRETS_KEY),
    vapidKeys:
      env.VAPID_PUBLIC_KEY !== undefined && env.VAPID_PRIVATE_KEY !== undefined
        ? { publicKey: env.VAPID_PUBLIC_KEY, privateKey: env.VAPID_PRIVATE_KEY }
        : null,
    vapidSubject: env.VAPID_SUBJECT ?? null,
    allowPrivateWebhooks: env.ALLOW_PRIVATE_WEBHOOKS === '1',
    timeoutMs: env.NOTIFY_TIMEOUT_MS,
    smtpUrl: env.SMTP_URL ?? null,
    smtpFrom: env.SMTP_FROM,
    telegramApiUrl: env.TELEGRAM_API_URL,
    xApiUrl: env.X_API_URL,
    vendorBaseUrl: env.NOTIFY_VENDOR_BASE_URL ?? null,
    twilio: twilio
      ? {
          apiUrl: env.TWILIO_API_URL,
          accountSid: env.TWILIO_ACCOUNT_SID as string,
          authToken: env.TWILIO_AUTH_TOKEN as string,
          from: env.TWILIO_FROM as string,
        }
      : null,
    whatsapp: whatsapp
      ? {
          apiUrl: env.WHATSAPP_API_URL,
          token: env.WHATSAPP_TOKEN as string,
          phoneNumberId: env.WHATSAPP_PHONE_NUMBER_ID as string,
          template:
            env.WHATSAPP_TEMPLATE === undefined
              ? null
              : { name: env.WHATSAPP_TEMPLATE, language: env.WHATSAPP_TEMPLATE_LANGUAGE },
        }
      : null,
  };
}

function storageOf(env: EnvDto): StorageConfig {
  const publicUrl = env.STORAGE_PUBLIC_URL ?? null;
  if (env.STORAGE_DRIVER !== 's3' && env.S3_BUCKET === undefined) {
    return { driver: env.STORAGE_DRIVER, s3: null, publicUrl };
  }
  const endpoint = env.S3_ENDPOINT ?? null;
  const credentials =
    env.S3_ACCESS_KEY_ID !== undefined && env.S3_SECRET_ACCESS_KEY !== undefined
      ? { accessKeyId: env.S3_ACCESS_KEY_ID, secretAccessKey: env.S3_SECRET_ACCESS_KEY }
      : null;
  return {
    driver: env.STORAGE_DRIVER,
    s3: {
      bucket: env.S3_BUCKET ?? '',
      region: env.S3_REGION,
      endpoint,
      forcePathStyle: parseFlag(env.S3_FORCE_PATH_STYLE) ?? endpoint !== null,
      credentials,
    },
    publicUrl,
  };
}
