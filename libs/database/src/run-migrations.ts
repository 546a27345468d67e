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
  // A session of its own that holds no transaction: advisory locks belong to a connection.
  // eslint-disable-next-line no-restricted-syntax
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

/**
 * Reverts the last applied migration. On SQLite, foreign keys are switched off around it: TypeORM
 * opens the revert's transaction before its own switch, where SQLite ignores it, so a `down` that
 * rebuilds a table (SQLite's way to change constraints) would cascade-delete the rows that refer
 * to it, e.g. every visit of every link.
 */
export async function revertLastMigration(dataSource: DataSource): Promise<void> {
  const sqlite = dataSource.options.type !== 'postgres';
  if (sqlite) {
    await dataSource.query('PRAGMA foreign_keys = OFF');
  }
  try {
    await dataSource.undoLastMigration({ transaction: 'each' });
  } finally {
    if (sqlite) {
      await dataSource.query('PRAGMA foreign_keys = ON');
    }
  }
}
