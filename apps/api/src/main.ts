import 'reflect-metadata';
import { join } from 'node:path';
import { Logger } from '@nestjs/common';
import { DataSource } from 'typeorm';
import { UsersService } from '@app/auth';
import {
  ConfigError,
  loadConfig,
  reportStartupFailure,
  resolveSecretsKey,
  SECRETS_KEY_FILE,
} from '@app/config';
import { runMigrations } from '@app/database';
import { verifySecretsKey } from '@app/notifications';
import { API_PREFIX, createApp } from './configure-app';
import { createHttpLogger } from './logger-options';

async function bootstrap(): Promise<void> {
  const config = loadConfig();
  // Before anything else: PostgreSQL without SECRETS_KEY stops here with a ConfigError.
  const secrets = resolveSecretsKey(config);
  const httpLogger = createHttpLogger(config);
  const app = await createApp(config, { httpLogger });
  const logger = new Logger('Linkdock');

  const applied = await runMigrations(app.get(DataSource));
  if (applied.length > 0) {
    logger.log(`Applied migrations: ${applied.map((m) => m.name).join(', ')}`);
  }
  // Refuses (one line) a key that is not the one the stored secrets were encrypted with.
  await verifySecretsKey(app.get(DataSource), secrets);
  const admin = await app.get(UsersService).ensureFirstAdmin(config.adminEmail);

  await app.listen(config.port, config.host);
  logger.log(`Listening on ${config.appUrl} (bound to ${config.host}:${config.port})`);

  const lines = [
    `Linkdock is listening on ${config.appUrl}`,
    `  API:  ${config.appUrl}/${API_PREFIX}   Docs: ${config.appUrl}/docs   Health: ${config.appUrl}/health`,
    `  Database: ${config.database.type === 'sqlite' ? config.database.path : 'PostgreSQL'}`,
  ];
  if (secrets.created) {
    lines.push(
      `  Secrets key: SECRETS_KEY is unset, so one was generated into ${secrets.created} (mode 0600).`,
      '  Back it up with the database: notification-handler secrets cannot be read without it.',
    );
  } else if (!config.notifications.secretsKey) {
    lines.push(
      `  Secrets key: ${join(config.dataDir, SECRETS_KEY_FILE)} (back it up with the database)`,
    );
  }
  if (admin) {
    // Printed to the terminal only, never to the JSON log: the key is a secret shown this once.
    lines.push(
      '',
      `First start: created the admin user ${admin.user.email}. Its API key, shown only this once:`,
      '',
      `  ${admin.apiKey}`,
      '',
      `Try it: curl -H "Authorization: Bearer ${admin.apiKey}" ${config.appUrl}/${API_PREFIX}/user`,
    );
  }
  // Through the JSON log's own stream, after the lines queued in it: the banner comes last.
  httpLogger.print(`\n${lines.join('\n')}\n\n`);
}

bootstrap().catch((error: unknown) => {
  // Loading the configuration succeeded unless it is what failed: it reads the same environment.
  reportStartupFailure('Linkdock', error, error instanceof ConfigError ? undefined : loadConfig());
  process.exit(1);
});
