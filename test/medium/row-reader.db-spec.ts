import { DataSource, QueryFailedError } from 'typeorm';
import {
  DomainEntity,
  LinkEntity,
  Db,
  PlanEntity,
  RowReader,
  UserEntity,
  UsersRepository,
} from '@app/database';
import { newTestService, TestService } from '@app/testing';
import { insertDomain, insertLink, insertUser } from './rows';

/**
 * RowReader must hydrate exactly what TypeORM's find does, on both dialects: dates, booleans,
 * nullable columns, counters, relations' own columns.
 */
describe(RowReader.name, () => {
  let s: TestService<UsersRepository>;
  let ds: DataSource;
  let db: Db;
  beforeAll(async () => {
    s = await newTestService(UsersRepository);
    ds = s.dataSource;
    db = s.module.get(Db);
  });
  afterAll(() => s?.close());

  it('reads users, plans, domains and links as findOneBy does', async () => {
    const user = await insertUser(ds);
    const plans = ds.getRepository(PlanEntity);
    const plan = await plans.save(
      plans.create({
        name: 'Pro',
        settings: '{}',
        prices: '{}',
        price_ids: '{}',
        datetime: new Date('2026-01-02T03:04:05.678Z'),
        last_datetime: null,
      }),
    );
    const users = ds.getRepository(UserEntity);
    await users.update(
      { id: user.id },
      { plan_id: plan.id, plan_expiration_date: new Date('2027-01-01T00:00:00.000Z') },
    );
    const domain = await insertDomain(ds, user.id, {
      host: 'go.row-reader.test',
      is_enabled: true,
      verified_datetime: new Date('2026-03-04T05:06:07.890Z'),
    });
    const link = await insertLink(ds, user.id, {
      url: 'row-reader',
      location_url: 'https://example.com/a',
      settings: JSON.stringify({ clicks_limit: 5 }),
      clicks: 3,
      start_date: new Date('2026-01-01T00:00:00.000Z'),
    });

    const cases: Array<[string, number]> = [
      ['users', user.id],
      ['plans', plan.id],
      ['domains', domain.id],
      ['links', link.id],
    ];
    for (const [table, id] of cases) {
      const repo = ds.getRepository(
        { users: UserEntity, plans: PlanEntity, domains: DomainEntity, links: LinkEntity }[table]!,
      );
      const read = await new RowReader(db, repo).one('"id" = ?', [id]);
      const found = await repo.findOneBy({ id });
      expect(found).not.toBeNull();
      expect(read).toEqual(found);
      expect(read).toBeInstanceOf(repo.target as new () => unknown);
    }
    // The repository that reads users through it on every API request.
    expect(await s.sut.findById(user.id)).toEqual(await users.findOneBy({ id: user.id }));
  });

  it('binds booleans, finds ids, and answers null when nothing matches', async () => {
    const domains = ds.getRepository(DomainEntity);
    const reader = new RowReader(db, domains);
    const enabled = await reader.one('"host" = ? AND "is_enabled" = ?', [
      'go.row-reader.test',
      true,
    ]);
    expect(enabled?.host).toBe('go.row-reader.test');
    expect(
      await reader.one('"host" = ? AND "is_enabled" = ?', ['go.row-reader.test', false]),
    ).toBeNull();
    expect(await reader.firstId('"host" = ?', ['go.row-reader.test'])).toBe(enabled?.id);
    expect(await reader.firstId('"host" = ?', ['nowhere.test'])).toBeNull();
  });

  describe('Db.prepared', () => {
    const sql = (text: string): string =>
      ds.options.type === 'postgres' ? text.replace('?', '$1') : text;

    it('reads what em.query reads, again and again (a prepared statement is reused)', async () => {
      const user = await insertUser(ds);
      const text = sql('SELECT "id", "email", "is_admin" FROM "users" WHERE "id" = ?');
      const expected = await ds.manager.query(text, [user.id]);
      expect(expected).toHaveLength(1);
      for (let i = 0; i < 3; i += 1) {
        expect(await db.prepared(text).all([user.id])).toEqual(expected);
      }
      expect(await db.prepared(text).all([2147483647])).toEqual([]);
    });

    it("reads inside a write through the write's own connection", async () => {
      const user = await insertUser(ds);
      const text = sql('SELECT "name" FROM "users" WHERE "id" = ?');
      await db.write(async () => {
        await db.repository(UserEntity).update({ id: user.id }, { name: 'Not committed yet' });
        expect(await db.prepared(text).all([user.id])).toEqual([{ name: 'Not committed yet' }]);
      });
    });

    it('fails as em.query fails (on PostgreSQL, a QueryFailedError)', async () => {
      const text = 'SELECT "nope" FROM "users"';
      const direct = await ds.manager.query(text, []).catch((error: unknown) => error);
      const prepared = await db
        .prepared(text)
        .all([])
        .catch((error: unknown) => error);
      // Compared by constructor: better-sqlite3's SqliteError may come from another realm than
      // this test's Error.
      expect((prepared as Error).constructor).toBe((direct as Error).constructor);
      expect((prepared as Error).message).toBe((direct as Error).message);
      expect((prepared as Error).message).toMatch(/nope/);
      if (ds.options.type === 'postgres') {
        expect(prepared).toBeInstanceOf(QueryFailedError);
      }
    });

    it('fails as em.query fails when a statement fails while it runs (a QueryFailedError)', async () => {
      // Compiles, then fails on the row it reads: the text is not JSON.
      const text = sql(
        ds.options.type === 'postgres'
          ? 'SELECT ("email")::json AS "j" FROM "users" WHERE "id" = ?'
          : 'SELECT json_extract("email", \'$.a\') AS "j" FROM "users" WHERE "id" = ?',
      );
      const user = await insertUser(ds);
      const direct = await ds.manager.query(text, [user.id]).catch((e: unknown) => e);
      const prepared = await db
        .prepared(text)
        .all([user.id])
        .catch((e: unknown) => e);
      expect(prepared).toBeInstanceOf(QueryFailedError);
      expect(direct).toBeInstanceOf(QueryFailedError);
      expect((prepared as Error).message).toBe((direct as Error).message);
      expect((prepared as QueryFailedError).query).toBe(text);
      expect((prepared as QueryFailedError).parameters).toEqual([user.id]);
    });

    it('runs a statement that writes as em.query runs it', async () => {
      const user = await insertUser(ds);
      const text =
        ds.options.type === 'postgres'
          ? 'UPDATE "users" SET "name" = $1 WHERE "id" = $2'
          : 'UPDATE "users" SET "name" = ? WHERE "id" = ?';
      await db.prepared(text).all(['Renamed', user.id]);
      const read = sql('SELECT "name" FROM "users" WHERE "id" = ?');
      expect(await db.prepared(read).all([user.id])).toEqual([{ name: 'Renamed' }]);
    });
  });
});
