import { DataSource, Migration } from 'typeorm';

/** An arbitrary, fixed key for pg_advisory_lock: one migrator at a time across instances. */
const MIGRATION_LOCK_KEY = 746_111_001;

/**
 * Applies pending migrations, each in its own transaction. On PostgreSQL an advisory lock makes
 * several instances starting together wait for one another instead of racing.
 */
export async function runMigrations(dataSource: DataSource): Promise<Migration[]> {
  if (dataSource.options.type !== 'postgres') {
    return dataSource.runMigrations({ transaction: 'each' });
  }
  const runner = dataSource.createQueryRunner();
  await runner.connect();
  try {
    await runner.query('SELECT pg_advisory_lock($1)', [MIGRATION_LOCK_KEY]);
    return await dataSource.runMigrations({ transaction: 'each' });
  } finally {
    await runner
      .query('SELECT pg_advisory_unlock($1)', [MIGRATION_LOCK_KEY])
      .catch(() => undefined);
    await runner.release();
  }
}
