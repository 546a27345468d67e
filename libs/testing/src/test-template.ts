import { copyFileSync, existsSync, mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { dirname, join } from 'node:path';
import type { DatabaseConfig } from '@app/config';
import { AppDataSource, buildDataSourceOptions, runMigrations } from '@app/database';
import { postgresUrlOf, withAdminClient } from './postgres-admin';

/*
 * Migrated once, copied many times (Immich's test/medium/globalSetup.ts): a Jest project's
 * globalSetup migrates one database of its dialect, and every test database is a copy of it, so
 * that createTestApp and newTestService find no migration pending. The templates reach the test
 * workers through the environment, which Jest's workers inherit; the global teardown drops them.
 */

const SQLITE_TEMPLATE = 'LINKDOCK_TEST_SQLITE_TEMPLATE';
const POSTGRES_TEMPLATE = 'LINKDOCK_TEST_POSTGRES_TEMPLATE';

/** The migrated SQLite file of this run, if a globalSetup made one. */
export function sqliteTemplate(): string | undefined {
  const path = process.env[SQLITE_TEMPLATE];
  return path && existsSync(path) ? path : undefined;
}

/** The migrated PostgreSQL database of this run, if a globalSetup made one. */
export function postgresTemplate(): string | undefined {
  return process.env[POSTGRES_TEMPLATE] || undefined;
}

/** Copies the SQLite template into `dataDir` as its database; false when there is none. */
export function copySqliteTemplate(dataDir: string): boolean {
  const template = sqliteTemplate();
  if (template === undefined) return false;
  copyFileSync(template, join(dataDir, 'linkdock.sqlite'));
  return true;
}

/**
 * Migrates this run's template of `db`, once: the e2e and the medium projects of one dialect
 * share it.
 */
export async function prepareTemplate(db: 'sqlite' | 'postgres'): Promise<void> {
  if (db === 'sqlite') {
    if (sqliteTemplate() !== undefined) return;
    const path = join(mkdtempSync(join(tmpdir(), 'linkdock-template-')), 'linkdock.sqlite');
    await migrate({ type: 'sqlite', path });
    process.env[SQLITE_TEMPLATE] = path;
    return;
  }
  if (postgresTemplate() !== undefined) return;
  const name = `linkdock_template_${process.pid}_${Date.now().toString(36)}`;
  await withAdminClient((client) => client.query(`CREATE DATABASE "${name}"`));
  try {
    await migrate({ type: 'postgres', url: postgresUrlOf(name) });
  } catch (error) {
    await dropPostgresDatabase(name).catch(() => undefined);
    throw error;
  }
  process.env[POSTGRES_TEMPLATE] = name;
}

async function migrate(database: DatabaseConfig): Promise<void> {
  const dataSource = new AppDataSource(buildDataSourceOptions(database));
  await dataSource.initialize();
  try {
    await runMigrations(dataSource);
  } finally {
    // On SQLite a clean close checkpoints the log into the file, which is then copied alone.
    await dataSource.destroy();
  }
}

/** Drops a test database, closing any connection left to it. */
export async function dropPostgresDatabase(name: string): Promise<void> {
  await withAdminClient((client) => client.query(`DROP DATABASE IF EXISTS "${name}" WITH (FORCE)`));
}

/** Removes this run's templates (the global teardown). */
export async function dropTemplates(): Promise<void> {
  const file = process.env[SQLITE_TEMPLATE];
  if (file) {
    rmSync(dirname(file), { recursive: true, force: true });
    delete process.env[SQLITE_TEMPLATE];
  }
  const name = postgresTemplate();
  if (name) {
    await dropPostgresDatabase(name);
    delete process.env[POSTGRES_TEMPLATE];
  }
}
