import { Type } from '@nestjs/common';
import { NestExpressApplication } from '@nestjs/platform-express';
import request from 'supertest';
import TestAgent from 'supertest/lib/agent';
import { DataSource } from 'typeorm';
import { UsersService } from '@app/auth';
import { AppConfig } from '@app/config';
import { runMigrations } from '@app/database';
import { createTestDatabase, TestDatabase, TestDb, testConfig } from './test-database';

export interface TestUser {
  id: number;
  email: string;
  apiKey: string;
  apiKeyId: number;
  /** `Authorization` header value. */
  auth: string;
}

export interface TestApp {
  app: NestExpressApplication;
  config: AppConfig;
  http: TestAgent;
  dataSource: DataSource;
  createUser(email?: string): Promise<TestUser>;
  close(): Promise<void>;
}

let userCounter = 0;

/** Builds the application under test from a configuration (apps/api's createApp). */
export type AppFactory = (
  config: AppConfig,
  options: { extraModules?: Type[] },
) => Promise<NestExpressApplication>;

let registeredFactory: AppFactory | null = null;

/**
 * Sets the application createTestApp builds when a suite passes none. The e2e projects' setup
 * files (test/setup-*.ts) register apps/api's createApp, so that this library never imports an
 * app.
 */
export function useAppFactory(factory: AppFactory): void {
  registeredFactory = factory;
}

/**
 * The whole application, configured as production runs it, on a database of its own of this
 * project's dialect with migrations applied: a copy of the run's migrated template, where start-up
 * finds no migration pending, or with `empty` one that start-up migrates from nothing. `env`
 * overrides variables exactly as the environment would.
 */
export async function createTestApp(
  options: {
    env?: Record<string, string>;
    db?: TestDb;
    /** An empty database instead of a copy of the migrated template. */
    empty?: boolean;
    database?: TestDatabase;
    /** Probe modules mounted inside the real app (for testing conventions). */
    extraModules?: Type[];
    /** The application to build; the registered one (useAppFactory) by default. */
    factory?: AppFactory;
  } = {},
): Promise<TestApp> {
  const createApp = options.factory ?? registeredFactory;
  if (createApp === null) {
    throw new Error('createTestApp has no app factory: call useAppFactory(createApp) first.');
  }
  const database =
    options.database ?? (await createTestDatabase(options.db, { empty: options.empty }));
  const dropOwnDatabase = () => (options.database ? Promise.resolve() : database.drop());
  let app: NestExpressApplication | undefined;
  try {
    const config = testConfig(database, options.env);
    app = await createApp(config, { extraModules: options.extraModules });
    // As production starts. A copy of the template has nothing pending: what runs was not in it.
    const applied = await runMigrations(app.get(DataSource));
    if (database.migrated && applied.length > 0) {
      throw new Error(
        `The test database's template lacked ${applied.map((m) => m.name).join(', ')}: ` +
          'the migrations changed after the globalSetup that migrated it.',
      );
    }
    await app.init();
    return wrap(app, config, dropOwnDatabase);
  } catch (error) {
    // The suite never gets this app to close: an open pool or Redis client would keep Jest from
    // exiting. The first error is the one worth reporting.
    await app?.close().catch(() => undefined);
    await dropOwnDatabase().catch(() => undefined);
    throw error;
  }
}

function wrap(
  app: NestExpressApplication,
  config: AppConfig,
  dropOwnDatabase: () => Promise<void>,
): TestApp {
  const users = app.get(UsersService);
  let closing: Promise<void> | undefined;
  return {
    app,
    config,
    dataSource: app.get(DataSource),
    http: request(app.getHttpServer()),
    async createUser(email?: string): Promise<TestUser> {
      userCounter += 1;
      const issued = await users.create({ email: email ?? `user${userCounter}@example.com` });
      return {
        id: issued.user.id,
        email: issued.user.email,
        apiKey: issued.apiKey,
        apiKeyId: issued.apiKeyId,
        auth: `Bearer ${issued.apiKey}`,
      };
    },
    close(): Promise<void> {
      // Once: a suite's cleanup may close an app that a test has closed already.
      closing ??= app.close().then(dropOwnDatabase);
      return closing;
    },
  };
}
