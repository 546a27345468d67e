import { createTestApp, expectDocumented, openApiProblems, TestApp, TestUser } from '@app/testing';

/**
 * Live answers against docs/openapi.json, checked by Ajv (an independent JSON Schema validator):
 * a client generated from the document must accept what the API really sends.
 */
describe('Live answers match the OpenAPI document', () => {
  let t: TestApp;
  let owner: TestUser;
  const ids: Record<string, number> = {};

  beforeAll(async () => {
    t = await createTestApp();
    owner = await t.createUser();
    const create = async (name: string, path: string, body: Record<string, unknown>) => {
      const res = await t.http.post(path).set('Authorization', owner.auth).send(body);
      expect([res.status, expectDocumented(res).status]).toEqual([201, 201]);
      ids[name] = (res.body as { data: { id: number } }).data.id;
    };
    await create('project', '/v1/projects', { name: 'P' });
    await create('link', '/v1/links', {
      location_url: 'https://example.com/',
      project_id: ids.project,
    });
    await create('bio', '/v1/links', { type: 'biolink', url: 'openapi-bio' });
    await create('block', '/v1/biolink-blocks', {
      link_id: ids.bio,
      type: 'link',
      name: 'Shop',
      location_url: 'https://example.com/shop',
    });
    await create('qr', '/v1/qr-codes', { name: 'Code', type: 'url', url: 'https://example.com/' });
    await create('signature', '/v1/signatures', { name: 'Work' });
    await create('splash', '/v1/splash-pages', { name: 'Splash' });
    await create('handler', '/v1/notification-handlers', {
      name: 'Hook',
      type: 'webhook',
      webhook: 'http://127.0.0.1:9/hook',
    });
    await create('team', '/v1/teams', { name: 'Team' });
  });
  afterAll(() => t?.close());

  const get = (path: string) => t.http.get(path).set('Authorization', owner.auth);

  it.each([
    ['/v1/user'],
    ['/v1/links/'],
    ['/v1/links/{link}'],
    ['/v1/links/{bio}'],
    ['/v1/biolink-blocks/'],
    ['/v1/biolink-blocks/{block}'],
    ['/v1/qr-codes/'],
    ['/v1/qr-codes/{qr}'],
    ['/v1/signatures/'],
    ['/v1/signatures/{signature}'],
    ['/v1/splash-pages/'],
    ['/v1/splash-pages/{splash}'],
    ['/v1/projects/'],
    ['/v1/projects/{project}'],
    ['/v1/notification-handlers/'],
    ['/v1/notification-handlers/{handler}'],
    ['/v1/teams/'],
    ['/v1/teams/{team}'],
    ['/v1/domains/'],
    ['/v1/statistics/{link}'],
    ['/v1/data/'],
    ['/v1/api-keys/'],
    ['/v1/logs/'],
    ['/api/links/?page=9'],
    ['/v1/links/999999'],
  ])('GET %s', async (template) => {
    const path = template.replace(/\{(\w+)\}/g, (_m, name: string) => String(ids[name]));
    const res = await get(path);
    expect(res.status).toBeLessThan(500);
    expect(openApiProblems(res)).toEqual([]);
  });

  it('finds a body that breaks the document (the check is not vacuous)', async () => {
    const res = await get(`/v1/links/${ids.link}`);
    const broken = { ...res, body: { data: { ...res.body.data, clicks: 'many' } } };
    expect(openApiProblems(broken)).toEqual([
      'GET /v1/links/{id} 200: body/data/clicks must be number {"type":"number"}',
    ]);
    expect(openApiProblems({ ...res, status: 418 })).toEqual([
      'GET /v1/links/{id} does not document status 418',
    ]);
  });

  it('accepts the 201 of a static site (the whole link) and of other links (only the id)', async () => {
    const site = await t.http
      .post('/v1/links')
      .set('Authorization', owner.auth)
      .field('type', 'static')
      .field('name', 'Site')
      .attach('file', Buffer.from('<!doctype html><title>Hi</title>'), 'index.html');
    expect(site.status).toBe(201);
    expect(Object.keys(site.body.data as object)).toContain('full_url');
    expect(openApiProblems(site)).toEqual([]);
  });
});
