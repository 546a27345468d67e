import { existsSync } from 'node:fs';
import { join } from 'node:path';
import { revertLastMigration, runMigrations } from '@app/database';
import { POSTGRES_MIGRATIONS, SQLITE_MIGRATIONS } from '@app/database/migrations';
import {
  createTestApp,
  createTestDatabase,
  currentTestDb,
  TestApp,
  TestDatabase,
  withAdminClient,
} from '@app/testing';

/** Tables in a test database before anything opened it (SQLite: there is no file yet). */
async function tablesIn(database: TestDatabase): Promise<number> {
  if (database.schema === undefined) {
    return existsSync(join(database.env.DATA_DIR, 'linkdock.sqlite')) ? -1 : 0;
  }
  const { rows } = await withAdminClient((client) =>
    client.query<{ n: string }>(
      'SELECT COUNT(*) AS n FROM information_schema.tables WHERE table_schema = $1',
      [database.schema],
    ),
  );
  return Number(rows[0].n);
}

describe('Migrations and entities', () => {
  let t: TestApp;
  let database: TestDatabase;
  let tablesBefore: number;
  beforeAll(async () => {
    // Every other suite starts on a copy of the migrated template: this one starts as a new
    // install does, on an empty database, and start-up migrates it.
    database = await createTestDatabase(currentTestDb(), { empty: true });
    tablesBefore = await tablesIn(database);
    t = await createTestApp({ database });
  });
  afterAll(async () => {
    await t?.close();
    await database?.drop();
  });

  it('are applied from an empty database at start-up, every one of them', async () => {
    expect({ migrated: database.migrated, tablesBefore }).toEqual({
      migrated: false,
      tablesBefore: 0,
    });
    const all = currentTestDb() === 'postgres' ? POSTGRES_MIGRATIONS : SQLITE_MIGRATIONS;
    const names = await t.dataSource.query<Array<{ name: string }>>(
      'SELECT name FROM migrations ORDER BY id',
    );
    expect(names.map((m) => m.name)).toEqual(all.map((m) => new m().name));
    expect(await runMigrations(t.dataSource)).toEqual([]);
  });

  async function pendingSchemaChanges(): Promise<string[]> {
    const log = await t.dataSource.driver.createSchemaBuilder().log();
    return log.upQueries.map((q) => q.query);
  }

  it('leave nothing for TypeORM to change: the migrated schema matches the entities', async () => {
    expect(await pendingSchemaChanges()).toEqual([]);
  });

  it('can all be reverted and applied again', async () => {
    const applied = (await t.dataSource.query('SELECT name FROM migrations')).length;
    expect(applied).toBeGreaterThan(0);
    for (let i = 0; i < applied; i += 1) {
      await revertLastMigration(t.dataSource);
    }
    expect(await t.dataSource.query('SELECT name FROM migrations')).toEqual([]);
    const runner = t.dataSource.createQueryRunner();
    try {
      expect(await runner.hasTable('users')).toBe(false);
      expect(await runner.hasTable('projects')).toBe(false);
    } finally {
      await runner.release();
    }
    const again = await runMigrations(t.dataSource);
    expect(again).toHaveLength(applied);
    expect(await pendingSchemaChanges()).toEqual([]);
  });

  if (currentTestDb() === 'sqlite') {
    it('runs SQLite in WAL mode with foreign keys enforced', async () => {
      expect(await t.dataSource.query('PRAGMA journal_mode')).toEqual([{ journal_mode: 'wal' }]);
      expect(await t.dataSource.query('PRAGMA foreign_keys')).toEqual([{ foreign_keys: 1 }]);
    });
  } else {
    it('stores datetimes as UTC whatever the session time zone', async () => {
      const user = await t.createUser();
      const [row] = await t.dataSource.query(
        `SELECT to_char(datetime, 'YYYY-MM-DD HH24:MI:SS') AS stored FROM users WHERE id = $1`,
        [user.id],
      );
      const res = await t.http.get('/v1/user').set('Authorization', user.auth);
      expect(res.body.data.datetime).toBe(row.stored);
    });
  }

  it("deletes a user's keys and projects with the user", async () => {
    const user = await t.createUser();
    await t.http
      .post('/v1/projects')
      .set('Authorization', user.auth)
      .send({ name: 'p' })
      .expect(201);
    await t.dataSource.query(`DELETE FROM users WHERE id = ${user.id}`);
    expect(await t.dataSource.query(`SELECT id FROM projects WHERE user_id = ${user.id}`)).toEqual(
      [],
    );
    expect(await t.dataSource.query(`SELECT id FROM api_keys WHERE user_id = ${user.id}`)).toEqual(
      [],
    );
  });
});
