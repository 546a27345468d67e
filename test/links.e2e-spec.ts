import { EventEmitter2 } from '@nestjs/event-emitter';
import { LINK_CHANGED } from '@app/common';
import { createTestApp, expectDocumented, insertDomain, TestApp, TestUser } from '@app/testing';

const DATETIME = /^\d{4}-\d{2}-\d{2} \d{2}:\d{2}:\d{2}$/;

const NO_TARGETING = {
  targeting_country_code: [],
  targeting_continent_code: [],
  targeting_device_type: [],
  targeting_os_name: [],
  targeting_browser_name: [],
  targeting_browser_language: [],
  targeting_rotation: [],
};

function defaultSettings(): Record<string, unknown> {
  return {
    http_status_code: 302,
    sensitive_content: false,
    schedule: false,
    clicks_limit: null,
    expiration_url: null,
    forward_query_parameters_is_enabled: false,
    utm: { source: null, medium: null, campaign: null },
    password: false,
    targeting_type: false,
    ...NO_TARGETING,
  };
}

describe('Links API', () => {
  let t: TestApp;
  let owner: TestUser;
  let stranger: TestUser;

  beforeAll(async () => {
    t = await createTestApp();
    owner = await t.createUser();
    stranger = await t.createUser();
  });
  afterAll(() => t?.close());

  async function create(
    fields: Record<string, unknown>,
    user = owner,
  ): Promise<{ status: number; body: { data?: { id: number }; errors?: unknown[] } }> {
    const res = await t.http.post('/v1/links').set('Authorization', user.auth).send(fields);
    return { status: res.status, body: res.body as { data?: { id: number } } };
  }

  async function createId(fields: Record<string, unknown>, user = owner): Promise<number> {
    const res = await create(fields, user);
    expect(res.status).toBe(201);
    return res.body.data!.id;
  }

  /** A new project of `user`'s, by its id. */
  async function projectId(user: TestUser, name: string): Promise<number> {
    const res = await t.http.post('/v1/projects').set('Authorization', user.auth).send({ name });
    expect(res.status).toBe(201);
    return (res.body as { data: { id: number } }).data.id;
  }

  async function get(id: number, user = owner) {
    // Every read is checked against docs/openapi.json too.
    return expectDocumented(await t.http.get(`/v1/links/${id}`).set('Authorization', user.auth));
  }

  it('creates a link from multipart with defaults and reads back the whole object', async () => {
    const res = await t.http
      .post('/v1/links')
      .set('Authorization', owner.auth)
      .field('location_url', 'https://example.com/landing?ref=1')
      .field('url', 'Spring-Sale_1');
    expect(res.status).toBe(201);
    expect(res.body).toEqual({ data: { id: expect.any(Number) } });

    const got = await get(res.body.data.id);
    expect(got.status).toBe(200);
    expect(got.body).toEqual({
      data: {
        id: res.body.data.id,
        type: 'link',
        url: 'Spring-Sale_1',
        location_url: 'https://example.com/landing?ref=1',
        full_url: 'http://links.test/Spring-Sale_1',
        domain_id: 0,
        project_id: null,
        splash_page_id: null,
        settings: defaultSettings(),
        clicks: 0,
        bot_clicks: 0,
        is_enabled: true,
        start_date: null,
        end_date: null,
        last_datetime: null,
        datetime: expect.stringMatching(DATETIME),
        preview_title: null,
        preview_description: null,
        preview_image_url: null,
        destination_status: 'unknown',
        destination_status_code: null,
        destination_checked_datetime: null,
      },
    });
  });

  it('assigns a random 7-character alias when url is empty', async () => {
    const id = await createId({ location_url: 'https://example.com/', url: '' });
    const got = await get(id);
    expect(got.body.data.url).toMatch(/^[a-z0-9]{7}$/);
  });

  it('stores every redirect setting and never returns the password hash', async () => {
    const project = await projectId(owner, 'Campaigns');
    const id = await createId({
      location_url: 'https://example.com/a',
      url: 'all-settings',
      project_id: project,
      is_enabled: 0,
      http_status_code: '301',
      password: 'open sesame',
      schedule: 1,
      start_date: '2026-01-01 00:00:00',
      end_date: '2030-01-01 00:00:00',
      clicks_limit: '100',
      expiration_url: 'https://example.com/expired',
      utm_source: 'news',
      utm_medium: 'email',
      utm_campaign: 'spring',
      forward_query_parameters_is_enabled: 'true',
      sensitive_content: 1,
      targeting_type: 'country_code',
      targeting_country_code_key: ['us', 'DE'],
      targeting_country_code_value: ['https://example.com/us', 'https://example.com/de'],
    });
    const got = await get(id);
    expect(got.body.data).toEqual({
      id,
      type: 'link',
      url: 'all-settings',
      location_url: 'https://example.com/a',
      full_url: 'http://links.test/all-settings',
      domain_id: 0,
      project_id: project,
      splash_page_id: null,
      settings: {
        ...defaultSettings(),
        http_status_code: 301,
        sensitive_content: true,
        schedule: true,
        clicks_limit: 100,
        expiration_url: 'https://example.com/expired',
        forward_query_parameters_is_enabled: true,
        utm: { source: 'news', medium: 'email', campaign: 'spring' },
        password: true,
        targeting_type: 'country_code',
        targeting_country_code: [
          { key: 'US', value: 'https://example.com/us' },
          { key: 'DE', value: 'https://example.com/de' },
        ],
      },
      clicks: 0,
      bot_clicks: 0,
      is_enabled: false,
      start_date: '2026-01-01 00:00:00',
      end_date: '2030-01-01 00:00:00',
      last_datetime: null,
      datetime: expect.stringMatching(DATETIME),
      preview_title: null,
      preview_description: null,
      preview_image_url: null,
      destination_status: 'unknown',
      destination_status_code: null,
      destination_checked_datetime: null,
    });
    expect(JSON.stringify(got.body)).not.toContain('scrypt');
  });

  it('creates a walink to wa.me and updates it through location_url or its fields', async () => {
    const id = await createId({
      type: 'walink',
      phone_number: '+1 (555) 123-4567',
      message: 'Hi there & welcome',
      url: 'chat-us',
    });
    const got = await get(id);
    expect(got.body.data).toMatchObject({
      type: 'walink',
      location_url: 'https://wa.me/15551234567?text=Hi%20there%20%26%20welcome',
      settings: {
        ...defaultSettings(),
        phone_number: '15551234567',
        message: 'Hi there & welcome',
      },
    });

    const viaUrl = await t.http
      .post(`/v1/links/${id}`)
      .set('Authorization', owner.auth)
      .send({ location_url: 'https://wa.me/4915112345678?text=Hallo' });
    expect(viaUrl.status).toBe(200);
    expect((await get(id)).body.data).toMatchObject({
      location_url: 'https://wa.me/4915112345678?text=Hallo',
      settings: { phone_number: '4915112345678', message: 'Hallo' },
    });

    const viaFields = await t.http
      .post(`/v1/links/${id}`)
      .set('Authorization', owner.auth)
      .send({ message: 'New text' });
    expect(viaFields.status).toBe(200);
    expect((await get(id)).body.data.location_url).toBe(
      'https://wa.me/4915112345678?text=New%20text',
    );

    const bad = await t.http
      .post(`/v1/links/${id}`)
      .set('Authorization', owner.auth)
      .send({ location_url: 'https://example.com/not-whatsapp' });
    expect(bad.status).toBe(400);
    expect(bad.body).toEqual({
      errors: [
        {
          status: 400,
          title: 'location_url of a walink must be https://wa.me/<number>?text=<message>.',
          field: 'location_url',
          code: 'validation_failed',
        },
      ],
    });
  });

  it.each([
    ['javascript:alert(1)', 'location_url'],
    ['data:text/html,hi', 'location_url'],
    ['file:///etc/passwd', 'location_url'],
    ['ftp://example.com/x', 'location_url'],
    ['example.com/no-scheme', 'location_url'],
    ['https://', 'location_url'],
  ])('rejects location_url %s', async (url, field) => {
    const res = await create({ location_url: url });
    expect(res.status).toBe(400);
    expect(res.body).toEqual({
      errors: [
        {
          status: 400,
          title: `${field} must be an http:// or https:// URL with a host, at most 2048 characters.`,
          field,
          code: 'validation_failed',
        },
      ],
    });
  });

  it('rejects a missing location_url and destinations on its own host', async () => {
    expect((await create({ url: 'nothing' })).body).toEqual({
      errors: [
        {
          status: 400,
          title: 'location_url is required.',
          field: 'location_url',
          code: 'validation_failed',
        },
      ],
    });
    const self = await create({ location_url: 'https://LINKS.test/loop' });
    expect(self.status).toBe(400);
    expect(self.body).toEqual({
      errors: [
        {
          status: 400,
          title: 'location_url must not point back at this link service (links.test).',
          field: 'location_url',
          code: 'validation_failed',
        },
      ],
    });
    await insertDomain(t, stranger.id, 'go.loop.example');
    const viaDomain = await create({ location_url: 'https://go.loop.example/x' });
    expect(viaDomain.status).toBe(400);
    for (const spelling of [
      'http://links.test./loop',
      'http://links.test../loop',
      'https://GO.Loop.Example./x',
    ]) {
      expect((await create({ location_url: spelling })).status).toBe(400);
    }
  });

  it('rejects reserved, duplicate, short, long and malformed aliases', async () => {
    await createId({ location_url: 'https://example.com/', url: 'taken-one' });
    const cases: Array<[string, { title: string; code: string }]> = [
      [
        'docs',
        {
          title: 'The alias "docs" is reserved by the service; choose another.',
          code: 'alias_reserved',
        },
      ],
      [
        'API',
        {
          title: 'The alias "API" is reserved by the service; choose another.',
          code: 'alias_reserved',
        },
      ],
      [
        'uploads',
        {
          title: 'The alias "uploads" is reserved by the service; choose another.',
          code: 'alias_reserved',
        },
      ],
      [
        'taken-one',
        { title: 'The alias "taken-one" is already taken on this domain.', code: 'alias_taken' },
      ],
      ['ab', { title: 'url must be 3 to 64 letters, digits, - or _.', code: 'validation_failed' }],
      [
        'a'.repeat(65),
        { title: 'url must be 3 to 64 letters, digits, - or _.', code: 'validation_failed' },
      ],
      [
        'with space',
        { title: 'url must be 3 to 64 letters, digits, - or _.', code: 'validation_failed' },
      ],
      [
        'dot.ted',
        { title: 'url must be 3 to 64 letters, digits, - or _.', code: 'validation_failed' },
      ],
    ];
    for (const [alias, error] of cases) {
      const res = await create({ location_url: 'https://example.com/', url: alias });
      expect([alias, res.status, res.body]).toEqual([
        alias,
        400,
        { errors: [{ status: 400, field: 'url', ...error }] },
      ]);
    }
  });

  it('allows the same alias on another domain, and only on domains of the caller', async () => {
    const mine = await insertDomain(t, owner.id, 'go.mine.example');
    const theirs = await insertDomain(t, stranger.id, 'go.theirs.example');
    await createId({ location_url: 'https://example.com/', url: 'shared-alias' });
    const onDomain = await createId({
      location_url: 'https://example.com/',
      url: 'shared-alias',
      domain_id: mine,
    });
    expect((await get(onDomain)).body.data).toMatchObject({
      domain_id: mine,
      full_url: 'https://go.mine.example/shared-alias',
    });
    const foreign = await create({ location_url: 'https://example.com/', domain_id: theirs });
    expect(foreign.status).toBe(400);
    expect(foreign.body).toEqual({
      errors: [
        {
          status: 400,
          title: 'domain_id is not one of your domains (0 = the main domain).',
          field: 'domain_id',
          code: 'invalid_reference',
        },
      ],
    });
  });

  it('rejects a project of another user, a bad status code and bad targeting, all at once', async () => {
    const project = await projectId(stranger, 'Theirs');
    const res = await create({
      location_url: 'https://example.com/',
      project_id: project,
    });
    expect(res.body).toEqual({
      errors: [
        {
          status: 400,
          title: 'project_id is not one of your projects.',
          field: 'project_id',
          code: 'invalid_reference',
        },
      ],
    });
    const status = await create({ location_url: 'https://example.com/', http_status_code: 303 });
    expect(status.body).toEqual({
      errors: [
        {
          status: 400,
          title: 'http_status_code must be one of 301, 302, 307, 308.',
          field: 'http_status_code',
          code: 'validation_failed',
        },
      ],
    });
    const targeting = await create({
      location_url: 'https://example.com/',
      targeting_type: 'rotation',
      targeting_rotation_key: ['50', '0'],
      targeting_rotation_value: ['https://a.example/', 'javascript:alert(1)'],
    });
    expect(targeting.status).toBe(400);
    expect(targeting.body).toEqual({
      errors: [
        {
          status: 400,
          title: 'targeting_rotation_key[1]: a whole-number weight from 1 to 1000.',
          field: 'targeting_rotation_key',
          code: 'validation_failed',
        },
        {
          status: 400,
          title: 'targeting_rotation_value[1] must be an http:// or https:// URL with a host.',
          field: 'targeting_rotation_value',
          code: 'validation_failed',
        },
      ],
    });
    const unknownType = await create({
      location_url: 'https://example.com/',
      targeting_type: 'city',
    });
    expect(unknownType.status).toBe(400);
    const schedule = await create({
      location_url: 'https://example.com/',
      schedule: 1,
      start_date: '2026-05-01 00:00:00',
      end_date: '2026-04-01 00:00:00',
    });
    expect(schedule.body).toEqual({
      errors: [
        {
          status: 400,
          title: 'end_date must be after start_date.',
          field: 'end_date',
          code: 'validation_failed',
        },
      ],
    });
  });

  // The checks between fields run in LinkInputService, after the references (which need the
  // database) and in the order of the body, so that one 400 names every problem; moving them into
  // the DTO would let the pipe answer first, without the references (docs/architecture.md).
  it('reports references and the checks between fields of one body in one 400, in that order', async () => {
    const project = await projectId(stranger, 'Theirs too');
    const res = await create({
      type: 'walink',
      phone_number: '15551234567',
      project_id: project,
      schedule: 1,
      start_date: '2026-05-01 00:00:00',
      end_date: '2026-04-01 00:00:00',
    });
    expect(res.status).toBe(400);
    expect(res.body).toEqual({
      errors: [
        {
          status: 400,
          title: 'project_id is not one of your projects.',
          field: 'project_id',
          code: 'invalid_reference',
        },
        {
          status: 400,
          title: 'end_date must be after start_date.',
          field: 'end_date',
          code: 'validation_failed',
        },
      ],
    });
    const targeting = await create({
      location_url: 'https://example.com/',
      project_id: project,
      targeting_type: 'device_type',
      targeting_device_type_key: ['watch', 'mobile'],
      targeting_device_type_value: ['https://example.com/', 'https://links.test/loop'],
    });
    expect(targeting.status).toBe(400);
    expect(targeting.body).toEqual({
      errors: [
        {
          status: 400,
          title: 'project_id is not one of your projects.',
          field: 'project_id',
          code: 'invalid_reference',
        },
        {
          status: 400,
          title: 'targeting_device_type_key[0]: a device type, one of desktop, mobile, tablet.',
          field: 'targeting_device_type_key',
          code: 'validation_failed',
        },
        {
          status: 400,
          title:
            'targeting_device_type_value must not point back at this link service (links.test).',
          field: 'targeting_device_type_value',
          code: 'validation_failed',
        },
      ],
    });
  });

  it('answers 400, not a fault, for a targeting destination that is not an absolute URL', async () => {
    const res = await create({
      location_url: 'https://example.com/',
      targeting_type: 'country_code',
      targeting_country_code_key: ['US'],
      targeting_country_code_value: ['/relative/path'],
    });
    expect(res.status).toBe(400);
    expect(res.body).toEqual({
      errors: [
        {
          status: 400,
          title: 'targeting_country_code_value[0] must be an http:// or https:// URL with a host.',
          field: 'targeting_country_code_value',
          code: 'validation_failed',
        },
      ],
    });
  });

  // `https://paypal.com@evil.example/` goes to evil.example: userinfo is a phishing disguise.
  const CREDENTIALS = (field: string) =>
    `${field} must not carry a user name or password (user:password@ before the host), which browsers show like part of the address.`;

  it.each([
    ['location_url', { location_url: 'https://paypal.com@evil.example/' }],
    ['location_url', { location_url: 'https://user:pass@host.example/' }],
    [
      'expiration_url',
      { location_url: 'https://example.com/', expiration_url: 'https://a:b@evil.example/' },
    ],
  ])('refuses %s with a user name or password, and creates nothing', async (field, fields) => {
    const before = (await t.http.get('/v1/links').set('Authorization', owner.auth)).body.meta.total;
    const res = await create(fields);
    expect([res.status, res.body]).toEqual([
      400,
      { errors: [{ status: 400, title: CREDENTIALS(field), field, code: 'validation_failed' }] },
    ]);
    const after = (await t.http.get('/v1/links').set('Authorization', owner.auth)).body.meta.total;
    expect(after).toBe(before);
  });

  it('refuses a targeting destination with credentials, on create and on update', async () => {
    const rule = {
      targeting_type: 'country_code',
      targeting_country_code_key: ['US', 'FR'],
      targeting_country_code_value: ['https://example.com/us', 'https://paypal.com@evil.example/'],
    };
    const expected = {
      errors: [
        {
          status: 400,
          title: CREDENTIALS('targeting_country_code_value[1]'),
          field: 'targeting_country_code_value',
          code: 'validation_failed',
        },
      ],
    };
    const res = await create({ location_url: 'https://example.com/', ...rule });
    expect([res.status, res.body]).toEqual([400, expected]);
    const id = await createId({ location_url: 'https://example.com/kept' });
    const update = await t.http.post(`/v1/links/${id}`).set('Authorization', owner.auth).send(rule);
    expect([update.status, update.body]).toEqual([400, expected]);
    expect((await get(id)).body.data.settings).toEqual(defaultSettings());
  });

  it('keeps reading, updating and redirecting a link stored with credentials before the rule', async () => {
    const id = await createId({ location_url: 'https://example.com/old', url: 'old-userinfo' });
    const stored = 'https://user:pass@old.example/path';
    await t.dataSource.query(`UPDATE links SET location_url = '${stored}' WHERE id = ${id}`);
    expect((await get(id)).body.data.location_url).toBe(stored);
    // An update that does not send location_url keeps it.
    const update = await t.http
      .post(`/v1/links/${id}`)
      .set('Authorization', owner.auth)
      .send({ http_status_code: 307 });
    expect([update.status, update.body]).toEqual([200, { data: { id } }]);
    const visit = await t.http.get('/old-userinfo').redirects(0);
    expect([visit.status, visit.headers.location]).toEqual([307, stored]);
    // Sending it again is a new write: refused.
    const again = await t.http
      .post(`/v1/links/${id}`)
      .set('Authorization', owner.auth)
      .send({ location_url: stored });
    expect(again.status).toBe(400);
    expect(again.body.errors[0]).toEqual({
      status: 400,
      title: CREDENTIALS('location_url'),
      field: 'location_url',
      code: 'validation_failed',
    });
  });

  it('updates partially: disable, re-enable, move, clear the password, and emits a change event', async () => {
    const id = await createId({
      location_url: 'https://example.com/one',
      url: 'update-me',
      password: 'secret',
      utm_source: 'a',
    });
    const events: unknown[] = [];
    const emitter = t.app.get(EventEmitter2);
    const listener = (e: unknown) => events.push(e);
    emitter.on(LINK_CHANGED, listener);

    const disable = await t.http
      .post(`/v1/links/${id}`)
      .set('Authorization', owner.auth)
      .type('form')
      .send('is_enabled=0');
    expect(disable.status).toBe(200);
    expect(disable.body).toEqual({ data: { id } });
    let got = (await get(id)).body.data;
    expect(got).toMatchObject({
      is_enabled: false,
      location_url: 'https://example.com/one',
      url: 'update-me',
      settings: { password: true, utm: { source: 'a', medium: null, campaign: null } },
      last_datetime: expect.stringMatching(DATETIME),
    });

    await t.http.post(`/v1/links/${id}`).set('Authorization', owner.auth).send({
      is_enabled: 1,
      url: 'moved-here',
      password: '',
      location_url: 'https://example.com/two',
    });
    got = (await get(id)).body.data;
    expect(got).toMatchObject({
      is_enabled: true,
      url: 'moved-here',
      location_url: 'https://example.com/two',
      settings: { password: false },
    });
    emitter.off(LINK_CHANGED, listener);
    expect(events).toEqual([
      {
        linkId: id,
        domainId: 0,
        alias: 'update-me',
        previous: { domainId: 0, alias: 'update-me' },
      },
      {
        linkId: id,
        domainId: 0,
        alias: 'moved-here',
        previous: { domainId: 0, alias: 'update-me' },
      },
    ]);
  });

  it("answers 404 for another user's link on every route, and 401 without a key", async () => {
    const id = await createId({ location_url: 'https://example.com/' });
    const notFound = {
      errors: [
        {
          status: 404,
          title: 'The link you are looking for does not exist.',
          code: 'link_not_found',
        },
      ],
    };
    const read = await get(id, stranger);
    expect([read.status, read.body]).toEqual([404, notFound]);
    const update = await t.http
      .post(`/v1/links/${id}`)
      .set('Authorization', stranger.auth)
      .send({ is_enabled: 0 });
    expect([update.status, update.body]).toEqual([404, notFound]);
    const del = await t.http.delete(`/v1/links/${id}`).set('Authorization', stranger.auth);
    expect([del.status, del.body]).toEqual([404, notFound]);
    expect((await get(id)).body.data.is_enabled).toBe(true);
    const anonymous = await t.http.get('/v1/links');
    expect(anonymous.status).toBe(401);
  });

  it('deletes a link, after which it is a 404', async () => {
    const id = await createId({ location_url: 'https://example.com/' });
    const del = await t.http.delete(`/v1/links/${id}`).set('Authorization', owner.auth);
    expect([del.status, del.body]).toEqual([200, { data: { id } }]);
    expect((await get(id)).status).toBe(404);
  });

  it('lists with search, filters and order', async () => {
    const user = await t.createUser();
    const a = await createId({ location_url: 'https://alpha.example/', url: 'list-a' }, user);
    const b = await createId(
      { location_url: 'https://beta.example/', url: 'list-b', is_enabled: 0 },
      user,
    );
    await createId({ type: 'walink', phone_number: '15550001111', url: 'list-c' }, user);

    const search = await t.http
      .get('/v1/links?search=beta&search_by=location_url')
      .set('Authorization', user.auth);
    expect(search.body.data.map((l: { id: number }) => l.id)).toEqual([b]);
    const enabled = await t.http
      .get('/v1/links?is_enabled=1&type=link')
      .set('Authorization', user.auth);
    expect(enabled.body.data.map((l: { id: number }) => l.id)).toEqual([a]);
    const ordered = await t.http
      .get('/v1/links?order_by=url&order_type=DESC')
      .set('Authorization', user.auth);
    expect(ordered.body.data.map((l: { url: string }) => l.url)).toEqual([
      'list-c',
      'list-b',
      'list-a',
    ]);
    expect(ordered.body.meta).toEqual({
      page: 1,
      results_per_page: 25,
      total: 3,
      total_results: 3,
      total_pages: 1,
    });
    const bad = await t.http.get('/v1/links?order_by=name').set('Authorization', user.auth);
    expect(bad.status).toBe(400);
    expect(bad.body.errors[0]).toMatchObject({ field: 'order_by' });
  });

  it('keeps the link when its project is deleted, with project_id null', async () => {
    const project = await projectId(owner, 'Temporary');
    const id = await createId({
      location_url: 'https://example.com/',
      project_id: project,
    });
    await t.http.delete(`/v1/projects/${project}`).set('Authorization', owner.auth);
    const got = await get(id);
    expect(got.status).toBe(200);
    expect(got.body.data.project_id).toBeNull();
  });
});

describe('Links API on a loopback APP_URL', () => {
  let t: TestApp;
  let user: TestUser;

  beforeAll(async () => {
    t = await createTestApp({ env: { APP_URL: 'http://127.0.0.1:3000' } });
    user = await t.createUser();
  });
  afterAll(() => t?.close());

  function create(fields: Record<string, unknown>) {
    return t.http.post('/v1/links').set('Authorization', user.auth).send(fields);
  }

  function loop(field: string, host: string) {
    return {
      errors: [
        {
          status: 400,
          title: `${field} must not point back at this link service (${host}).`,
          field,
          code: 'validation_failed',
        },
      ],
    };
  }

  it.each([
    ['http://127.0.0.1:3000/x', '127.0.0.1'],
    ['http://[::ffff:127.0.0.1]:3000/x', '[::ffff:7f00:1]'],
    ['http://localhost:3000/x', 'localhost'],
    ['http://LocalHost.:3000/x', 'localhost'],
    ['http://app.localhost:3000/x', 'app.localhost'],
    ['http://127.0.0.2:3000/x', '127.0.0.2'],
    ['http://2130706433:3000/x', '127.0.0.1'],
    ['http://0x7f.1:3000/x', '127.0.0.1'],
    ['http://[::1]:3000/x', '[::1]'],
    ['http://0.0.0.0:3000/x', '0.0.0.0'],
  ])('refuses the destination %s, which is the service itself', async (url, host) => {
    const res = await create({ location_url: url });
    expect(res.status).toBe(400);
    expect(res.body).toEqual(loop('location_url', host));
  });

  it('refuses loopback spellings as expiration_url and as targeting destinations', async () => {
    const res = await create({
      location_url: 'https://example.com/',
      expiration_url: 'http://[::ffff:127.0.0.1]:3000/expired',
      targeting_type: 'country_code',
      targeting_country_code_key: ['us', 'de'],
      targeting_country_code_value: ['https://example.com/us', 'http://localhost:3000/de'],
    });
    expect(res.status).toBe(400);
    expect(res.body).toEqual({
      errors: [
        loop('expiration_url', '[::ffff:7f00:1]').errors[0],
        loop('targeting_country_code_value', 'localhost').errors[0],
      ],
    });
  });

  it('refuses a loopback spelling on update too', async () => {
    const created = await create({ location_url: 'https://example.com/' });
    expect(created.status).toBe(201);
    const res = await t.http
      .post(`/v1/links/${created.body.data.id}`)
      .set('Authorization', user.auth)
      .send({ location_url: 'http://localhost:3000/x' });
    expect(res.status).toBe(400);
    expect(res.body).toEqual(loop('location_url', 'localhost'));
  });

  it('accepts a destination on another host, or on another port of the local machine', async () => {
    for (const location_url of ['http://127.0.0.1.example.com:3000/x', 'http://localhost:8080/x']) {
      const res = await create({ location_url });
      expect(res.status).toBe(201);
    }
  });
});
