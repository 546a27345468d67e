import { DataSource } from 'typeorm';
import {
  Db,
  deleteLinkVisitsInChunks,
  sqliteConnection,
  VisitEntity,
  VisitsRepository,
} from '@app/database';
import { currentTestDb, newTestService, TestService } from '@app/testing';
import { insertDomain, insertLink, insertUser, insertVisits } from './rows';

/**
 * The raw visits of links about to be deleted, emptied in chunks on SQLite with the event loop
 * turning between statements (libs/database/src/visits/link-visits.ts), and only ever the owner's.
 */
describe(deleteLinkVisitsInChunks.name, () => {
  let s: TestService<VisitsRepository>;
  let ds: DataSource;
  let db: Db;
  beforeAll(async () => {
    s = await newTestService(VisitsRepository);
    ds = s.dataSource;
    db = s.module.get(Db);
  });
  afterAll(() => s?.close());

  const visitsOf = (linkIds: number[]) =>
    Promise.all(linkIds.map((id) => ds.getRepository(VisitEntity).countBy({ link_id: id })));

  it("deletes nothing of another owner's link or domain", async () => {
    const owner = await insertUser(ds);
    const other = await insertUser(ds);
    const domain = await insertDomain(ds, owner.id, { host: 'others.example.com' });
    const links = [
      (await insertLink(ds, owner.id, { url: 'o-one', domain_id: domain.id })).id,
      (await insertLink(ds, owner.id, { url: 'o-two' })).id,
    ];
    await insertVisits(ds, links[0], 3);
    await insertVisits(ds, links[1], 2);

    expect(await deleteLinkVisitsInChunks(db, other.id, { domainId: domain.id })).toBe(0);
    expect(await deleteLinkVisitsInChunks(db, other.id, { linkId: links[1] }, 1)).toBe(0);
    expect(await visitsOf(links)).toEqual([3, 2]);
  });

  it("deletes a domain's links' visits on SQLite, and no other link's", async () => {
    const owner = await insertUser(ds);
    const doomedDomain = await insertDomain(ds, owner.id, { host: 'doomed.example.com' });
    const keptDomain = await insertDomain(ds, owner.id, { host: 'kept.example.com' });
    const doomed = [
      (await insertLink(ds, owner.id, { url: 'one', domain_id: doomedDomain.id })).id,
      (await insertLink(ds, owner.id, { url: 'two', domain_id: doomedDomain.id })).id,
    ];
    const kept = [
      (await insertLink(ds, owner.id, { url: 'one', domain_id: keptDomain.id })).id,
      (await insertLink(ds, owner.id, { url: 'main-one' })).id,
    ];
    for (const [id, n] of [...doomed, ...kept].map((id, i) => [id, [3, 2, 4, 1][i]])) {
      await insertVisits(ds, id, n);
    }
    const deleted = await deleteLinkVisitsInChunks(db, owner.id, { domainId: doomedDomain.id }, 2);
    if (currentTestDb() === 'sqlite') {
      expect({ deleted, doomed: await visitsOf(doomed) }).toEqual({ deleted: 5, doomed: [0, 0] });
    } else {
      // PostgreSQL's cascade does not hold the event loop: the deletion leaves them to it.
      expect({ deleted, doomed: await visitsOf(doomed) }).toEqual({ deleted: 0, doomed: [3, 2] });
    }
    expect(await visitsOf(kept)).toEqual([4, 1]);
  });

  it("deletes a link's visits a chunk a statement, serving the event loop between them", async () => {
    const owner = await insertUser(ds);
    const doomed = (await insertLink(ds, owner.id, { url: 'many' })).id;
    const kept = (await insertLink(ds, owner.id, { url: 'few' })).id;
    await insertVisits(ds, doomed, 12);
    await insertVisits(ds, kept, 3);

    // Read synchronously on SQLite's connection the moment the event loop turns.
    const between: { visits?: unknown } = {};
    const connection = sqliteConnection(ds);
    setImmediate(() => {
      between.visits = connection
        ?.prepare('SELECT COUNT(*) AS "n" FROM "visits" WHERE "link_id" = ?')
        .pluck()
        .get(doomed);
    });
    const deleted = await deleteLinkVisitsInChunks(db, owner.id, { linkId: doomed }, 5);
    if (currentTestDb() === 'sqlite') {
      // 5 + 5 + 2, and the event loop turned after the first statement.
      expect({ deleted, between: between.visits, after: await visitsOf([doomed, kept]) }).toEqual({
        deleted: 12,
        between: 7,
        after: [0, 3],
      });
    } else {
      expect({ deleted, after: await visitsOf([doomed, kept]) }).toEqual({
        deleted: 0,
        after: [12, 3],
      });
    }
  });
});
