import type { NotificationsConfig } from './notifications-config';
import type { StorageConfig } from './storage-config';

/** The whole configuration of a Linkdock process, validated once at boot. */
export interface AppConfig {
  port: number;
  host: string;
  /** Public base URL without a trailing slash, e.g. `https://links.example.com`. */
  appUrl: string;
  database: DatabaseConfig;
  dataDir: string;
  redisUrl: string | null;
  /** Requests per minute per API key. */
  apiRateLimit: number;
  logLevel: LogLevel;
  /** Email of the admin user created on the first start. */
  adminEmail: string;
  /** Proxies (IP addresses or CIDR ranges) whose X-Forwarded-For is believed. */
  trustedProxies: string[];
  /** Days raw visits are kept (the statistics roll-ups are kept forever); null = forever. */
  visitsRetentionDays: number | null;
  /** Links kept in each process's edge cache. */
  linkCacheSize: number;
  /**
   * DNS servers (`ip` or `ip:port`, IPv6 as `[ip]:port`) used to check custom-domain TXT records;
   * null = the system's resolvers.
   */
  dnsServers: string[] | null;
  notifications: NotificationsConfig;
  staticSites: StaticSitesConfig;
  /** Where stored files live: the local disk (DATA_DIR) or an S3-compatible bucket. */
  storage: StorageConfig;
  /** GET /metrics: the bearer token it asks for (null: not served on the main port), and its own port. */
  metrics: { token: string | null; port: number | null };
  /** Where background jobs run: inside the API process, or in `npm run worker` processes. */
  worker: WorkerMode;
  /**
   * Where counted visits are enriched and written (VISIT_WRITER): a thread of the API process with
   * its own database connection (the default), or the thread that serves the redirects.
   */
  visitWriter: VisitWriterMode;
  /**
   * How long a worker holds a delivery it took (EVENTS_LEASE_SECONDS): a worker that dies
   * mid-delivery leaves it to another after this long. Longer than NOTIFY_TIMEOUT_MS.
   */
  eventsLeaseMs: number;
  /** Days account log entries are kept (ACCOUNT_LOGS_RETENTION_DAYS, default 90); null = forever. */
  accountLogsRetentionDays: number | null;
  /** Whether the worker checks link destinations (LINK_CHECKS, default on). */
  linkChecks: boolean;
  billing: BillingConfig;
}

/** Plans and the processors' webhooks (docs/billing.md). */
export interface BillingConfig {
  /** The plan of users without one (DEFAULT_PLAN_ID); null: such users are unlimited. */
  defaultPlanId: number | null;
  /** Signing secrets of the webhooks; a processor without one answers 404. */
  stripeWebhookSecret: string | null;
  paddleWebhookSecret: string | null;
  lemonSqueezyWebhookSecret: string | null;
}

/** Bounds of uploaded static sites (see README: STATIC_MAX_*). */
export interface StaticSitesConfig {
  /** Largest accepted upload (the .zip or .html as sent), in bytes. */
  maxUploadBytes: number;
  /** Largest total size of a site once unpacked, in bytes, counted while inflating. */
  maxBytes: number;
  /** Most files a site may have once unpacked. */
  maxFiles: number;
}

export type DatabaseConfig =
  { type: 'sqlite'; path: string } | { type: 'postgres'; url: string; schema?: string };

export const WORKER_MODES = ['internal', 'external'] as const;
export type WorkerMode = (typeof WORKER_MODES)[number];

export const VISIT_WRITER_MODES = ['thread', 'inline'] as const;
export type VisitWriterMode = (typeof VISIT_WRITER_MODES)[number];

export const LOG_LEVELS = ['fatal', 'error', 'warn', 'info', 'debug', 'trace', 'silent'] as const;
export type LogLevel = (typeof LOG_LEVELS)[number];

export const APP_CONFIG = Symbol('APP_CONFIG');
