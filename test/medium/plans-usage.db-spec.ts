import Database from 'better-sqlite3';
import { DataSource } from 'typeorm';
import { Db, LinkEntity, PlansRepository, ProjectEntity } from '@app/database';
import { currentTestDb, newTestService, TestService } from '@app/testing';
import { insertLink, insertUser, linkRow } from './rows';

const NONE = {
  links: 0,
  biolink_blocks: 0,
  qr_codes: 0,
  domains: 0,
  projects: 0,
  splash_pages: 0,
  signatures: 0,
  notification_handlers: 0,
  team_members: 0,
  static_storage_bytes: 0,
};

/**
 * PlansRepository.usage (GET /v1/user's counts): on SQLite kept until the database changes, by this
 * process or any other connection; on PostgreSQL counted every time. Either way a read after a
 * write sees it.
 */
describe(`${PlansRepository.name} usage`, () => {
  let s: TestService<PlansRepository>;
  let ds: DataSource;
  let db: Db;
  beforeAll(async () => {
    s = await newTestService(PlansRepository);
    ds = s.dataSource;
    db = s.module.get(Db);
  });
  afterAll(() => s?.close());

  it('counts each resource and the bytes of static sites, for the owner only', async () => {
    const owner = await insertUser(ds);
    const other = await insertUser(ds);
    await insertLink(ds, owner.id, { url: 'u1' });
    await insertLink(ds, owner.id, {
      url: 'u2',
      type: 'static',
      settings: JSON.stringify({ static_site: { bytes: 1500 } }),
    });
    await insertLink(ds, other.id, { url: 'u3' });
    expect(await s.sut.usage(owner.id)).toEqual({ ...NONE, links: 2, static_storage_bytes: 1500 });
    expect(await s.sut.usage(other.id)).toEqual({ ...NONE, links: 1 });
  });

  it("sees this process's writes, through the seam or around it, and a rolled-back one changes nothing", async () => {
    const owner = await insertUser(ds);
    expect(await s.sut.usage(owner.id)).toEqual(NONE);
    await db.write(() =>
      db.repository(ProjectEntity).insert({
        user_id: owner.id,
        name: 'P',
        color: '#000000',
        datetime: new Date(),
        last_datetime: null,
      }),
    );
    expect(await s.sut.usage(owner.id)).toEqual({ ...NONE, projects: 1 });
    // Straight through TypeORM, outside any Db.write.
    await insertLink(ds, owner.id, { url: `a${owner.id}` });
    expect(await s.sut.usage(owner.id)).toEqual({ ...NONE, projects: 1, links: 1 });
    await expect(
      db.write(async () => {
        await db.repository(LinkEntity).insert(linkRow(owner.id, { url: `b${owner.id}` }));
        throw new Error('undone');
      }),
    ).rejects.toThrow('undone');
    await ds.getRepository(LinkEntity).delete({ user_id: owner.id, url: `a${owner.id}` });
    expect(await s.sut.usage(owner.id)).toEqual({ ...NONE, projects: 1 });
  });

  it('gives a copy: changing an answer does not change the next one', async () => {
    const owner = await insertUser(ds);
    const first = await s.sut.usage(owner.id);
    first.links = 99;
    expect(await s.sut.usage(owner.id)).toEqual(NONE);
  });

  it('counts inside a write with its own rows, and keeps nothing from there', async () => {
    const owner = await insertUser(ds);
    expect(await s.sut.usage(owner.id)).toEqual(NONE);
    await expect(
      db.write(async () => {
        await db.repository(LinkEntity).insert(linkRow(owner.id, { url: `w${owner.id}` }));
        expect(await s.sut.usage(owner.id)).toEqual({ ...NONE, links: 1 });
        throw new Error('undone');
      }),
    ).rejects.toThrow('undone');
    expect(await s.sut.usage(owner.id)).toEqual(NONE);
  });

  if (currentTestDb() === 'sqlite') {
    it("sees another connection's commit (the command line, the visit writer, a second process)", async () => {
      const owner = await insertUser(ds);
      expect(await s.sut.usage(owner.id)).toEqual(NONE);
      const other = new Database((s.config.database as { path: string }).path);
      try {
        other
          .prepare(
            `INSERT INTO "projects" ("user_id", "name", "color", "datetime") VALUES (?, 'Q', '#000000', ?)`,
          )
          .run(owner.id, new Date().toISOString());
      } finally {
        other.close();
      }
      expect(await s.sut.usage(owner.id)).toEqual({ ...NONE, projects: 1 });
    });

    it('has a change stamp outside a write on SQLite, and none inside one', async () => {
      expect(db.changeStamp()).toMatch(/^\d+:\d+$/);
      await db.write(() => Promise.resolve(expect(db.changeStamp()).toBeNull()));
    });
  } else {
    it('has no change stamp on PostgreSQL (other instances write unseen)', () => {
      expect(db.changeStamp()).toBeNull();
    });
  }
});
