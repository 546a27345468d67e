import { createTestApp, insertDomain, TestApp, TestUser } from '@app/testing';

describe('Bulk links API', () => {
  let t: TestApp;
  let owner: TestUser;
  let stranger: TestUser;

  beforeAll(async () => {
    t = await createTestApp({ env: { API_RATE_LIMIT: '1000000' } });
    owner = await t.createUser();
    stranger = await t.createUser();
  });
  afterAll(() => t?.close());

  const bulk = (body: unknown, user = owner) =>
    t.http
      .post('/v1/links/bulk')
      .set('Authorization', user.auth)
      .send(body as object);

  const list = async (user = owner) =>
    (
      await t.http
        .get('/v1/links?results_per_page=1000&order_by=link_id&order_type=ASC')
        .set('Authorization', user.auth)
    ).body.data as Array<Record<string, unknown>>;

  it('creates every link of a JSON array in order and answers id, url and full_url', async () => {
    const res = await bulk([
      { location_url: 'https://example.com/one', url: 'bulk-one' },
      { location_url: 'https://example.com/two' },
      { type: 'walink', phone_number: '15551234567', message: 'Hi', url: 'bulk-chat' },
      { location_url: 'https://example.com/three', is_enabled: 0, http_status_code: 301 },
    ]);
    expect(res.status).toBe(201);
    expect(res.body).toEqual({
      data: [
        { id: expect.any(Number), url: 'bulk-one', full_url: 'http://links.test/bulk-one' },
        {
          id: expect.any(Number),
          url: expect.stringMatching(/^[a-z0-9]{7}$/),
          full_url: expect.stringMatching(/^http:\/\/links\.test\/[a-z0-9]{7}$/),
        },
        { id: expect.any(Number), url: 'bulk-chat', full_url: 'http://links.test/bulk-chat' },
        {
          id: expect.any(Number),
          url: expect.stringMatching(/^[a-z0-9]{7}$/),
          full_url: expect.stringMatching(/^http:\/\/links\.test\/[a-z0-9]{7}$/),
        },
      ],
    });
    const ids = (res.body.data as Array<{ id: number }>).map((l) => l.id);
    expect([...ids].sort((a, b) => a - b)).toEqual(ids);
    const chat = await t.http.get(`/v1/links/${ids[2]}`).set('Authorization', owner.auth);
    expect(chat.body.data).toMatchObject({
      type: 'walink',
      location_url: 'https://wa.me/15551234567?text=Hi',
      settings: { phone_number: '15551234567', message: 'Hi' },
    });
    const last = await t.http.get(`/v1/links/${ids[3]}`).set('Authorization', owner.auth);
    expect(last.body.data).toMatchObject({
      url: res.body.data[3].url,
      is_enabled: false,
      settings: { http_status_code: 301 },
      clicks: 0,
    });
    const visit = await t.http.get('/bulk-one').set('Host', 'links.test');
    expect(visit.status).toBe(302);
    expect(visit.headers.location).toBe('https://example.com/one');
  });

  it("creates from the origin's form: is_bulk=1 and location_urls, one per line", async () => {
    const project = await t.http
      .post('/v1/projects')
      .set('Authorization', owner.auth)
      .send({ name: 'Bulk' });
    const res = await t.http
      .post('/v1/links/bulk')
      .set('Authorization', owner.auth)
      .type('form')
      .send({
        is_bulk: '1',
        location_urls:
          'https://example.com/f1\r\n\r\n  https://example.com/f2  \nhttps://example.com/f3\n',
        project_id: String(project.body.data.id),
        url: 'ignored-alias',
      });
    expect(res.status).toBe(201);
    expect(res.body.data).toHaveLength(3);
    const created = (await list()).filter((l) => l.project_id === project.body.data.id);
    expect(created.map((l) => l.location_url)).toEqual([
      'https://example.com/f1',
      'https://example.com/f2',
      'https://example.com/f3',
    ]);
    expect(created.map((l) => l.url)).not.toContain('ignored-alias');
  });

  it('creates on a custom domain with its full_url', async () => {
    const domainId = await insertDomain(t, owner.id, 'bulk.example.com');
    const res = await bulk([
      { location_url: 'https://example.com/d', url: 'on-domain', domain_id: domainId },
    ]);
    expect(res.status).toBe(201);
    expect(res.body.data).toEqual([
      { id: expect.any(Number), url: 'on-domain', full_url: 'https://bulk.example.com/on-domain' },
    ]);
  });

  it('refuses the whole batch with every problem named by index and field, and creates nothing', async () => {
    const taken = await bulk([{ location_url: 'https://example.com/t', url: 'taken-alias' }]);
    expect(taken.status).toBe(201);
    const before = (await list()).length;
    const res = await bulk([
      { location_url: 'https://example.com/ok', url: 'fine-alias' },
      { location_url: 'not a url', url: 'x' },
      { location_url: 'https://example.com/dup', url: 'fine-alias' },
      { location_url: 'https://example.com/taken', url: 'taken-alias' },
      { location_url: 'http://links.test/loop', project_id: 999999 },
      { type: 'static', name: 'Site' },
      'just a string',
      { location_url: 'https://example.com/r', url: 'docs' },
    ]);
    expect(res.status).toBe(400);
    expect(res.body).toEqual({
      errors: [
        {
          status: 400,
          title:
            'Link [1]: location_url must be an http:// or https:// URL with a host, at most 2048 characters.',
          field: '[1].location_url',
          code: 'validation_failed',
        },
        {
          status: 400,
          title: 'Link [1]: url must be 3 to 64 letters, digits, - or _.',
          field: '[1].url',
          code: 'validation_failed',
        },
        {
          status: 400,
          title: 'Link [2]: The alias "fine-alias" is also used by link [0] of this batch.',
          field: '[2].url',
          code: 'alias_taken',
        },
        {
          status: 400,
          title: 'Link [3]: The alias "taken-alias" is already taken on this domain.',
          field: '[3].url',
          code: 'alias_taken',
        },
        {
          status: 400,
          title: 'Link [4]: project_id is not one of your projects.',
          field: '[4].project_id',
          code: 'invalid_reference',
        },
        {
          status: 400,
          title: 'Link [4]: location_url must not point back at this link service (links.test).',
          field: '[4].location_url',
          code: 'validation_failed',
        },
        {
          status: 400,
          title:
            'Link [5]: Static sites cannot be created in bulk: create each with POST /v1/links and its file.',
          field: '[5].type',
          code: 'validation_failed',
        },
        {
          status: 400,
          title: 'Link [6]: Each link must be an object of link fields.',
          field: '[6]',
          code: 'validation_failed',
        },
        {
          status: 400,
          title: 'Link [7]: The alias "docs" is reserved by the service; choose another.',
          field: '[7].url',
          code: 'alias_reserved',
        },
      ],
    });
    expect((await list()).length).toBe(before);
  });

  it('stores every setting of a link as POST /v1/links does', async () => {
    const res = await bulk([
      {
        location_url: 'https://example.com/full',
        url: 'bulk-full',
        password: 'open sesame',
        schedule: 1,
        start_date: '2026-01-01 00:00:00',
        end_date: '2030-06-30 12:00:00',
        clicks_limit: 10,
        utm_campaign: 'spring',
        targeting_type: 'country_code',
        targeting_country_code_key: ['de'],
        targeting_country_code_value: ['https://example.com/de'],
      },
    ]);
    expect(res.status).toBe(201);
    const single = await t.http
      .post('/v1/links')
      .set('Authorization', owner.auth)
      .send({
        location_url: 'https://example.com/full',
        url: 'single-full',
        password: 'open sesame',
        schedule: 1,
        start_date: '2026-01-01 00:00:00',
        end_date: '2030-06-30 12:00:00',
        clicks_limit: 10,
        utm_campaign: 'spring',
        targeting_type: 'country_code',
        targeting_country_code_key: ['de'],
        targeting_country_code_value: ['https://example.com/de'],
      });
    const [a, b] = await Promise.all(
      [res.body.data[0].id, single.body.data.id].map((id: number) =>
        t.http.get(`/v1/links/${id}`).set('Authorization', owner.auth),
      ),
    );
    const comparable = (link: Record<string, unknown>) => ({
      ...link,
      id: 0,
      url: '',
      full_url: '',
      datetime: '',
    });
    expect(comparable(a.body.data)).toEqual(comparable(b.body.data));
    expect(a.body.data).toMatchObject({
      start_date: '2026-01-01 00:00:00',
      end_date: '2030-06-30 12:00:00',
      datetime: expect.stringMatching(/^\d{4}-\d{2}-\d{2} \d{2}:\d{2}:\d{2}$/),
      settings: { password: true, clicks_limit: 10, targeting_type: 'country_code' },
    });
  });

  it('reports problems of the shared form fields once and of each line by index', async () => {
    const res = await t.http
      .post('/v1/links/bulk')
      .set('Authorization', owner.auth)
      .field('is_bulk', '1')
      .field('location_urls', 'https://example.com/ok\nftp://example.com/no\nnot-a-url')
      .field('project_id', '999999')
      .field('http_status_code', '303');
    expect(res.status).toBe(400);
    expect(res.body).toEqual({
      errors: [
        {
          status: 400,
          title: 'http_status_code must be one of 301, 302, 307, 308.',
          field: 'http_status_code',
          code: 'validation_failed',
        },
        {
          status: 400,
          title:
            'Link [1]: location_url must be an http:// or https:// URL with a host, at most 2048 characters.',
          field: '[1].location_url',
          code: 'validation_failed',
        },
        {
          status: 400,
          title:
            'Link [2]: location_url must be an http:// or https:// URL with a host, at most 2048 characters.',
          field: '[2].location_url',
          code: 'validation_failed',
        },
      ],
    });
    const references = await bulk({
      is_bulk: 1,
      location_urls: 'https://example.com/a\nhttps://example.com/b',
      project_id: 999999,
    });
    expect(references.status).toBe(400);
    expect(references.body.errors).toEqual([
      {
        status: 400,
        title: 'project_id is not one of your projects.',
        field: 'project_id',
        code: 'invalid_reference',
      },
    ]);
  });

  it.each([
    [
      'an object without is_bulk',
      { location_url: 'https://example.com/' },
      {
        title:
          'Send a JSON array of links (each with the fields of POST /v1/links), or is_bulk=1 with location_urls, one destination per line.',
        field: 'is_bulk',
      },
    ],
    [
      'is_bulk=0',
      { is_bulk: 0, location_urls: 'https://example.com/' },
      {
        title:
          'Send a JSON array of links (each with the fields of POST /v1/links), or is_bulk=1 with location_urls, one destination per line.',
        field: 'is_bulk',
      },
    ],
    ['an empty array', [], { title: 'Send at least one link.' }],
    [
      'is_bulk without location_urls',
      { is_bulk: '1' },
      { title: 'location_urls is required: one destination per line.', field: 'location_urls' },
    ],
    [
      'only blank lines',
      { is_bulk: '1', location_urls: '\n  \n' },
      { title: 'Send at least one link.', field: 'location_urls' },
    ],
    [
      '1,001 links',
      Array.from({ length: 1001 }, (_, i) => ({ location_url: `https://example.com/${i}` })),
      { title: 'At most 1000 links per request (this one has 1001); split the batch.' },
    ],
  ])('refuses %s with 400', async (_name, body, problem) => {
    const res = await bulk(body);
    expect(res.status).toBe(400);
    expect(res.body).toEqual({
      errors: [{ status: 400, ...problem, code: 'validation_failed' }],
    });
  });

  it('takes 1,000 links with long destinations in one request (bounds of this route)', async () => {
    const long = 'x'.repeat(1900);
    const body = Array.from({ length: 1000 }, (_, i) => ({
      location_url: `https://example.com/${i}/${long}`,
      utm_source: 'bulk',
      utm_medium: 'test',
      utm_campaign: 'bounds',
    }));
    expect(JSON.stringify(body).length).toBeGreaterThan(1024 * 1024);
    const res = await bulk(body);
    expect(res.status).toBe(201);
    expect(res.body.data).toHaveLength(1000);
    const tooLarge = await bulk(
      Array.from({ length: 1000 }, (_, i) => ({
        location_url: `https://example.com/${i}/${'y'.repeat(6000)}`,
      })),
    );
    expect(tooLarge.status).toBe(413);
    expect(tooLarge.body.errors[0]).toMatchObject({ status: 413, code: 'payload_too_large' });
  });

  it('names a field of a link that is not well-formed Unicode as [index].field', async () => {
    const res = await t.http
      .post('/v1/links/bulk')
      .set('Authorization', owner.auth)
      .set('Content-Type', 'application/json')
      .send(
        '[{"location_url":"https://example.com/"},{"location_url":"https://example.com/\\ud800"}]',
      );
    expect(res.status).toBe(400);
    expect(res.body).toEqual({
      errors: [
        {
          status: 400,
          title: '[1].location_url is not well-formed Unicode text (it has a lone surrogate).',
          field: '[1].location_url',
          code: 'validation_failed',
        },
      ],
    });
  });

  it("answers 401 without a key, and creates in the caller's own workspace only", async () => {
    expect(
      (await t.http.post('/v1/links/bulk').send([{ location_url: 'https://example.com/' }])).status,
    ).toBe(401);
    const res = await bulk(
      [{ location_url: 'https://example.com/mine', url: 'stranger-own' }],
      stranger,
    );
    expect(res.status).toBe(201);
    expect((await list(stranger)).map((l) => l.url)).toContain('stranger-own');
    expect((await list()).map((l) => l.url)).not.toContain('stranger-own');
  });
});
