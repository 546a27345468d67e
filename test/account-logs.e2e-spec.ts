import { Clock, DAY_MS } from '@app/common';
import { AccountLogsRepository } from '@app/database';
import { closeAfterAll, createTestApp, TestApp, TestUser } from '@app/testing';
import { AccountLogsRetentionJob } from '../apps/worker/src/jobs/account-logs-retention.job';

const DATETIME = /^\d{4}-\d{2}-\d{2} \d{2}:\d{2}:\d{2}$/;

describe('Account log', () => {
  let t: TestApp;
  let owner: TestUser;
  let stranger: TestUser;
  const opened = closeAfterAll();

  beforeAll(async () => {
    t = opened.add(await createTestApp());
    owner = await t.createUser();
    stranger = await t.createUser();
  });

  async function logs(query = '', user = owner) {
    return t.http.get(`/v1/logs${query}`).set('Authorization', user.auth);
  }

  it('records keys made and revoked, and team invitations, for the account only', async () => {
    const made = await t.http
      .post('/v1/api-keys')
      .set('Authorization', owner.auth)
      .send({ name: 'Zapier', scope: 'read' });
    expect(made.status).toBe(201);
    const keyId = made.body.data.id as number;
    const revoked = await t.http.delete(`/v1/api-keys/${keyId}`).set('Authorization', owner.auth);
    expect(revoked.status).toBe(200);
    // Revoking again changes nothing and logs nothing.
    await t.http.delete(`/v1/api-keys/${keyId}`).set('Authorization', owner.auth);
    const team = await t.http
      .post('/v1/teams')
      .set('Authorization', owner.auth)
      .send({ name: 'Crew' });
    const invite = await t.http
      .post('/v1/team-members')
      .set('Authorization', owner.auth)
      .send({ team_id: team.body.data.id, user_email: 'friend@example.com' });
    expect(invite.status).toBe(201);

    const res = await logs('?order_by=id&order_type=ASC');
    expect(res.status).toBe(200);
    const prefix = made.body.data.prefix as string | undefined;
    expect(res.body.data).toEqual([
      {
        id: expect.any(Number),
        type: 'api_key.created',
        data: { id: keyId, name: 'Zapier', prefix: prefix ?? expect.any(String), scope: 'read' },
        datetime: expect.stringMatching(DATETIME),
      },
      {
        id: expect.any(Number),
        type: 'api_key.revoked',
        data: { id: keyId, name: 'Zapier', prefix: prefix ?? expect.any(String), scope: 'read' },
        datetime: expect.stringMatching(DATETIME),
      },
      {
        id: expect.any(Number),
        type: 'team_member.invited',
        data: {
          id: invite.body.data.id,
          team_id: team.body.data.id,
          team_name: 'Crew',
          user_email: 'friend@example.com',
          status: 0,
          datetime: expect.stringMatching(DATETIME),
          last_datetime: null,
        },
        datetime: expect.stringMatching(DATETIME),
      },
    ]);
    expect(res.body.meta).toMatchObject({ total: 3 });

    const only = await logs('?type=api_key.revoked');
    expect(only.body.data.map((e: { type: string }) => e.type)).toEqual(['api_key.revoked']);
    // The first key of an account is the operator's (npm run cli -- user:create): not logged.
    const theirs = await logs('', stranger);
    expect(theirs.status).toBe(200);
    expect(theirs.body.data).toEqual([]);
  });

  it('answers 400 for an unknown type and 403 through a team', async () => {
    const bad = await logs('?type=login.success');
    expect(bad.status).toBe(400);
    expect(bad.body.errors[0]).toMatchObject({ status: 400, field: 'type' });
    const team = await t.http
      .post('/v1/teams')
      .set('Authorization', owner.auth)
      .send({ name: 'Own team' });
    const viaTeam = await t.http
      .get('/v1/logs')
      .set('Authorization', owner.auth)
      .set('X-Team-Id', String(team.body.data.id));
    expect(viaTeam.status).toBe(403);
  });

  it('forgets entries older than 90 days', async () => {
    const repo = t.app.get(AccountLogsRepository);
    const old = new Date(Date.now() - 91 * DAY_MS);
    await repo.add([{ userId: owner.id, type: 'links.imported', data: { created: 1 } }], old);
    expect((await logs('?type=links.imported')).body.data).toHaveLength(1);
    const job = t.app.get(AccountLogsRetentionJob);
    jest.spyOn(t.app.get(Clock), 'now').mockReturnValue(new Date());
    expect(await job.prune()).toBe(1);
    expect((await logs('?type=links.imported')).body.data).toEqual([]);
    expect((await logs('?type=api_key.created')).body.data.length).toBeGreaterThan(0);
  });
});
