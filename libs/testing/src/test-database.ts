import { randomBytes } from 'node:crypto';
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { Client } from 'pg';

export const TEST_POSTGRES_URL =
  process.env.TEST_DATABASE_URL ?? 'postgres://postgres@127.0.0.1:5432/test';

export type TestDb = 'sqlite' | 'postgres';

/** The dialect of this Jest project (set by test/setup-<db>.ts); unit tests default to SQLite. */
export function currentTestDb(): TestDb {
  return process.env.LINKDOCK_TEST_DB === 'postgres' ? 'postgres' : 'sqlite';
}

export interface TestDatabase {
  /** Environment for loadConfig: DATABASE_URL and DATA_DIR. */
  env: Record<string, string>;
  schema?: string;
  drop(): Promise<void>;
}

/** A fresh, empty database: a temporary SQLite file, or a new PostgreSQL schema. */
export async function createTestDatabase(db: TestDb = currentTestDb()): Promise<TestDatabase> {
  const dataDir = mkdtempSync(join(tmpdir(), 'linkdock-test-'));
  const removeDir = () => rmSync(dataDir, { recursive: true, force: true });
  if (db === 'sqlite') {
    return { env: { DATA_DIR: dataDir }, drop: () => Promise.resolve(removeDir()) };
  }
  const schema = `t_${process.pid}_${randomBytes(4).toString('hex')}`;
  await withClient((client) => client.query(`CREATE SCHEMA "${schema}"`));
  return {
    // PostgreSQL needs an explicit key for notification-handler secrets (SQLite makes one in DATA_DIR).
    env: {
      DATA_DIR: dataDir,
      DATABASE_URL: TEST_POSTGRES_URL,
      SECRETS_KEY: randomBytes(32).toString('base64'),
    },
    schema,
    drop: async () => {
      await withClient((client) => client.query(`DROP SCHEMA IF EXISTS "${schema}" CASCADE`));
      removeDir();
    },
  };
}

async function withClient<T>(fn: (client: Client) => Promise<T>): Promise<T> {
  const client = new Client({ connectionString: TEST_POSTGRES_URL });
  try {
    await client.connect();
  } catch (error) {
    throw new Error(
      `PostgreSQL is not reachable at ${TEST_POSTGRES_URL} (${String(error)}). ` +
        'Start it, set TEST_DATABASE_URL, or run only the SQLite suite: npm run test:sqlite',
    );
  }
  try {
    return await fn(client);
  } finally {
    await client.end();
  }
}
