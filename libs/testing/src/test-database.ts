import { randomBytes } from 'node:crypto';
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { AppConfig, loadConfig } from '@app/config';
import { postgresUrlOf, TEST_POSTGRES_URL, withAdminClient } from './postgres-admin';
import { copySqliteTemplate, dropPostgresDatabase, postgresTemplate } from './test-template';

export type TestDb = 'sqlite' | 'postgres';

/** The dialect of this Jest project (set by its setup file); unit tests default to SQLite. */
export function currentTestDb(): TestDb {
  return process.env.LINKDOCK_TEST_DB === 'postgres' ? 'postgres' : 'sqlite';
}

export interface TestDatabase {
  /** Environment for loadConfig: DATABASE_URL and DATA_DIR. */
  env: Record<string, string>;
  schema?: string;
  /** Whether it is a copy of the migrated template (false: empty, to be migrated). */
  migrated: boolean;
  drop(): Promise<void>;
}

/**
 * A database of its own for a test: a copy of this run's migrated template (test-template.ts),
 * or, with `empty` or when no globalSetup made a template, an empty one that the first start
 * migrates. SQLite: a file in a temporary DATA_DIR. PostgreSQL: a database created from the
 * template, or an empty schema in the test database.
 */
export async function createTestDatabase(
  db: TestDb = currentTestDb(),
  options: { empty?: boolean } = {},
): Promise<TestDatabase> {
  const dataDir = mkdtempSync(join(tmpdir(), 'linkdock-test-'));
  const removeDir = () => rmSync(dataDir, { recursive: true, force: true });
  if (db === 'sqlite') {
    const migrated = !options.empty && copySqliteTemplate(dataDir);
    return { env: { DATA_DIR: dataDir }, migrated, drop: () => Promise.resolve(removeDir()) };
  }
  // PostgreSQL needs an explicit key for notification-handler secrets (SQLite makes one in DATA_DIR).
  const env = { DATA_DIR: dataDir, SECRETS_KEY: randomBytes(32).toString('base64') };
  const name = `t_${process.pid}_${randomBytes(4).toString('hex')}`;
  const template = options.empty ? undefined : postgresTemplate();
  if (template !== undefined) {
    await withAdminClient((client) =>
      client.query(`CREATE DATABASE "${name}" TEMPLATE "${template}"`),
    );
    return {
      env: { ...env, DATABASE_URL: postgresUrlOf(name) },
      migrated: true,
      drop: async () => {
        await dropPostgresDatabase(name);
        removeDir();
      },
    };
  }
  await withAdminClient((client) => client.query(`CREATE SCHEMA "${name}"`));
  return {
    env: { ...env, DATABASE_URL: TEST_POSTGRES_URL },
    schema: name,
    migrated: false,
    drop: async () => {
      await withAdminClient((client) => client.query(`DROP SCHEMA IF EXISTS "${name}" CASCADE`));
      removeDir();
    },
  };
}

/**
 * The configuration a test app or service runs with on `database`: production's loadConfig over
 * quiet logs, a fixed APP_URL, the database's variables and the test's own `env`.
 */
export function testConfig(database: TestDatabase, env: Record<string, string> = {}): AppConfig {
  const loaded = loadConfig({
    LOG_LEVEL: process.env.LINKDOCK_TEST_LOG_LEVEL ?? 'silent',
    APP_URL: 'http://links.test',
    ...database.env,
    ...env,
  });
  return loaded.database.type === 'postgres' && database.schema
    ? { ...loaded, database: { ...loaded.database, schema: database.schema } }
    : loaded;
}
