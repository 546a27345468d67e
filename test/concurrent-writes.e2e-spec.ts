import { closeAfterAll, createTestApp, TestApp, TestUser } from '@app/testing';

/**
 * Many users writing at once. On SQLite every request shares one connection: transactions begun
 * together used to fail each other ("cannot start a transaction within a transaction") and answer
 * 500. Writes now take turns in Db.write (libs/database/src/engine/db.ts).
 */
describe('Concurrent writes of different users', () => {
  let t: TestApp;
  let users: TestUser[];
  const opened = closeAfterAll();

  beforeAll(async () => {
    t = opened.add(await createTestApp({ env: { API_RATE_LIMIT: '1000000' } }));
    // Each user is made with its first key in one transaction: twelve at once.
    users = await Promise.all(Array.from({ length: 12 }, () => t.createUser()));
  });

  it('creates links, teams, invitations and bulk links of twelve users at once, every one kept', async () => {
    const answers = await Promise.all(
      users.flatMap((user, i) => [
        t.http
          .post('/v1/links')
          .set('Authorization', user.auth)
          .send({ location_url: `https://example.com/${i}` }),
        t.http
          .post('/v1/links/bulk')
          .set('Authorization', user.auth)
          .send([
            { location_url: `https://example.com/${i}/a` },
            { location_url: `https://example.com/${i}/b` },
          ]),
        t.http
          .post('/v1/teams')
          .set('Authorization', user.auth)
          .send({ name: `Team ${i}` }),
        t.http
          .post('/v1/projects')
          .set('Authorization', user.auth)
          .send({ name: `P${i}` }),
      ]),
    );
    expect(answers.map((a) => a.status)).toEqual(Array<number>(answers.length).fill(201));
    const invites = await Promise.all(
      users.map(async (user, i) => {
        const teams = await t.http.get('/v1/teams').set('Authorization', user.auth);
        return t.http
          .post('/v1/team-members')
          .set('Authorization', user.auth)
          .send({ team_id: teams.body.data[0].id, user_email: `friend${i}@example.com` });
      }),
    );
    expect(invites.map((a) => a.status)).toEqual(Array<number>(users.length).fill(201));
    for (const user of users) {
      const links = await t.http.get('/v1/links').set('Authorization', user.auth);
      expect(links.body.meta.total).toBe(3);
    }
    const events = await t.dataSource.query<Array<{ n: number | string }>>(
      `SELECT COUNT(*) AS n FROM "events" WHERE "event" = 'link.created'`,
    );
    expect(Number(events[0].n)).toBe(36);
  });
});
