import { randomBytes } from 'node:crypto';
import { join } from 'node:path';
import {
  type ComposeService,
  type DotEnv,
  readComposeServices,
  readDockerfileRuntime,
  serviceEnvironment,
} from '@app/testing/compose-file';
import type { AppConfig } from './app-config';
import { ConfigError, loadConfig } from './load-config';
import { resolveSecretsKey } from './secrets-key';
import { assertWorkerProcess } from './worker-process';

// docker-compose.yml and the Dockerfile checked without a Docker engine: each container that runs
// Linkdock must pass the checks its entry point makes before it starts (the same functions).
const ROOT = join(__dirname, '..', '..', '..');
const COMPOSE_FILE = join(ROOT, 'docker-compose.yml');
const IMAGE = readDockerfileRuntime(join(ROOT, 'Dockerfile'));

/** What each entry point runs on the configuration before it starts (see their main.ts). */
const STARTUP_CHECKS: Record<string, (config: AppConfig) => ReturnType<typeof resolveSecretsKey>> =
  {
    // apps/api/src/main.ts: the key before anything else.
    'dist/apps/api/src/main.js': (config) => resolveSecretsKey(config),
    // apps/worker/src/main.ts; its SecretsModule resolves the key as the application starts.
    'dist/apps/worker/src/main.js': (config) => {
      assertWorkerProcess(config);
      return resolveSecretsKey(config);
    },
  };

const KEY = randomBytes(32).toString('base64');
// `echo "SECRETS_KEY=$(openssl rand -base64 32)" > .env`, then the worker profile's line.
const DOT_ENV: DotEnv = { SECRETS_KEY: KEY };
const DOT_ENV_WORKER: DotEnv = { SECRETS_KEY: KEY, WORKER: 'external' };

/** The services that run Linkdock: built here, or tagged linkdock. */
function linkdockServices(dotEnv: DotEnv): Record<string, ComposeService> {
  const services = readComposeServices(COMPOSE_FILE, dotEnv);
  return Object.fromEntries(
    Object.entries(services).filter(
      ([, s]) =>
        /^linkdock(:|$)/.test(s.image ?? '') ||
        s.build === '.' ||
        (typeof s.build === 'object' && s.build.context === '.'),
    ),
  );
}

/** The container's environment (the image's ENV, then the service's) and its entry point. */
function container(service: ComposeService): { env: Record<string, string>; entry: string } {
  const command =
    typeof service.command === 'string' ? service.command.split(/\s+/) : service.command;
  const entry = (command ?? IMAGE.cmd).find((arg) => arg.endsWith('.js')) ?? '';
  return { env: { ...IMAGE.env, ...serviceEnvironment(service) }, entry };
}

/** loadConfig, then the entry point's own checks, as the process would run them. */
function start(service: ComposeService): {
  config: AppConfig;
  secrets: ReturnType<typeof resolveSecretsKey>;
} {
  const { env, entry } = container(service);
  const checks = STARTUP_CHECKS[entry];
  if (checks === undefined) {
    throw new Error(`No start-up checks known for "${entry}": add them to STARTUP_CHECKS`);
  }
  const config = loadConfig(env);
  if (config.database.type !== 'postgres') {
    // On SQLite resolveSecretsKey would create $DATA_DIR/secrets.key on this machine.
    throw new Error(`Expected PostgreSQL, got ${JSON.stringify(config.database)}`);
  }
  return { config, secrets: checks(config) };
}

describe('docker-compose.yml', () => {
  it('runs Linkdock in app and worker, from the image built here', () => {
    const services = linkdockServices(DOT_ENV);
    expect(Object.keys(services)).toEqual(['app', 'worker']);
    expect(Object.values(services).map(container)).toEqual([
      { env: expect.any(Object), entry: 'dist/apps/api/src/main.js' },
      { env: expect.any(Object), entry: 'dist/apps/worker/src/main.js' },
    ]);
  });

  it('gives the app and the worker the same environment but for WORKER and METRICS_PORT', () => {
    const { app, worker } = linkdockServices(DOT_ENV);
    const appEnv = serviceEnvironment(app);
    const workerEnv = serviceEnvironment(worker);
    const names = [...new Set([...Object.keys(appEnv), ...Object.keys(workerEnv)])];
    expect(names.filter((name) => appEnv[name] !== workerEnv[name]).sort()).toEqual([
      'METRICS_PORT',
      'WORKER',
    ]);
    expect([appEnv.WORKER, appEnv.METRICS_PORT]).toEqual(['internal', undefined]);
    expect([workerEnv.WORKER, workerEnv.METRICS_PORT]).toEqual(['external', '9464']);
  });

  it.each([
    ['a .env with SECRETS_KEY only', DOT_ENV, 'internal'],
    ['the worker profile (WORKER=external in .env)', DOT_ENV_WORKER, 'external'],
  ])('starts the app and the worker with %s', (_, dotEnv, appWorkerMode) => {
    const { app, worker } = linkdockServices(dotEnv);
    const appStart = start(app);
    const workerStart = start(worker);

    expect(appStart.secrets).toEqual({
      key: Buffer.from(KEY, 'base64'),
      created: null,
      file: null,
    });
    expect(workerStart.secrets).toEqual(appStart.secrets);
    const { config } = appStart;
    expect({
      port: config.port,
      host: config.host,
      appUrl: config.appUrl,
      dataDir: config.dataDir,
      database: config.database,
      redisUrl: config.redisUrl,
      logLevel: config.logLevel,
      worker: config.worker,
      visitsRetentionDays: config.visitsRetentionDays,
      smtp: [config.notifications.smtpUrl, config.notifications.smtpFrom],
      storage: config.storage,
      metrics: config.metrics,
    }).toEqual({
      port: 3000,
      host: '0.0.0.0',
      appUrl: 'http://localhost:3000',
      dataDir: '/data',
      database: { type: 'postgres', url: 'postgres://linkdock:linkdock@postgres:5432/linkdock' },
      redisUrl: 'redis://redis:6379',
      logLevel: 'info',
      worker: appWorkerMode,
      visitsRetentionDays: null,
      smtp: [null, 'Linkdock <no-reply@linkdock.local>'],
      storage: {
        driver: 's3',
        s3: {
          bucket: 'linkdock',
          region: 'us-east-1',
          endpoint: 'http://minio:9000',
          forcePathStyle: true,
          credentials: { accessKeyId: 'linkdock', secretAccessKey: 'linkdock-secret' },
        },
        publicUrl: null,
      },
      metrics: { token: null, port: null },
    });
    // Everything the worker reads is the app's, apart from its mode and its metrics port.
    expect(workerStart.config).toEqual({
      ...config,
      worker: 'external',
      metrics: { token: null, port: 9464 },
    });
  });

  it('passes what .env sets to both', () => {
    const dotEnv = {
      ...DOT_ENV_WORKER,
      APP_URL: 'https://links.example.com',
      SMTP_URL: 'smtp://mailer:secret@mail.example.com:587',
      SMTP_FROM: 'Links <links@example.com>',
      VISITS_RETENTION_DAYS: '400',
      LOG_LEVEL: 'warn',
    };
    const configs = Object.values(linkdockServices(dotEnv)).map((s) => start(s).config);
    const expected = [
      'https://links.example.com',
      'smtp://mailer:secret@mail.example.com:587',
      'Links <links@example.com>',
      400,
      'warn',
    ];
    expect(
      configs.map((c) => [
        c.appUrl,
        c.notifications.smtpUrl,
        c.notifications.smtpFrom,
        c.visitsRetentionDays,
        c.logLevel,
      ]),
    ).toEqual([expected, expected]);
  });

  it('stops without SECRETS_KEY in .env, with the message that says how to make one', () => {
    expect(() => linkdockServices({})).toThrow(
      'required variable SECRETS_KEY is missing a value: Create .env with SECRETS_KEY set to the output of openssl rand -base64 32 (see docker-compose.yml)',
    );
  });

  it.each(['app', 'worker'])(
    '%s refuses to start without SECRETS_KEY in its environment',
    (name) => {
      const service = linkdockServices(DOT_ENV_WORKER)[name];
      const environment = serviceEnvironment(service);
      delete environment.SECRETS_KEY;
      const run = (): unknown => start({ ...service, environment });
      expect(run).toThrow(ConfigError);
      expect(run).toThrow(
        /^Invalid configuration:\n {2}- SECRETS_KEY must be set when DATABASE_URL is PostgreSQL/,
      );
    },
  );

  it('pins every image to a version', () => {
    const services = readComposeServices(COMPOSE_FILE, DOT_ENV);
    const unpinned = Object.entries(services)
      .filter(([, service]) => !isPinned(service))
      .map(([name, service]) => `${name}: ${service.image ?? '(no image)'}`);
    expect(unpinned).toEqual([]);
  });

  it('counts latest, no tag and a major-only tag as unpinned', () => {
    expect(
      [
        'postgres:16-alpine',
        'minio/minio:latest',
        'redis',
        'registry.example.com:5000/redis',
        'linkdock:latest',
        'linkdock',
      ].map((image) => isPinned({ image })),
    ).toEqual([false, false, false, false, false, false]);
    expect(
      [
        'postgres:16.9-alpine',
        'minio/mc:RELEASE.2025-04-16T18-13-26Z',
        'registry.example.com:5000/redis:7.4.2',
        `redis@sha256:${'a'.repeat(64)}`,
      ].map((image) => isPinned({ image })),
    ).toEqual([true, true, true, true]);
    expect(isPinned({ image: 'linkdock:local', build: '.' })).toBe(true);
  });
});

/**
 * A pulled image names a version (at least major.minor, or MinIO's RELEASE.<date>) or a digest;
 * an image built here (`build`) any tag but latest. `latest` and no tag never.
 */
function isPinned(service: ComposeService): boolean {
  const image = service.image ?? '';
  if (/@sha256:[0-9a-f]{64}$/.test(image)) {
    return true;
  }
  const tag = /:([^:/]+)$/.exec(image)?.[1];
  if (tag === undefined || tag === 'latest') {
    return false;
  }
  return (
    service.build !== undefined ||
    /^\d+\.\d+/.test(tag) ||
    /^RELEASE\.\d{4}-\d\d-\d\dT\d\d-\d\d-\d\dZ$/.test(tag)
  );
}
