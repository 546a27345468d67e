import { isIP } from 'node:net';
import { isAbsolute, join, resolve } from 'node:path';
// The one email and URL rules; these files of libs/common import nothing of ours (no cycle).
import { isEmailAddress } from '@app/common/validation/email';
import { hasUrlCredentials, normalizeHttpUrl } from '@app/common/validation/http-url';
import {
  AppConfig,
  DatabaseConfig,
  LOG_LEVELS,
  LogLevel,
  VISIT_WRITER_MODES,
  WORKER_MODES,
} from './app-config';
import { parseNotificationsConfig } from './notifications-config';
import { parseStorageConfig } from './storage-config';

/** Thrown when the environment holds a bad value; the message names every bad variable. */
export class ConfigError extends Error {
  constructor(readonly problems: string[]) {
    super(`Invalid configuration:\n${problems.map((p) => `  - ${p}`).join('\n')}`);
    this.name = 'ConfigError';
  }
}

type Env = Record<string, string | undefined>;

const MIB = 1024 * 1024;

/**
 * Reads and validates the environment. Every variable is optional; an unset or empty variable takes
 * its default. All problems are collected so that one failed boot names all of them.
 */
export function loadConfig(env: Env = process.env): AppConfig {
  const problems: string[] = [];
  const get = (name: string): string | undefined => {
    const value = env[name]?.trim();
    return value === undefined || value === '' ? undefined : value;
  };

  const port = parseInteger(get('PORT'), 'PORT', 3000, 1, 65535, problems);
  const host = get('HOST') ?? '0.0.0.0';
  const appUrl = parseAppUrl(get('APP_URL'), `http://localhost:${port}`, problems);
  const dataDir = resolve(get('DATA_DIR') ?? './data');
  const database = parseDatabase(get('DATABASE_URL'), dataDir, problems);
  const redisUrl = parseRedisUrl(get('REDIS_URL'), problems);
  const apiRateLimit = parseInteger(
    get('API_RATE_LIMIT'),
    'API_RATE_LIMIT',
    600,
    1,
    1_000_000,
    problems,
  );
  const logLevel = parseLogLevel(get('LOG_LEVEL'), problems);
  const adminEmail = (get('ADMIN_EMAIL') ?? 'admin@linkdock.local').toLowerCase();
  if (!isEmailAddress(adminEmail)) {
    problems.push(`ADMIN_EMAIL must be an email address (got "${adminEmail}")`);
  }
  const dnsServers = parseDnsServers(get('DNS_SERVERS'), problems);

  const trustedProxies = parseTrustedProxies(get('TRUSTED_PROXIES'), problems);
  const linkCacheSize = parseInteger(
    get('LINK_CACHE_SIZE'),
    'LINK_CACHE_SIZE',
    100_000,
    100,
    10_000_000,
    problems,
  );

  const retention = parseInteger(
    get('VISITS_RETENTION_DAYS'),
    'VISITS_RETENTION_DAYS',
    0,
    0,
    36_500,
    problems,
  );
  const visitsRetentionDays = retention === 0 ? null : retention;

  const logRetention = parseInteger(
    get('ACCOUNT_LOGS_RETENTION_DAYS'),
    'ACCOUNT_LOGS_RETENTION_DAYS',
    90,
    0,
    36_500,
    problems,
  );

  const eventsLeaseSeconds = parseInteger(
    get('EVENTS_LEASE_SECONDS'),
    'EVENTS_LEASE_SECONDS',
    120,
    2,
    3_600,
    problems,
  );

  const rawWorker = get('WORKER');
  const worker = WORKER_MODES.find((m) => m === (rawWorker ?? 'internal').toLowerCase());
  if (worker === undefined) {
    problems.push(`WORKER must be one of ${WORKER_MODES.join(', ')} (got "${rawWorker}")`);
  }
  const rawVisitWriter = get('VISIT_WRITER');
  const visitWriter = VISIT_WRITER_MODES.find(
    (m) => m === (rawVisitWriter ?? 'thread').toLowerCase(),
  );
  if (visitWriter === undefined) {
    problems.push(
      `VISIT_WRITER must be one of ${VISIT_WRITER_MODES.join(', ')} (got "${rawVisitWriter}")`,
    );
  }

  const notifications = parseNotificationsConfig(get, problems);
  const storage = parseStorageConfig(get, problems);
  const metricsToken = get('METRICS_TOKEN') ?? null;
  if (metricsToken !== null && !/^[\x21-\x7e]{16,256}$/.test(metricsToken)) {
    problems.push('METRICS_TOKEN must be 16 to 256 printable characters without spaces');
  }
  const rawMetricsPort = get('METRICS_PORT');
  const metricsPort =
    rawMetricsPort === undefined
      ? null
      : parseInteger(rawMetricsPort, 'METRICS_PORT', 0, 1, 65535, problems);
  if (metricsPort !== null && metricsPort === port) {
    problems.push(`METRICS_PORT must differ from PORT (both ${port})`);
  }
  const rawDefaultPlan = get('DEFAULT_PLAN_ID');
  const billing = {
    defaultPlanId:
      rawDefaultPlan === undefined
        ? null
        : parseInteger(rawDefaultPlan, 'DEFAULT_PLAN_ID', 0, 1, 2_147_483_647, problems),
    stripeWebhookSecret: get('STRIPE_WEBHOOK_SECRET') ?? null,
    paddleWebhookSecret: get('PADDLE_WEBHOOK_SECRET') ?? null,
    lemonSqueezyWebhookSecret: get('LEMONSQUEEZY_WEBHOOK_SECRET') ?? null,
  };
  const staticSites = {
    maxUploadBytes: parseInteger(
      get('STATIC_MAX_UPLOAD_BYTES'),
      'STATIC_MAX_UPLOAD_BYTES',
      20 * MIB,
      1024,
      1024 * MIB,
      problems,
    ),
    maxBytes: parseInteger(
      get('STATIC_MAX_BYTES'),
      'STATIC_MAX_BYTES',
      50 * MIB,
      1024,
      4096 * MIB,
      problems,
    ),
    maxFiles: parseInteger(get('STATIC_MAX_FILES'), 'STATIC_MAX_FILES', 1000, 1, 100_000, problems),
  };

  if (problems.length > 0) {
    throw new ConfigError(problems);
  }
  return {
    port,
    host,
    appUrl,
    database,
    dataDir,
    redisUrl,
    apiRateLimit,
    logLevel,
    adminEmail,
    trustedProxies,
    visitsRetentionDays,
    linkCacheSize,
    dnsServers,
    notifications,
    staticSites,
    storage,
    metrics: { token: metricsToken, port: metricsPort },
    worker: worker ?? 'internal',
    visitWriter: visitWriter ?? 'thread',
    eventsLeaseMs: eventsLeaseSeconds * 1000,
    accountLogsRetentionDays: logRetention === 0 ? null : logRetention,
    billing,
  };
}

function parseInteger(
  raw: string | undefined,
  name: string,
  fallback: number,
  min: number,
  max: number,
  problems: string[],
): number {
  if (raw === undefined) {
    return fallback;
  }
  const value = Number(raw);
  if (!/^\d+$/.test(raw) || value < min || value > max) {
    problems.push(`${name} must be a whole number from ${min} to ${max} (got "${raw}")`);
    return fallback;
  }
  return value;
}

function parseAppUrl(raw: string | undefined, fallback: string, problems: string[]): string {
  if (raw === undefined) {
    return fallback;
  }
  const href = normalizeHttpUrl(raw);
  if (href === null) {
    problems.push(
      `APP_URL must be an absolute http(s) URL such as https://links.example.com (got "${raw}")`,
    );
    return fallback;
  }
  if (hasUrlCredentials(href)) {
    problems.push('APP_URL must not carry a user name or password');
    return fallback;
  }
  const url = new URL(href);
  if (url.search || url.hash) {
    problems.push(`APP_URL must be an http(s) URL without a query or fragment (got "${raw}")`);
    return fallback;
  }
  return `${url.origin}${url.pathname}`.replace(/\/+$/, '');
}

function parseDatabase(
  raw: string | undefined,
  dataDir: string,
  problems: string[],
): DatabaseConfig {
  if (raw === undefined) {
    return { type: 'sqlite', path: join(dataDir, 'linkdock.sqlite') };
  }
  if (/^postgres(ql)?:\/\//.test(raw)) {
    try {
      new URL(raw);
      return { type: 'postgres', url: raw };
    } catch {
      problems.push('DATABASE_URL is not a valid postgres:// URL');
      return { type: 'sqlite', path: '' };
    }
  }
  if (raw.startsWith('sqlite:')) {
    const path = raw.slice('sqlite:'.length).replace(/^\/\//, '');
    if (path === '') {
      problems.push('DATABASE_URL sqlite: needs a file path, e.g. sqlite:./data/linkdock.sqlite');
    }
    return { type: 'sqlite', path: path === ':memory:' || isAbsolute(path) ? path : resolve(path) };
  }
  problems.push(
    'DATABASE_URL must start with postgres://, postgresql:// or sqlite: (leave it unset for SQLite in DATA_DIR)',
  );
  return { type: 'sqlite', path: '' };
}

function parseRedisUrl(raw: string | undefined, problems: string[]): string | null {
  if (raw === undefined) {
    return null;
  }
  if (!/^rediss?:\/\//.test(raw)) {
    problems.push('REDIS_URL must start with redis:// or rediss://');
    return null;
  }
  try {
    new URL(raw);
  } catch {
    problems.push('REDIS_URL is not a valid URL');
    return null;
  }
  return raw;
}

function parseLogLevel(raw: string | undefined, problems: string[]): LogLevel {
  if (raw === undefined) {
    return 'info';
  }
  const level = LOG_LEVELS.find((l) => l === raw.toLowerCase());
  if (level === undefined) {
    problems.push(`LOG_LEVEL must be one of ${LOG_LEVELS.join(', ')} (got "${raw}")`);
    return 'info';
  }
  return level;
}

/** A comma-separated list of IP addresses and CIDR ranges (IPv4 or IPv6). */
function parseTrustedProxies(raw: string | undefined, problems: string[]): string[] {
  if (raw === undefined) {
    return [];
  }
  const entries = raw
    .split(',')
    .map((e) => e.trim())
    .filter((e) => e !== '');
  for (const entry of entries) {
    const [address, prefix, extra] = entry.split('/');
    const family = isIP(address ?? '');
    const maxPrefix = family === 4 ? 32 : 128;
    const prefixOk =
      prefix === undefined || (/^\d{1,3}$/.test(prefix) && Number(prefix) <= maxPrefix);
    if (family === 0 || !prefixOk || extra !== undefined) {
      problems.push(
        `TRUSTED_PROXIES must list IP addresses or CIDR ranges, comma-separated (bad entry "${entry}")`,
      );
    }
  }
  return entries;
}

/** `ip`, `ip:port`, `[ipv6]` or `[ipv6]:port`, comma-separated: what node's Resolver.setServers takes. */
function parseDnsServers(raw: string | undefined, problems: string[]): string[] | null {
  if (raw === undefined) {
    return null;
  }
  const servers = raw.split(',').map((s) => s.trim());
  const bad = servers.filter((server) => !isDnsServer(server));
  if (bad.length > 0) {
    problems.push(
      `DNS_SERVERS must be a comma-separated list of IP addresses, each optionally with a port, such as 1.1.1.1,127.0.0.1:5353,[2606:4700:4700::1111]:53 (got "${raw}")`,
    );
    return null;
  }
  return servers;
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
