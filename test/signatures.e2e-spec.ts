import { DEFAULT_SETTINGS } from '@app/signatures';
import { createTestApp, TestApp, TestUser } from '@app/testing';

const DATETIME = /^\d{4}-\d{2}-\d{2} \d{2}:\d{2}:\d{2}$/;

describe('Signatures', () => {
  let t: TestApp;
  let owner: TestUser;
  let stranger: TestUser;

  beforeAll(async () => {
    t = await createTestApp();
    owner = await t.createUser();
    stranger = await t.createUser();
  });
  afterAll(() => t?.close());

  async function create(fields: Record<string, unknown>, user = owner): Promise<number> {
    const res = await t.http.post('/v1/signatures').set('Authorization', user.auth).send(fields);
    expect(res.status).toBe(201);
    return (res.body as { data: { id: number } }).data.id;
  }

  async function createProject(user = owner): Promise<number> {
    const res = await t.http
      .post('/v1/projects')
      .set('Authorization', user.auth)
      .send({ name: 'p' });
    return (res.body as { data: { id: number } }).data.id;
  }

  it('creates with defaults and reads back every settings key with its type', async () => {
    const res = await t.http
      .post('/v1/signatures')
      .set('Authorization', owner.auth)
      .field('name', 'Plain');
    expect(res.status).toBe(201);
    expect(res.body).toEqual({ data: { id: expect.any(Number) } });

    const got = await t.http
      .get(`/v1/signatures/${res.body.data.id}`)
      .set('Authorization', owner.auth);
    expect(got.status).toBe(200);
    expect(got.body).toEqual({
      data: {
        id: res.body.data.id,
        project_id: null,
        name: 'Plain',
        template: 'mars',
        settings: {
          direction: 'ltr',
          is_removed_branding: false,
          image_url: '',
          sign_off: '',
          full_name: '',
          job_title: '',
          department: '',
          company: '',
          email: '',
          website_url: '',
          address: '',
          address_url: '',
          phone_number: '',
          whatsapp: '',
          facebook_messenger: '',
          telegram: '',
          disclaimer: '',
          font_family: 'arial',
          font_size: 14,
          width: 500,
          image_width: 50,
          socials_width: 20,
          socials_padding: 10,
          separator_size: 0,
          theme_color: '#2563eb',
          full_name_color: '#111827',
          text_color: '#374151',
          link_color: '#2563eb',
          facebook: '',
          twitter: '',
          instagram: '',
          youtube: '',
          tiktok: '',
          spotify: '',
          pinterest: '',
          linkedin: '',
          snapchat: '',
          twitch: '',
          discord: '',
          github: '',
          reddit: '',
        },
        last_datetime: null,
        datetime: expect.stringMatching(DATETIME),
      },
    });
  });

  it('stores every field sent as a form, converting numbers and booleans', async () => {
    const projectId = await createProject();
    const res = await t.http
      .post('/v1/signatures')
      .set('Authorization', owner.auth)
      .field({
        name: 'Full',
        template: 'venus',
        project_id: String(projectId),
        direction: 'rtl',
        is_removed_branding: '1',
        image_url: 'https://cdn.example.com/me.png',
        full_name: 'Ada Lovelace',
        email: 'ada@example.com',
        website_url: 'https://example.com',
        phone_number: '+44 20 7946 0000',
        whatsapp: '+447700900000',
        telegram: '@ada',
        font_family: 'georgia',
        font_size: '16',
        separator_size: '2',
        theme_color: '#AA0000',
        github: '@ada-l',
      });
    expect(res.status).toBe(201);
    const got = await t.http
      .get(`/v1/signatures/${res.body.data.id}`)
      .set('Authorization', owner.auth);
    expect(got.body.data).toEqual({
      id: res.body.data.id,
      project_id: projectId,
      name: 'Full',
      template: 'venus',
      settings: {
        ...DEFAULT_SETTINGS,
        direction: 'rtl',
        is_removed_branding: true,
        image_url: 'https://cdn.example.com/me.png',
        full_name: 'Ada Lovelace',
        email: 'ada@example.com',
        website_url: 'https://example.com/', // as the URL parser writes it
        phone_number: '+44 20 7946 0000',
        whatsapp: '+447700900000',
        telegram: 'ada',
        font_family: 'georgia',
        font_size: 16,
        separator_size: 2,
        theme_color: '#aa0000',
        github: 'ada-l',
      },
      last_datetime: null,
      datetime: expect.stringMatching(DATETIME),
    });
  });

  it('updates partially: absent settings keep their value, empty text clears one', async () => {
    const id = await create({ name: 'Before', full_name: 'Grace', company: 'Navy', width: 600 });
    const res = await t.http
      .post(`/v1/signatures/${id}`)
      .set('Authorization', owner.auth)
      .send({ name: 'After', company: '', template: 'saturn' });
    expect(res.status).toBe(200);
    expect(res.body).toEqual({ data: { id } });
    const got = await t.http.get(`/v1/signatures/${id}`).set('Authorization', owner.auth);
    expect(got.body.data).toEqual({
      id,
      project_id: null,
      name: 'After',
      template: 'saturn',
      settings: { ...DEFAULT_SETTINGS, full_name: 'Grace', company: '', width: 600 },
      last_datetime: expect.stringMatching(DATETIME),
      datetime: expect.stringMatching(DATETIME),
    });
  });

  it('lists with the project filter, search and order', async () => {
    const user = await t.createUser();
    const projectId = await createProject(user);
    const a = await create({ name: 'Alpha', project_id: projectId }, user);
    const b = await create({ name: 'Beta', project_id: projectId }, user);
    await create({ name: 'Gamma' }, user);

    const res = await t.http
      .get(`/v1/signatures?project_id=${projectId}&order_by=name&order_type=ASC`)
      .set('Authorization', user.auth);
    expect(res.status).toBe(200);
    expect(res.body.data.map((s: { id: number }) => s.id)).toEqual([a, b]);
    expect(res.body.meta).toEqual({
      page: 1,
      results_per_page: 25,
      total: 2,
      total_results: 2,
      total_pages: 1,
    });
    const search = await t.http
      .get('/v1/signatures?search=amm&search_by=name')
      .set('Authorization', user.auth);
    expect(search.body.data.map((s: { name: string }) => s.name)).toEqual(['Gamma']);
    const bad = await t.http.get('/v1/signatures?order_by=color').set('Authorization', user.auth);
    expect(bad.status).toBe(400);
    expect(bad.body.errors[0]).toMatchObject({ field: 'order_by', code: 'invalid_list_parameter' });
  });

  it('deletes, then answers 404', async () => {
    const id = await create({ name: 'Doomed' });
    const res = await t.http.delete(`/v1/signatures/${id}`).set('Authorization', owner.auth);
    expect(res.status).toBe(200);
    expect(res.body).toEqual({ data: { id } });
    const again = await t.http.get(`/v1/signatures/${id}`).set('Authorization', owner.auth);
    expect(again.status).toBe(404);
  });

  it('keeps the signature with project_id null when its project is deleted', async () => {
    const projectId = await createProject();
    const id = await create({ name: 'In project', project_id: projectId });
    await t.http.delete(`/v1/projects/${projectId}`).set('Authorization', owner.auth).expect(200);
    const got = await t.http.get(`/v1/signatures/${id}`).set('Authorization', owner.auth);
    expect(got.status).toBe(200);
    expect(got.body.data.project_id).toBeNull();
  });

  it("deletes a user's signatures with the user", async () => {
    const user = await t.createUser();
    await create({ name: 'Gone with the user' }, user);
    await t.dataSource.query(`DELETE FROM users WHERE id = ${user.id}`);
    expect(
      await t.dataSource.query(`SELECT id FROM signatures WHERE user_id = ${user.id}`),
    ).toEqual([]);
  });

  it('clears the project with project_id 0', async () => {
    const projectId = await createProject();
    const id = await create({ name: 'Moving', project_id: projectId });
    await t.http
      .post(`/v1/signatures/${id}`)
      .set('Authorization', owner.auth)
      .send({ project_id: 0 })
      .expect(200);
    const got = await t.http.get(`/v1/signatures/${id}`).set('Authorization', owner.auth);
    expect(got.body.data.project_id).toBeNull();
  });

  const V = 'validation_failed';
  it.each([
    ['a missing name', { name: undefined }, 'name', 'name is required.', V],
    ['an empty name', { name: '  ' }, 'name', 'name is required.', V],
    ['a long name', { name: 'x'.repeat(65) }, 'name', 'name must be at most 64 characters.', V],
    [
      'an unknown template',
      { template: 'pluto' },
      'template',
      'template must be one of mars, venus, saturn.',
      V,
    ],
    [
      'a bad colour',
      { theme_color: 'red' },
      'theme_color',
      'theme_color must be a colour as #rrggbb.',
      V,
    ],
    [
      'a size out of range',
      { font_size: 99 },
      'font_size',
      'font_size must be a whole number from 10 to 24.',
      V,
    ],
    [
      'a fractional size',
      { width: '500.5' },
      'width',
      'width must be a whole number from 300 to 800.',
      V,
    ],
    [
      'a javascript: URL',
      { website_url: 'javascript:alert(1)' },
      'website_url',
      'website_url must be an http(s) URL.',
      V,
    ],
    [
      'an ftp image',
      { image_url: 'ftp://x.example.com/a.png' },
      'image_url',
      'image_url must be an http(s) URL.',
      V,
    ],
    ['a direction', { direction: 'up' }, 'direction', 'direction must be ltr or rtl.', V],
    [
      'a font',
      { font_family: 'comic' },
      'font_family',
      'font_family must be one of arial, helvetica, verdana, tahoma, trebuchet_ms, georgia, times_new_roman, courier_new.',
      V,
    ],
    [
      'a URL as a handle',
      { twitter: 'https://x.com/ada' },
      'twitter',
      'twitter must be a plain handle (letters, digits, dot, dash or underscore).',
      V,
    ],
    ['a bad email', { email: 'not-an-email' }, 'email', 'email must be an email address.', V],
    [
      'a bad whatsapp number',
      { whatsapp: '12345' },
      'whatsapp',
      'whatsapp must be a phone number in E.164 form, e.g. +15551234567.',
      V,
    ],
    [
      'a boolean that is not 0/1',
      { is_removed_branding: 'maybe' },
      'is_removed_branding',
      'is_removed_branding must be 0 or 1.',
      V,
    ],
    [
      'a long disclaimer',
      { disclaimer: 'x'.repeat(1025) },
      'disclaimer',
      'disclaimer must be at most 1024 characters.',
      V,
    ],
  ])('refuses %s with 400 naming the field', async (_case, fields, field, title, code) => {
    const res = await t.http
      .post('/v1/signatures')
      .set('Authorization', owner.auth)
      .send({ name: 'ok', ...fields });
    expect(res.status).toBe(400);
    expect(res.body).toEqual({ errors: [{ status: 400, title, field, code }] });
  });

  it("refuses another user's project with 400 invalid_reference", async () => {
    const foreign = await createProject(stranger);
    const res = await t.http
      .post('/v1/signatures')
      .set('Authorization', owner.auth)
      .send({ name: 'x', project_id: foreign });
    expect(res.status).toBe(400);
    expect(res.body).toEqual({
      errors: [
        {
          status: 400,
          title: 'project_id must be one of your projects.',
          field: 'project_id',
          code: 'invalid_reference',
        },
      ],
    });
  });

  it('refuses an invalid update without changing anything', async () => {
    const id = await create({ name: 'Stable', text_color: '#445566' });
    const res = await t.http
      .post(`/v1/signatures/${id}`)
      .set('Authorization', owner.auth)
      .send({ name: 'New', text_color: 'nope' });
    expect(res.status).toBe(400);
    const got = await t.http.get(`/v1/signatures/${id}`).set('Authorization', owner.auth);
    expect(got.body.data).toMatchObject({ name: 'Stable', last_datetime: null });
    expect(got.body.data.settings.text_color).toBe('#445566');
  });

  describe('rendering', () => {
    const HOSTILE = '<script>alert(1)</script>"><img src=x onerror=alert(2)>';

    it('returns email-safe HTML with every value escaped and icons from the app', async () => {
      const id = await create({
        name: HOSTILE,
        full_name: HOSTILE,
        company: HOSTILE,
        disclaimer: HOSTILE,
        github: 'octo',
        website_url: 'https://example.com/?a=1&b="2"',
      });
      const res = await t.http.get(`/v1/signatures/${id}/html`).set('Authorization', owner.auth);
      expect(res.status).toBe(200);
      const { html, preview_url } = res.body.data as { html: string; preview_url: string };
      expect(html).not.toContain('<script');
      expect(html).not.toContain('<img src=x');
      expect(html).toContain(
        '&lt;script&gt;alert(1)&lt;/script&gt;&quot;&gt;&lt;img src=x onerror=alert(2)&gt;',
      );
      expect(html).toContain('src="http://links.test/assets/social/github.png"');
      expect(html).toContain('href="https://github.com/octo"');
      expect(html).toContain('href="https://example.com/?a=1&amp;b=%222%22"');
      expect(html).not.toMatch(/<style|<link|class=/);
      expect(html.startsWith('<table')).toBe(true);
      expect(preview_url).toMatch(/^http:\/\/links\.test\/signatures\/preview\/[A-Za-z0-9_-]{32}$/);
    });

    it('serves the public preview page with a strict policy, and 404 for unknown tokens', async () => {
      const id = await create({ name: 'Public', full_name: 'Ada' });
      const { preview_url } = (
        await t.http.get(`/v1/signatures/${id}/html`).set('Authorization', owner.auth)
      ).body.data as { preview_url: string };
      const page = await t.http.get(new URL(preview_url).pathname);
      expect(page.status).toBe(200);
      expect(page.headers['content-type']).toBe('text/html; charset=utf-8');
      expect(page.headers['content-security-policy']).toBe(
        "default-src 'none'; img-src https: http: data:; style-src 'unsafe-inline'; base-uri 'none'; form-action 'none'; frame-ancestors 'none'",
      );
      expect(page.headers['cache-control']).toBe('no-store');
      expect(page.text).toContain('>Ada</div>');

      const missing = await t.http.get('/signatures/preview/AAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAA');
      expect(missing.status).toBe(404);
      expect(missing.headers['content-type']).toBe('text/html; charset=utf-8');
      const junk = await t.http.get('/signatures/preview/..%2F..%2Fetc');
      expect(junk.status).toBe(404);
    });

    it('serves the social icons as PNG files', async () => {
      const res = await t.http.get('/assets/social/github.png');
      expect(res.status).toBe(200);
      expect(res.headers['content-type']).toBe('image/png');
      expect((res.body as Buffer).subarray(1, 4).toString()).toBe('PNG');
      expect((await t.http.get('/assets/social/nope.png')).status).toBe(404);
    });
  });

  describe("another user's signature is a 404, like a missing one", () => {
    let id: number;
    beforeAll(async () => {
      id = await create({ name: 'Private' });
    });
    const notFound = {
      errors: [
        {
          status: 404,
          title: 'The signature you are looking for does not exist.',
          code: 'signature_not_found',
        },
      ],
    };

    it.each([
      ['GET', ''],
      ['GET', '/html'],
      ['POST', ''],
      ['DELETE', ''],
    ])('on %s %s', async (method, suffix) => {
      const req = t.http[method.toLowerCase() as 'get' | 'post' | 'delete'](
        `/v1/signatures/${id}${suffix}`,
      ).set('Authorization', stranger.auth);
      const res = method === 'POST' ? await req.send({ name: 'Hijacked' }) : await req;
      expect(res.status).toBe(404);
      expect(res.body).toEqual(notFound);
      const got = await t.http.get(`/v1/signatures/${id}`).set('Authorization', owner.auth);
      expect(got.body.data.name).toBe('Private');
    });

    it('in lists', async () => {
      const res = await t.http.get('/v1/signatures').set('Authorization', stranger.auth);
      expect(res.body.data.map((s: { id: number }) => s.id)).not.toContain(id);
    });
  });

  it.each([
    ['GET', '/v1/signatures'],
    ['GET', '/v1/signatures/1'],
    ['GET', '/v1/signatures/1/html'],
    ['POST', '/v1/signatures'],
    ['POST', '/v1/signatures/1'],
    ['DELETE', '/v1/signatures/1'],
  ])('answers %s %s without a key with 401', async (method, path) => {
    const res = await t.http[method.toLowerCase() as 'get' | 'post' | 'delete'](path);
    expect(res.status).toBe(401);
    expect(res.body).toEqual({
      errors: [
        {
          status: 401,
          title: 'The request is missing the Bearer Authentication header.',
          code: 'unauthorized',
        },
      ],
    });
  });
});
