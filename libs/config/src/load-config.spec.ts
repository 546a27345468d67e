import { join, resolve } from 'node:path';
import { ConfigError, loadConfig } from './load-config';

const NOTIFICATIONS_DEFAULTS = {
  secretsKey: null,
  vapidKeys: null,
  vapidSubject: null,
  allowPrivateWebhooks: false,
  timeoutMs: 10000,
  smtpUrl: null,
  smtpFrom: 'Linkdock <no-reply@linkdock.local>',
  telegramApiUrl: 'https://api.telegram.org',
  xApiUrl: 'https://api.x.com',
  vendorBaseUrl: null,
  twilio: null,
  whatsapp: null,
};

function configErrorOf(env: Record<string, string>): ConfigError {
  try {
    loadConfig(env);
  } catch (error) {
    if (error instanceof ConfigError) {
      return error;
    }
    throw error;
  }
  throw new Error(`loadConfig accepted ${JSON.stringify(env)}`);
}

const NO_BILLING = {
  defaultPlanId: null,
  stripeWebhookSecret: null,
  paddleWebhookSecret: null,
  lemonSqueezyWebhookSecret: null,
};

describe(loadConfig.name, () => {
  it('takes every default from an empty environment', () => {
    const dataDir = resolve('data');
    expect(loadConfig({})).toEqual({
      port: 3000,
      host: '0.0.0.0',
      appUrl: 'http://localhost:3000',
      database: { type: 'sqlite', path: join(dataDir, 'linkdock.sqlite') },
      dataDir,
      redisUrl: null,
      apiRateLimit: 600,
      logLevel: 'info',
      adminEmail: 'admin@linkdock.local',
      trustedProxies: [],
      visitsRetentionDays: null,
      eventsLeaseMs: 120_000,
      accountLogsRetentionDays: 90,
      linkChecks: true,
      linkCacheSize: 100_000,
      dnsServers: null,
      notifications: NOTIFICATIONS_DEFAULTS,
      staticSites: { maxUploadBytes: 20_971_520, maxBytes: 52_428_800, maxFiles: 1000 },
      storage: { driver: 'local', s3: null, publicUrl: null },
      metrics: { token: null, port: null },
      worker: 'internal',
      visitWriter: 'thread',
      billing: NO_BILLING,
    });
  });

  it('treats empty and blank variables as unset', () => {
    expect(loadConfig({ PORT: '', HOST: '   ', APP_URL: '', LOG_LEVEL: ' ' })).toEqual(
      loadConfig({}),
    );
  });

  it('reads every variable, trimmed', () => {
    expect(
      loadConfig({
        PORT: ' 8080 ',
        HOST: '127.0.0.1',
        DATA_DIR: '/srv/linkdock',
        REDIS_URL: 'rediss://user:pw@redis.internal:6380/2',
        API_RATE_LIMIT: '120',
        LOG_LEVEL: 'DEBUG',
        ADMIN_EMAIL: 'Root@Example.COM',
        TRUSTED_PROXIES: ' 10.0.0.1, 172.16.0.0/12 ,fd00::/8',
        LINK_CACHE_SIZE: '5000',
        VISITS_RETENTION_DAYS: ' 400 ',
        DNS_SERVERS: ' 1.1.1.1, 127.0.0.1:5353 ',
        STATIC_MAX_UPLOAD_BYTES: '1048576',
        STATIC_MAX_BYTES: '2097152',
        STATIC_MAX_FILES: '50',
        WORKER: ' External ',
        VISIT_WRITER: 'INLINE',
        DEFAULT_PLAN_ID: ' 2 ',
        STRIPE_WEBHOOK_SECRET: 'whsec_stripe',
        PADDLE_WEBHOOK_SECRET: 'pdl_ntfset_x',
        LEMONSQUEEZY_WEBHOOK_SECRET: 'ls-secret',
      }),
    ).toEqual({
      port: 8080,
      host: '127.0.0.1',
      appUrl: 'http://localhost:8080',
      database: { type: 'sqlite', path: '/srv/linkdock/linkdock.sqlite' },
      dataDir: '/srv/linkdock',
      redisUrl: 'rediss://user:pw@redis.internal:6380/2',
      apiRateLimit: 120,
      logLevel: 'debug',
      adminEmail: 'root@example.com',
      trustedProxies: ['10.0.0.1', '172.16.0.0/12', 'fd00::/8'],
      visitsRetentionDays: 400,
      eventsLeaseMs: 120_000,
      accountLogsRetentionDays: 90,
      linkChecks: true,
      linkCacheSize: 5000,
      dnsServers: ['1.1.1.1', '127.0.0.1:5353'],
      notifications: NOTIFICATIONS_DEFAULTS,
      staticSites: { maxUploadBytes: 1_048_576, maxBytes: 2_097_152, maxFiles: 50 },
      storage: { driver: 'local', s3: null, publicUrl: null },
      metrics: { token: null, port: null },
      worker: 'external',
      visitWriter: 'inline',
      billing: {
        defaultPlanId: 2,
        stripeWebhookSecret: 'whsec_stripe',
        paddleWebhookSecret: 'pdl_ntfset_x',
        lemonSqueezyWebhookSecret: 'ls-secret',
      },
    });
  });

  it('strips trailing slashes from APP_URL and keeps its path', () => {
    expect(loadConfig({ APP_URL: 'https://links.example.com/' }).appUrl).toBe(
      'https://links.example.com',
    );
    expect(loadConfig({ APP_URL: 'https://Links.Example.com/short//' }).appUrl).toBe(
      'https://links.example.com/short',
    );
    expect(loadConfig({ APP_URL: 'http://10.0.0.5:8080/a/b' }).appUrl).toBe(
      'http://10.0.0.5:8080/a/b',
    );
  });

  it('reads DNS_SERVERS with IPv6 addresses, bracketed when a port follows', () => {
    expect(
      loadConfig({ DNS_SERVERS: '2606:4700:4700::1111,[::1]:1053,[2001:db8::2],9.9.9.9:53' })
        .dnsServers,
    ).toEqual(['2606:4700:4700::1111', '[::1]:1053', '[2001:db8::2]', '9.9.9.9:53']);
  });

  it.each([
    [
      'postgres://app:secret@db:5432/linkdock',
      { type: 'postgres', url: 'postgres://app:secret@db:5432/linkdock' },
    ],
    ['postgresql://db/linkdock', { type: 'postgres', url: 'postgresql://db/linkdock' }],
    ['sqlite:./x.sqlite', { type: 'sqlite', path: resolve('x.sqlite') }],
    ['sqlite:///var/lib/ld.sqlite', { type: 'sqlite', path: '/var/lib/ld.sqlite' }],
    ['sqlite::memory:', { type: 'sqlite', path: ':memory:' }],
  ])('reads DATABASE_URL %s', (url, database) => {
    expect(loadConfig({ DATABASE_URL: url }).database).toEqual(database);
  });

  it.each([
    ['PORT', 'abc', 'PORT must be a whole number from 1 to 65535 (got "abc")'],
    ['PORT', '70000', 'PORT must be a whole number from 1 to 65535 (got "70000")'],
    ['PORT', '0', 'PORT must be a whole number from 1 to 65535 (got "0")'],
    ['PORT', '80.5', 'PORT must be a whole number from 1 to 65535 (got "80.5")'],
    ['API_RATE_LIMIT', '0', 'API_RATE_LIMIT must be a whole number from 1 to 1000000 (got "0")'],
    [
      'DEFAULT_PLAN_ID',
      'free',
      'DEFAULT_PLAN_ID must be a whole number from 1 to 2147483647 (got "free")',
    ],
    [
      'VISITS_RETENTION_DAYS',
      '-1',
      'VISITS_RETENTION_DAYS must be a whole number from 0 to 36500 (got "-1")',
    ],
    [
      'APP_URL',
      'ftp://x',
      'APP_URL must be an absolute http(s) URL such as https://links.example.com (got "ftp://x")',
    ],
    ['APP_URL', 'https://me:secret@x.com', 'APP_URL must not carry a user name or password'],
    [
      'APP_URL',
      'https://x.com/\tpath',
      'APP_URL must be an absolute http(s) URL such as https://links.example.com (got "https://x.com/\tpath")',
    ],
    ['ADMIN_EMAIL', 'admin@@x.com', 'ADMIN_EMAIL must be an email address (got "admin@@x.com")'],
    [
      'APP_URL',
      'https://x.com/?a=1',
      'APP_URL must be an http(s) URL without a query or fragment (got "https://x.com/?a=1")',
    ],
    [
      'APP_URL',
      'not a url',
      'APP_URL must be an absolute http(s) URL such as https://links.example.com (got "not a url")',
    ],
    [
      'DATABASE_URL',
      'mysql://x',
      'DATABASE_URL must start with postgres://, postgresql:// or sqlite: (leave it unset for SQLite in DATA_DIR)',
    ],
    [
      'DATABASE_URL',
      'sqlite:',
      'DATABASE_URL sqlite: needs a file path, e.g. sqlite:./data/linkdock.sqlite',
    ],
    ['REDIS_URL', 'http://x', 'REDIS_URL must start with redis:// or rediss://'],
    [
      'LOG_LEVEL',
      'loud',
      'LOG_LEVEL must be one of fatal, error, warn, info, debug, trace, silent (got "loud")',
    ],
    ['WORKER', 'both', 'WORKER must be one of internal, external (got "both")'],
    ['VISIT_WRITER', 'process', 'VISIT_WRITER must be one of thread, inline (got "process")'],
    ['ADMIN_EMAIL', 'nope', 'ADMIN_EMAIL must be an email address (got "nope")'],
    [
      'TRUSTED_PROXIES',
      '10.0.0.1,proxy.local',
      'TRUSTED_PROXIES must list IP addresses or CIDR ranges, comma-separated (bad entry "proxy.local")',
    ],
    [
      'TRUSTED_PROXIES',
      '10.0.0.0/33',
      'TRUSTED_PROXIES must list IP addresses or CIDR ranges, comma-separated (bad entry "10.0.0.0/33")',
    ],
    [
      'LINK_CACHE_SIZE',
      '10',
      'LINK_CACHE_SIZE must be a whole number from 100 to 10000000 (got "10")',
    ],
    ['STATIC_MAX_FILES', '0', 'STATIC_MAX_FILES must be a whole number from 1 to 100000 (got "0")'],
    [
      'STATIC_MAX_BYTES',
      '10MB',
      'STATIC_MAX_BYTES must be a whole number from 1024 to 4294967296 (got "10MB")',
    ],
    ...['dns.example.com', '1.1.1.1:0', '1.1.1.1:70000', '1.1.1.1,', '::1:53x', '300.1.1.1'].map(
      (value) => [
        'DNS_SERVERS',
        value,
        `DNS_SERVERS must be a comma-separated list of IP addresses, each optionally with a port, such as 1.1.1.1,127.0.0.1:5353,[2606:4700:4700::1111]:53 (got "${value}")`,
      ],
    ),
  ])('rejects %s=%s with an error naming the variable', (name, value, problem) => {
    const error = configErrorOf({ [name]: value });

    expect(error.problems).toEqual([problem]);
    expect(error.message).toBe(`Invalid configuration:\n  - ${problem}`);
    expect(error.message).toContain(name);
    expect(error.name).toBe('ConfigError');
  });

  it('rejects two bad values with one error naming both', () => {
    const error = configErrorOf({ PORT: 'abc', LOG_LEVEL: 'loud' });

    expect(error.problems).toHaveLength(2);
    expect(error.problems).toEqual([
      'PORT must be a whole number from 1 to 65535 (got "abc")',
      'LOG_LEVEL must be one of fatal, error, warn, info, debug, trace, silent (got "loud")',
    ]);
    expect(error.message).toContain('PORT');
    expect(error.message).toContain('LOG_LEVEL');
  });
});
