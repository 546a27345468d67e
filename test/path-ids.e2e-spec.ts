import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { createTestApp, TestApp, TestUser } from '@app/testing';
import { OpenApiDocument, operationsOf, poolOfPath } from '@app/testing/fuzz';

/**
 * CONTRACT.md, third wave: a path id is `^[1-9][0-9]*$` below 2^53; anything else is 404. Every
 * operation of the committed document with an integer path parameter is tried with forms that
 * JavaScript's `Number()` reads as a stored id (`+9`, `9e0`, `09`, ` 9`, `9 `, `9.0`) and with
 * ids that are no ids; each answers 404 in the error shape and nothing is read, changed or deleted.
 */
const DOCUMENT = JSON.parse(
  readFileSync(join(__dirname, '..', 'docs', 'openapi.json'), 'utf8'),
) as OpenApiDocument;

const OPERATIONS = operationsOf(DOCUMENT).filter(
  (op) => op.pathParams.length > 0 && op.pathParams.every((p) => p.schema?.type === 'integer'),
);

/** Forms of the stored id `n` that are not `n` as the contract writes it, and ids that are none. */
const notIds = (n: number): string[] => [
  `%2B${n}`,
  `${n}e0`,
  `0${n}`,
  `%20${n}`,
  `${n}%20`,
  `${n}.0`,
  '0',
  '-1',
  '9007199254740992',
];

const NOT_FOUND = {
  errors: [
    {
      status: 404,
      title: expect.stringMatching(/^The [A-Za-z ]+ you are looking for does not exist\.$/),
      code: expect.stringMatching(/^[a-z_]+_not_found$/),
    },
  ],
};

describe('Path ids', () => {
  let t: TestApp;
  let owner: TestUser;
  let friend: TestUser;
  /** The owner's stored row per pool of the fuzz (`links`, `api-keys`, `memberships`...). */
  const stored = new Map<string, number>();

  const create = async (user: TestUser, path: string, body: Record<string, unknown>) => {
    const res = await t.http.post(path).set('Authorization', user.auth).send(body);
    expect([path, res.status]).toEqual([path, 201]);
    return (res.body as { data: { id: number } }).data.id;
  };

  beforeAll(async () => {
    t = await createTestApp({ env: { API_RATE_LIMIT: '1000000' } });
    owner = await t.createUser();
    friend = await t.createUser();
    stored.set('api-keys', await create(owner, '/v1/api-keys', { name: 'Kept', scope: 'full' }));
    stored.set('projects', await create(owner, '/v1/projects', { name: 'Kept' }));
    const link = await create(owner, '/v1/links', { location_url: 'https://example.com/kept' });
    stored.set('links', link);
    stored.set('domains', await create(owner, '/v1/domains', { host: 'kept.example.com' }));
    stored.set('splash-pages', await create(owner, '/v1/splash-pages', { name: 'Kept' }));
    stored.set(
      'qr-codes',
      await create(owner, '/v1/qr-codes', { name: 'Kept', type: 'text', text: 'kept' }),
    );
    stored.set('signatures', await create(owner, '/v1/signatures', { name: 'Kept' }));
    stored.set(
      'notification-handlers',
      await create(owner, '/v1/notification-handlers', {
        name: 'Kept',
        type: 'webhook',
        webhook: 'http://127.0.0.1:9/hook',
      }),
    );
    const team = await create(owner, '/v1/teams', { name: 'Kept' });
    stored.set('teams', team);
    stored.set(
      'memberships',
      await create(owner, '/v1/team-members', { team_id: team, user_email: friend.email }),
    );
  });
  afterAll(() => t?.close());

  it('covers every operation with an integer path parameter', () => {
    expect(OPERATIONS.length).toBeGreaterThanOrEqual(40);
    expect(OPERATIONS.map((op) => op.key)).toContain('DELETE /v1/api-keys/{id}');
  });

  it.each(OPERATIONS.map((op) => [op.key, op] as const))(
    '%s: every form that is not an id is a 404 in the error shape',
    async (_key, op) => {
      const n = stored.get(poolOfPath(op.path)) ?? 1;
      for (const id of notIds(n)) {
        const path = op.path.replace(/\{[^}]+\}/g, id);
        const res = await t.http[op.method as 'get' | 'post' | 'delete'](path)
          .set('Authorization', owner.auth)
          .send({});
        expect([path, res.status, res.body]).toEqual([path, 404, NOT_FOUND]);
      }
    },
  );

  it('changed and deleted nothing: every stored row is still there, the key still works', async () => {
    for (const [pool, id] of stored) {
      if (pool === 'api-keys' || pool === 'memberships') continue;
      const res = await t.http.get(`/v1/${pool}/${id}`).set('Authorization', owner.auth);
      expect([pool, res.status]).toEqual([pool, 200]);
    }
    // GET /v1/team-members/{team id} lists the team's members.
    const members = await t.http
      .get(`/v1/team-members/${stored.get('teams')}`)
      .set('Authorization', owner.auth);
    expect(members.body.data.map((m: { id: number }) => m.id)).toEqual([stored.get('memberships')]);
    const keys = await t.http.get('/v1/api-keys').set('Authorization', owner.auth);
    expect(keys.body.data.map((k: { id: number }) => k.id)).toContain(stored.get('api-keys'));
  });

  it('revokes nothing for DELETE /v1/api-keys/%2B{id}, and the id itself still revokes it', async () => {
    const made = await t.http
      .post('/v1/api-keys')
      .set('Authorization', owner.auth)
      .send({ name: 'Target', scope: 'full' });
    const { id, api_key: key } = made.body.data as { id: number; api_key: string };
    const res = await t.http.delete(`/v1/api-keys/%2B${id}`).set('Authorization', owner.auth);
    expect(res.status).toBe(404);
    expect(res.body).toEqual({
      errors: [
        {
          status: 404,
          title: 'The API key you are looking for does not exist.',
          code: 'api_key_not_found',
        },
      ],
    });
    expect((await t.http.get('/v1/user').set('Authorization', `Bearer ${key}`)).status).toBe(200);
    const revoked = await t.http.delete(`/v1/api-keys/${id}`).set('Authorization', owner.auth);
    expect(revoked.status).toBe(200);
    expect(revoked.body).toEqual({ data: { id } });
  });
});
