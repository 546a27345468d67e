import { DataSource } from 'typeorm';
import { DomainEntity, DomainsRepository, LinkEntity, VisitEntity } from '@app/database';
import { newTestService, TestService } from '@app/testing';
import { insertDomain, insertLink, insertUser, insertVisits } from './rows';

/** DomainsRepository (an OwnedRepository): the owner in every WHERE, the schema's own rules. */
describe(DomainsRepository.name, () => {
  let s: TestService<DomainsRepository>;
  let ds: DataSource;
  beforeAll(async () => {
    s = await newTestService(DomainsRepository);
    ds = s.dataSource;
  });
  afterAll(() => s?.close());

  it('lets the database keep a host enabled for one account at most', async () => {
    const [owner, stranger, third] = [
      await insertUser(ds),
      await insertUser(ds),
      await insertUser(ds),
    ];
    const domains = ds.getRepository(DomainEntity);
    const row = (userId: number, isEnabled: boolean) =>
      domains.insert({
        user_id: userId,
        scheme: 'https://',
        host: 'race.example.com',
        custom_index_url: '',
        custom_not_found_url: '',
        is_enabled: isEnabled,
        verification_token: 'x',
        verified_datetime: new Date(),
        datetime: new Date(),
        last_datetime: null,
      });
    await row(owner.id, true);
    await row(stranger.id, false);
    await expect(row(third.id, true)).rejects.toMatchObject({
      driverError: { code: expect.stringMatching(/^(SQLITE_CONSTRAINT_UNIQUE|23505)$/) },
    });
    expect(await domains.countBy({ host: 'race.example.com' })).toBe(2);
    expect([...(await s.sut.enabledHosts(['race.example.com', 'none.example.com']))]).toEqual([
      'race.example.com',
    ]);
  });

  it("finds, checks and deletes only the owner's rows", async () => {
    const owner = await insertUser(ds);
    const other = await insertUser(ds);
    const mine = await insertDomain(ds, owner.id, { host: 'mine.example.com' });
    const theirs = await insertDomain(ds, other.id, { host: 'theirs.example.com' });

    expect(await s.sut.findOwned(owner.id, mine.id)).toEqual(mine);
    expect(await s.sut.findOwned(other.id, mine.id)).toBeNull();
    expect([...(await s.sut.ownedIds(owner.id, [mine.id, theirs.id, 2147483647]))]).toEqual([
      mine.id,
    ]);
    expect(await s.sut.deleteOwned(other.id, mine.id)).toBe(false);
    expect(await ds.getRepository(DomainEntity).findOneBy({ id: mine.id })).toEqual(mine);
  });

  it('deletes a domain with its links and their visits, keeping links of other domains', async () => {
    const owner = await insertUser(ds);
    const doomed = await insertDomain(ds, owner.id, { host: 'doomed.example.com' });
    const kept = await insertDomain(ds, owner.id, { host: 'kept.example.com' });
    const gone = (await insertLink(ds, owner.id, { url: 'one', domain_id: doomed.id })).id;
    const stays = (await insertLink(ds, owner.id, { url: 'one', domain_id: kept.id })).id;
    const main = (await insertLink(ds, owner.id, { url: 'main-one' })).id;
    await insertVisits(ds, gone, 3);
    await insertVisits(ds, stays, 4);

    expect(await s.sut.deleteOwned(owner.id, doomed.id)).toBe(true);
    const links = ds.getRepository(LinkEntity);
    expect(await links.find({ where: { user_id: owner.id }, order: { id: 'ASC' } })).toEqual([
      expect.objectContaining({ id: stays, domain_id: kept.id }),
      expect.objectContaining({ id: main, domain_id: 0 }),
    ]);
    const visits = ds.getRepository(VisitEntity);
    expect([
      await visits.countBy({ link_id: gone }),
      await visits.countBy({ link_id: stays }),
    ]).toEqual([0, 4]);
    expect(await s.sut.findOwned(owner.id, doomed.id)).toBeNull();
    expect(await s.sut.deleteOwned(owner.id, doomed.id)).toBe(false);
  });
});
