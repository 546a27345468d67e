import { Client } from 'pg';

/** The PostgreSQL server of the tests: its `test` database is where they connect to manage others. */
export const TEST_POSTGRES_URL =
  process.env.TEST_DATABASE_URL ?? 'postgres://postgres@127.0.0.1:5432/test';

/** TEST_POSTGRES_URL with another database name. */
export function postgresUrlOf(database: string): string {
  const url = new URL(TEST_POSTGRES_URL);
  url.pathname = `/${database}`;
  return url.toString();
}

/** Runs `fn` on a connection of its own to TEST_POSTGRES_URL, closed afterwards. */
export async function withAdminClient<T>(fn: (client: Client) => Promise<T>): Promise<T> {
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
