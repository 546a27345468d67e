import { revertLastMigration, runMigrations } from '@app/database';
import { createTestApp, currentTestDb, TestApp } from '@app/testing';

describe('Migrations and entities', () => {
  let t: TestApp;
  beforeAll(async () => {
    t = await createTestApp();
  });
  afterAll(() => t?.close());

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
