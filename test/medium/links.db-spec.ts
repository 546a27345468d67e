import { DataSource, QueryFailedError } from 'typeorm';
import {
  countUsage,
  Db,
  LinkEntity,
  type LinkEvents,
  LinksRepository,
  lockOwner,
  OutboxEventEntity,
} from '@app/database';
import { newTestService, TestService } from '@app/testing';
import { insertUser } from './rows';

const NOW = new Date('2026-05-06T07:08:09.123Z');

/** A new link as POST /v1/links writes it: every column a create gives. */
function newLink(userId: number, values: Partial<LinkEntity> = {}): Omit<LinkEntity, 'id'> {
  return {
    user_id: userId,
    project_id: null,
    domain_id: 0,
    splash_page_id: null,
    type: 'link',
    url: 'medium-link',
    location_url: 'https://example.org/landing?ref=medium',
    settings: '{"name":"Medium"}',
    password_hash: null,
    clicks: 0,
    bot_clicks: 0,
    is_enabled: true,
    start_date: new Date('2026-06-01T00:00:00.000Z'),
    end_date: null,
    datetime: NOW,
    last_datetime: null,
    preview_title: 'A title',
    preview_description: null,
    preview_image: null,
    ...values,
  };
}

/** The event of each link written: its id and alias, as the service's payload would carry them. */
const created: LinkEvents = {
  now: NOW,
  of: (links) =>
    links.map((link) => ({
      event: 'link.created',
      ownerId: link.user_id,
      data: { id: link.id, url: link.url, is_enabled: link.is_enabled },
    })),
};

/**
 * The create path's write: the link row and its outbox event in one transaction, through prepared
 * statements (insertRow, Db.prepared) on both dialects.
 */
describe(LinksRepository.name, () => {
  let s: TestService<LinksRepository>;
  let ds: DataSource;
  let db: Db;
  beforeAll(async () => {
    s = await newTestService(LinksRepository);
    ds = s.dataSource;
    db = s.module.get(Db);
  });
  afterAll(() => s?.close());

  const eventsOf = (ownerId: number) =>
    ds
      .getRepository(OutboxEventEntity)
      .find({ where: { owner_id: ownerId }, order: { id: 'ASC' } });

  it('writes the row TypeORM writes, and its event in the same write', async () => {
    const owner = await insertUser(ds);
    const id = await s.sut.insertWithEvents(newLink(owner.id), created);
    // The same values through TypeORM's own insert, for the columns left to their defaults.
    const links = ds.getRepository(LinkEntity);
    const viaTypeorm = (await links.insert(newLink(owner.id, { url: 'via-typeorm' })))
      .identifiers[0].id as number;

    const row = await links.findOneByOrFail({ id });
    expect(row).toEqual({
      ...newLink(owner.id),
      id,
      expired_event_end_date: null,
      destination_status: 'unknown',
      destination_status_code: null,
      destination_checked_datetime: null,
      destination_failures: 0,
    });
    const reference = await links.findOneByOrFail({ id: viaTypeorm });
    expect({ ...row, id: 0, url: '' }).toEqual({ ...reference, id: 0, url: '' });

    const events = await eventsOf(owner.id);
    expect(events).toEqual([
      {
        id: expect.any(Number) as number,
        uid: expect.stringMatching(/^evt_[A-Za-z0-9_-]{22}$/) as string,
        event: 'link.created',
        owner_id: owner.id,
        data: JSON.stringify({ id, url: 'medium-link', is_enabled: true }),
        handler_ids: null,
        created_at: NOW,
        dispatched_at: null,
      },
    ]);
  });

  it('writes each of several links with its own id, again and again with the same statement', async () => {
    const owner = await insertUser(ds);
    const ids: number[] = [];
    for (const url of ['again-1', 'again-2', 'again-3']) {
      ids.push(
        await s.sut.insertWithEvents(newLink(owner.id, { url, is_enabled: false }), created),
      );
    }
    const rows = await ds.getRepository(LinkEntity).find({
      where: { user_id: owner.id },
      order: { id: 'ASC' },
      select: { id: true, url: true, is_enabled: true },
    });
    expect(rows).toEqual([
      { id: ids[0], url: 'again-1', is_enabled: false },
      { id: ids[1], url: 'again-2', is_enabled: false },
      { id: ids[2], url: 'again-3', is_enabled: false },
    ]);
    expect((await eventsOf(owner.id)).map((e) => e.data)).toEqual(
      ids.map((id, i) => JSON.stringify({ id, url: `again-${i + 1}`, is_enabled: false })),
    );
  });

  it('leaves neither the row nor its event when the write it joined throws', async () => {
    const owner = await insertUser(ds);
    let written = 0;
    await expect(
      db.write(async () => {
        written = await s.sut.insertWithEvents(newLink(owner.id, { url: 'rolled-back' }), created);
        throw new Error('the work failed after the insert');
      }),
    ).rejects.toThrow('the work failed after the insert');
    expect(written).toBeGreaterThan(0);
    expect(await ds.getRepository(LinkEntity).findOneBy({ id: written })).toBeNull();
    expect(await eventsOf(owner.id)).toEqual([]);
  });

  it('rejects an alias taken on the same domain, and writes no event for it', async () => {
    const owner = await insertUser(ds);
    const other = await insertUser(ds);
    const first = await s.sut.insertWithEvents(newLink(owner.id, { url: 'taken' }), created);
    const attempt = s.sut.insertWithEvents(newLink(other.id, { url: 'taken' }), created);
    await expect(attempt).rejects.toBeInstanceOf(QueryFailedError);
    await expect(attempt).rejects.toMatchObject({
      driverError: { code: expect.stringMatching(/^(SQLITE_CONSTRAINT_UNIQUE|23505)$/) as string },
    });
    expect(await eventsOf(other.id)).toEqual([]);
    expect(await s.sut.aliasTaken(0, 'taken')).toBe(true);
    expect(await s.sut.aliasTaken(0, 'taken', first)).toBe(false);
    // The same alias on another domain is another address.
    const elsewhere = await s.sut.insertWithEvents(
      newLink(other.id, { url: 'taken', domain_id: 424242 }),
      created,
    );
    expect(await ds.getRepository(LinkEntity).countBy({ url: 'taken' })).toBe(2);
    expect((await eventsOf(other.id)).map((e) => e.data)).toEqual([
      JSON.stringify({ id: elsewhere, url: 'taken', is_enabled: true }),
    ]);
  });

  it("counts an owner's links and static-site bytes with prepared statements, in a write", async () => {
    const owner = await insertUser(ds);
    const other = await insertUser(ds);
    await s.sut.insertWithEvents(newLink(owner.id, { url: 'count-1' }), created);
    await s.sut.insertWithEvents(
      newLink(owner.id, {
        url: 'count-site',
        type: 'static',
        location_url: null,
        settings: JSON.stringify({ static_site: { version: 'v1', bytes: 1234 } }),
      }),
      created,
    );
    await s.sut.insertWithEvents(newLink(other.id, { url: 'count-other' }), created);
    const usage = await db.write(async () => {
      await lockOwner(db, owner.id);
      return [
        await countUsage(db, owner.id, 'links'),
        await countUsage(db, owner.id, 'static_storage_bytes'),
        await countUsage(db, owner.id, 'team_members'),
        await countUsage(db, other.id, 'links'),
      ];
    });
    expect(usage).toEqual([2, 1234, 0, 1]);
  });
});
