import { VisitRecorder } from '@app/analytics';
import { createTestApp, TestApp, TestUser } from '@app/testing';

interface Resource {
  path: string;
  body: Record<string, unknown>;
}

// Every resource that takes a project_id: 0, empty and JSON null all mean "no project", and a
// resource without one shows project_id null (as links always did), in a read and in a list.
const RESOURCES: Record<string, Resource> = {
  links: { path: '/v1/links', body: { location_url: 'https://example.com/' } },
  'qr-codes': { path: '/v1/qr-codes', body: { name: 'Code', type: 'text', text: 'hello' } },
  signatures: { path: '/v1/signatures', body: { name: 'Work' } },
};

describe('project_id 0 means no project', () => {
  let t: TestApp;
  let owner: TestUser;
  let projectId: number;

  beforeAll(async () => {
    t = await createTestApp();
    owner = await t.createUser();
    const project = await t.http
      .post('/v1/projects')
      .set('Authorization', owner.auth)
      .send({ name: 'P' });
    expect(project.status).toBe(201);
    projectId = (project.body as { data: { id: number } }).data.id;
  });
  afterAll(() => t?.close());

  async function projectOf(path: string, id: number): Promise<unknown> {
    const res = await t.http.get(`${path}/${id}`).set('Authorization', owner.auth);
    expect(res.status).toBe(200);
    return (res.body as { data: { project_id: unknown } }).data.project_id;
  }

  describe.each(Object.entries(RESOURCES))('%s', (_name, { path, body }) => {
    it.each([
      ['0 in a form', 'form', '0'],
      ['0 in JSON', 'json', 0],
      ['empty in a form', 'form', ''],
      ['null in JSON', 'json', null],
    ])('creates with %s as no project, and unassigns with it', async (_what, kind, value) => {
      const send = (req: ReturnType<TestApp['http']['post']>, fields: Record<string, unknown>) =>
        kind === 'form' ? req.type('form').send(fields) : req.send(fields);
      const created = await send(t.http.post(path).set('Authorization', owner.auth), {
        ...body,
        project_id: value,
      });
      expect(created.status).toBe(201);
      const id = (created.body as { data: { id: number } }).data.id;
      expect(await projectOf(path, id)).toBeNull();

      const assigned = await t.http
        .post(`${path}/${id}`)
        .set('Authorization', owner.auth)
        .send({ project_id: projectId });
      expect(assigned.status).toBe(200);
      expect(await projectOf(path, id)).toBe(projectId);

      const unassigned = await send(t.http.post(`${path}/${id}`).set('Authorization', owner.auth), {
        project_id: value,
      });
      expect(unassigned.status).toBe(200);
      expect(await projectOf(path, id)).toBeNull();
    });

    it('lists the resources without a project for project_id=0', async () => {
      const none = await t.http.post(path).set('Authorization', owner.auth).send(body);
      const inProject = await t.http
        .post(path)
        .set('Authorization', owner.auth)
        .send({ ...body, project_id: projectId });
      expect([none.status, inProject.status]).toEqual([201, 201]);
      const res = await t.http
        .get(`${path}/?project_id=0&results_per_page=1000`)
        .set('Authorization', owner.auth);
      expect(res.status).toBe(200);
      const rows = (res.body as { data: Array<{ id: number; project_id: unknown }> }).data;
      const ids = rows.map((row) => row.id);
      expect(ids).toContain((none.body as { data: { id: number } }).data.id);
      expect(ids).not.toContain((inProject.body as { data: { id: number } }).data.id);
      expect(new Set(rows.map((row) => row.project_id))).toEqual(new Set([null]));
    });

    it('refuses a project that is not one of yours with a 400 naming project_id', async () => {
      const res = await t.http
        .post(path)
        .set('Authorization', owner.auth)
        .send({ ...body, project_id: 999999 });
      expect(res.status).toBe(400);
      expect(res.body).toEqual({
        errors: [
          {
            status: 400,
            title: expect.stringMatching(/^project_id (is not|must be) one of your projects\.$/),
            field: 'project_id',
            code: 'invalid_reference',
          },
        ],
      });
    });
  });

  it('reads statistics of the links without a project with project_id=0', async () => {
    const make = async (alias: string, project: number | null) => {
      const res = await t.http
        .post('/v1/links')
        .set('Authorization', owner.auth)
        .send({ location_url: 'https://example.com/', url: alias, project_id: project ?? 0 });
      expect(res.status).toBe(201);
    };
    await make('stats-none', null);
    await make('stats-project', projectId);
    const ua =
      'Mozilla/5.0 (X11; Linux x86_64) AppleWebKit/537.36 (KHTML, like Gecko) Chrome/131.0.0.0 Safari/537.36';
    for (const alias of ['stats-none', 'stats-none', 'stats-project']) {
      const res = await t.http.get(`/${alias}`).set('User-Agent', ua).redirects(0);
      expect(res.status).toBe(302);
    }
    await t.app.get(VisitRecorder).flush();
    const total = async (query: string) => {
      const res = await t.http.get(`/v1/statistics/${query}`).set('Authorization', owner.auth);
      expect(res.status).toBe(200);
      return (res.body as { data: Array<{ pageviews: number }> }).data.reduce(
        (sum, row) => sum + row.pageviews,
        0,
      );
    };
    expect(await total('?project_id=0')).toBe(2);
    expect(await total(`?project_id=${projectId}`)).toBe(1);
    expect(await total('')).toBe(3);
  });
});
