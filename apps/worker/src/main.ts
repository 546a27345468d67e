import 'reflect-metadata';
import { NestFactory } from '@nestjs/core';
import { Logger } from 'nestjs-pino';
import pino from 'pino';
import { NestLogger } from '@app/common';
import {
  AppConfig,
  assertWorkerProcess,
  ConfigError,
  loadConfig,
  reportStartupFailure,
  resolveSecretsKey,
} from '@app/config';
import { AppDataSource, buildDataSourceOptions, runMigrations } from '@app/database';
import { verifySecretsKey } from '@app/notifications';
import type { Job } from './job';
import { JobRunner } from './job-runner';
import { WorkerAppModule } from './worker-app.module';

/** `npm run worker`: the background jobs in a process of their own, with no HTTP server. */
async function main(stop: Promise<NodeJS.Signals>): Promise<void> {
  const config = loadConfig();
  assertWorkerProcess(config);
  // Written synchronously: a worker logs little, and its own lines then come in order.
  const logger = pino({ level: config.logLevel }, pino.destination({ dest: 1, sync: true }));
  const log = logger.child({ context: 'Worker' });
  // Before the jobs start, which they do as soon as the application context is up.
  const applied = await migrate(config);
  const app = await NestFactory.createApplicationContext(WorkerAppModule.forRoot(config, logger), {
    bufferLogs: true,
    autoFlushLogs: false,
    abortOnError: false,
  });
  app.useLogger(new NestLogger(app.get(Logger)));
  app.flushLogs();
  if (applied.length > 0) {
    log.info(`Applied migrations: ${applied.join(', ')}`);
  }
  const runner = app.get(JobRunner);
  const off = runner.off.map((job) => `${job.name} (${job.offBecause})`);
  process.stdout.write(
    `Linkdock worker is running jobs: ${runner.scheduled.map(describe).join(', ')}` +
      `${off.length > 0 ? `; off: ${off.join(', ')}` : ''}\n`,
  );

  const signal = await stop;
  log.info(`${signal}: letting running jobs finish, then stopping`);
  await app.close();
  process.stdout.write('Linkdock worker stopped\n');
}

/**
 * Applies pending migrations the way the API does, on a connection of their own, then refuses a
 * secrets key that does not open the stored secrets (the dispatcher would fail every delivery).
 */
async function migrate(config: AppConfig): Promise<string[]> {
  const dataSource = await new AppDataSource(buildDataSourceOptions(config.database)).initialize();
  try {
    const applied = (await runMigrations(dataSource)).map((migration) => migration.name);
    await verifySecretsKey(dataSource, resolveSecretsKey(config));
    return applied;
  } finally {
    await dataSource.destroy();
  }
}

/**
 * The first SIGTERM or SIGINT; a second one ends the process at once (node's default, as the
 * handlers are gone by then). Until then a timer keeps node running: the jobs' timers do not.
 */
function stopSignal(): Promise<NodeJS.Signals> {
  return new Promise((resolve) => {
    const keepAlive = setInterval(() => undefined, 1 << 30);
    const stop = (signal: NodeJS.Signals): void => {
      clearInterval(keepAlive);
      process.off('SIGTERM', stop);
      process.off('SIGINT', stop);
      resolve(signal);
    };
    process.on('SIGTERM', stop);
    process.on('SIGINT', stop);
  });
}

function describe(job: Job): string {
  const minutes = Math.round(job.everyMs / 60_000);
  return `${job.name} every ${minutes % 60 === 0 ? `${minutes / 60} h` : `${minutes} min`}`;
}

main(stopSignal()).then(
  () => process.exit(0),
  (error: unknown) => {
    // Loading the configuration succeeded unless it is what failed: it reads the same environment.
    const config = error instanceof ConfigError ? undefined : loadConfig();
    reportStartupFailure('Linkdock worker', error, config);
    process.exit(1);
  },
);
