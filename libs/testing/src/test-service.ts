import { DynamicModule, ForwardReference, Provider, Type } from '@nestjs/common';
import { Test, TestingModule } from '@nestjs/testing';
import { DataSource } from 'typeorm';
import { AppConfig, ConfigModule } from '@app/config';
import { DatabaseModule, runMigrations } from '@app/database';
import { createTestDatabase, TestDatabase, testConfig } from './test-database';

export interface TestService<T> {
  /** The service or repository under test, as DI built it. */
  sut: T;
  module: TestingModule;
  dataSource: DataSource;
  config: AppConfig;
  /** Closes the module (and its data source) and drops the database it made. */
  close(): Promise<void>;
}

/**
 * The medium tier's way in (Immich's newTestService, with the real database instead of mocks):
 * `Service` built by Nest from the real DatabaseModule of the configured dialect, on a database of
 * its own copied from the run's migrated template. Whatever the database module provides (the
 * data source, repositories, the engine) comes with its real construction, so a constructor that
 * gains a database dependency needs no change here; anything else the service injects is passed
 * in `providers` or `imports`.
 */
export async function newTestService<T>(
  Service: Type<T>,
  options: {
    providers?: Provider[];
    imports?: Array<Type | DynamicModule | ForwardReference>;
    env?: Record<string, string>;
    database?: TestDatabase;
  } = {},
): Promise<TestService<T>> {
  const database = options.database ?? (await createTestDatabase());
  const dropOwnDatabase = () => (options.database ? Promise.resolve() : database.drop());
  let module: TestingModule | undefined;
  try {
    const config = testConfig(database, options.env);
    const databaseModule = DatabaseModule.forRoot(config.database);
    // A repository of the database module is taken from it; anything else is provided here.
    const ownProvider = !(databaseModule.providers ?? []).includes(Service);
    module = await Test.createTestingModule({
      imports: [ConfigModule.forRoot(config), databaseModule, ...(options.imports ?? [])],
      providers: [...(ownProvider ? [Service] : []), ...(options.providers ?? [])],
    }).compile();
    await module.init();
    if (!database.migrated) {
      // No template (a run without the globalSetup): migrate this one as start-up would.
      await runMigrations(module.get(DataSource));
    }
    const built = module;
    let closing: Promise<void> | undefined;
    return {
      sut: built.get(Service, { strict: false }),
      module: built,
      dataSource: built.get(DataSource),
      config,
      close: () => (closing ??= built.close().then(dropOwnDatabase)),
    };
  } catch (error) {
    await module?.close().catch(() => undefined);
    await dropOwnDatabase().catch(() => undefined);
    throw error;
  }
}
