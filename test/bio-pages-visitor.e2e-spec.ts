import { createHmac } from 'node:crypto';
import { VisitRecorder } from '@app/analytics';
import { DataRepository, OutboxEventEntity } from '@app/database';
import { createTestApp, TestApp, TestUser } from '@app/testing';
import { VISITOR_SECRET } from '../apps/api/src/visitor/visitor-secret';

const CHROME =
  'Mozilla/5.0 (X11; Linux x86_64) AppleWebKit/537.36 (KHTML, like Gecko) Chrome/130.0 Safari/537.36';
const DATETIME = /^\d{4}-\d{2}-\d{2} \d{2}:\d{2}:\d{2}$/;

/** The visitor side of bio pages: the page, link-block clicks, the collector forms. */
describe('Bio pages for visitors', () => {
  let t: TestApp;
  let owner: TestUser;
  let hook: number;

  beforeAll(async () => {
    t = await createTestApp();
    owner = await t.createUser();
    const h = await t.http
      .post('/v1/notification-handlers')
      .set('Authorization', owner.auth)
      .send({ name: 'Hook', type: 'webhook', webhook: 'http://127.0.0.1:9/hook' });
    hook = h.body.data.id;
  });
  afterAll(() => t?.close());

  async function page(alias: string, fields: Record<string, unknown> = {}): Promise<number> {
    const res = await t.http
      .post('/v1/links')
      .set('Authorization', owner.auth)
      .send({ type: 'biolink', url: alias, ...fields });
    expect(res.status).toBe(201);
    return res.body.data.id as number;
  }

  async function block(fields: Record<string, unknown>): Promise<number> {
    const res = await t.http
      .post('/v1/biolink-blocks')
      .set('Authorization', owner.auth)
      .send(fields);
    expect(res.status).toBe(201);
    return res.body.data.id as number;
  }

  const view = (path: string) => t.http.get(path).set('User-Agent', CHROME).redirects(0);

  /** The form token of a block, as the page carries it. */
  async function tokenOf(alias: string, blockId: number): Promise<string> {
    const res = await view(`/${alias}`);
    const form = res.text.slice(res.text.indexOf(`id="b${blockId}"`));
    const match = /name="token" value="([^"]+)"/.exec(form);
    expect(match).not.toBeNull();
    return match![1];
  }

  function send(alias: string, blockId: number, fields: Record<string, string>) {
    return t.http
      .post(`/${alias}/b/${blockId}`)
      .set('User-Agent', CHROME)
      .type('form')
      .send(fields)
      .redirects(0);
  }

  async function dataOf(blockId: number) {
    const res = await t.http
      .get(`/v1/data?biolink_block_id=${blockId}&order_by=datum_id&order_type=ASC`)
      .set('Authorization', owner.auth);
    return res.body.data as Array<Record<string, unknown>>;
  }

  it('renders the page with escaped text, the visitor headers, and counts the view', async () => {
    const id = await page('bio-main', {
      title: '<script>alert(1)</script>',
      description: 'Tom & "Jerry"',
      seo_description: '"><img src=x onerror=alert(1)>',
      background_color_two: '#d4d4d8',
    });
    await block({ link_id: id, type: 'heading', text: '<b>bold?</b>' });
    await block({
      link_id: id,
      type: 'link',
      name: "It's <i>mine</i>",
      location_url: 'https://shop.example.com/a?b=1&c=2',
    });
    await block({ link_id: id, type: 'paragraph', text: 'Invisible paragraph', is_enabled: 0 });
    const res = await view('/bio-main');
    expect(res.status).toBe(200);
    expect(res.headers['content-type']).toBe('text/html; charset=utf-8');
    expect(res.headers['content-security-policy']).toBe(
      `default-src 'none'; style-src 'unsafe-inline'; img-src 'self' ${new URL(t.config.appUrl).origin}; form-action 'self' http: https:; base-uri 'none'; frame-ancestors 'none'`,
    );
    expect(res.headers['x-content-type-options']).toBe('nosniff');
    expect(res.headers['x-robots-tag']).toBeUndefined();
    expect(res.text).toContain('<h1>&lt;script&gt;alert(1)&lt;/script&gt;</h1>');
    expect(res.text).toContain('<p>Tom &amp; &quot;Jerry&quot;</p>');
    expect(res.text).toContain(
      '<meta name="description" content="&quot;&gt;&lt;img src=x onerror=alert(1)&gt;">',
    );
    expect(res.text).toContain('<h2>&lt;b&gt;bold?&lt;/b&gt;</h2>');
    expect(res.text).toContain('It&#39;s &lt;i&gt;mine&lt;/i&gt;');
    expect(res.text).not.toContain('Invisible paragraph');
    expect(res.text).not.toContain('<script');
    await t.app.get(VisitRecorder).flush();
    const got = await t.http.get(`/v1/links/${id}`).set('Authorization', owner.auth);
    expect(got.body.data.clicks).toBe(1);
  });

  it('shows an edit at once and follows a link block with a counted 302', async () => {
    const id = await page('bio-edit');
    const b = await block({
      link_id: id,
      type: 'link',
      name: 'Shop',
      location_url: 'https://shop.example.com/',
    });
    expect((await view('/bio-edit')).text).toContain('>Shop</a>');
    await t.http
      .post(`/v1/biolink-blocks/${b}`)
      .set('Authorization', owner.auth)
      .send({ name: 'Store' })
      .expect(200);
    const page2 = await view('/bio-edit');
    expect(page2.text).toContain(
      `<a class="button" href="/bio-edit/b/${b}" rel="noopener">Store</a>`,
    );
    const click = await view(`/bio-edit/b/${b}`);
    expect(click.status).toBe(302);
    expect(click.headers.location).toBe('https://shop.example.com/');
    await view(`/bio-edit/b/${b}`);
    const got = await t.http.get(`/v1/biolink-blocks/${b}`).set('Authorization', owner.auth);
    expect(got.body.data.clicks).toBe(2);
    expect((await view(`/bio-edit/b/999999`)).status).toBe(404);
    expect((await view(`/bio-edit/other`)).status).toBe(404);
  });

  // CONTRACT.md: a path id is `^[1-9][0-9]*$` below 2^53; anything else is 404.
  it.each(['0{id}', '%2B{id}', '{id}e0', '{id}.0', '%20{id}', '{id}%20', '0', '-1'])(
    'answers /{alias}/b/%s with 404, counting and storing nothing',
    async (form) => {
      const alias = `bio-ids-${form.replace(/\W/g, '')}`;
      const id = await page(alias);
      const shop = await block({
        link_id: id,
        type: 'link',
        name: 'Shop',
        location_url: 'https://shop.example.com/',
      });
      const mail = await block({ link_id: id, type: 'email_collector' });
      const token = await tokenOf(alias, mail);

      const click = await view(`/${alias}/b/${form.replace('{id}', String(shop))}`);
      expect(click.status).toBe(404);
      const post = await t.http
        .post(`/${alias}/b/${form.replace('{id}', String(mail))}`)
        .set('User-Agent', CHROME)
        .type('form')
        .send({ token, email: 'ada@example.com', website: '' })
        .redirects(0);
      expect(post.status).toBe(404);

      await t.app.get(VisitRecorder).flush();
      const got = await t.http.get(`/v1/biolink-blocks/${shop}`).set('Authorization', owner.auth);
      expect(got.body.data.clicks).toBe(0);
      expect(await dataOf(mail)).toEqual([]);
    },
  );

  it('email collector: stores the record and raises data.created in one go, IP not stored', async () => {
    const id = await page('bio-mail');
    const b = await block({
      link_id: id,
      type: 'email_collector',
      notification_handlers_ids: [hook],
      thank_you_message: 'Merci <3',
    });
    const token = await tokenOf('bio-mail', b);
    const res = await send('bio-mail', b, {
      token,
      name: ' Ada ',
      email: 'ada@example.com',
      website: '',
    });
    expect(res.status).toBe(200);
    expect(res.text).toContain(
      '<div class="thanks" id="b' + b + '" role="status"><p>Merci &lt;3</p></div>',
    );
    const records = await dataOf(b);
    expect(records).toEqual([
      {
        id: expect.any(Number),
        biolink_block_id: b,
        link_id: id,
        project_id: null,
        type: 'email_collector',
        data: { email: 'ada@example.com', name: 'Ada' },
        datetime: expect.stringMatching(DATETIME),
      },
    ]);
    const events = await t.dataSource.getRepository(OutboxEventEntity).find({
      where: { event: 'data.created', owner_id: owner.id },
    });
    const mine = events.filter((e) => (JSON.parse(e.data) as { id: number }).id === records[0].id);
    expect(mine).toHaveLength(1);
    expect(JSON.parse(mine[0].data)).toEqual(records[0]);
    expect(JSON.parse(mine[0].handler_ids as string)).toEqual([hook]);
    const row = await t.dataSource.query(`SELECT * FROM data WHERE id = ${Number(records[0].id)}`);
    expect(JSON.stringify(row)).not.toMatch(/127\.0\.0\.1|::1|::ffff/);
  });

  it('re-renders with field errors and the typed values; bad tokens and honeypots store nothing', async () => {
    const id = await page('bio-errors');
    const b = await block({
      link_id: id,
      type: 'contact_collector',
      agreement_text: 'I agree to be contacted',
      agreement_url: 'https://example.com/terms',
    });
    const token = await tokenOf('bio-errors', b);
    const res = await send('bio-errors', b, {
      token,
      name: '<b>Eve</b>',
      email: 'not-an-email',
      phone: '12',
      message: '',
    });
    expect(res.status).toBe(400);
    expect(res.text).toContain(`value="&lt;b&gt;Eve&lt;/b&gt;"`);
    expect(res.text).toContain(`value="not-an-email"`);
    expect(res.text).toContain(
      `<p class="error" id="b${b}-email-error">Enter an email address like name@example.com.</p>`,
    );
    expect(res.text).toContain(
      `<p class="error" id="b${b}-phone-error">Enter a phone number with its country code, like +44 20 7946 0958.</p>`,
    );
    expect(res.text).toContain(`<p class="error" id="b${b}-message-error">Enter your message.</p>`);
    expect(res.text).toContain(
      `<p class="error" id="b${b}-agreement-error">Tick the box to agree before sending.</p>`,
    );

    const forged = await send('bio-errors', b, {
      token: `${Math.floor(Date.now() / 1000) + 600}.AAAA`,
      name: 'Eve',
      email: 'eve@example.com',
      message: 'hi',
      agreement: '1',
    });
    expect(forged.status).toBe(400);
    expect(forged.text).toContain('This form has expired.');
    const otherBlock = await block({ link_id: id, type: 'email_collector' });
    const wrongBlock = await send('bio-errors', otherBlock, { token, email: 'eve@example.com' });
    expect(wrongBlock.status).toBe(400);

    const bot = await send('bio-errors', b, {
      token,
      name: 'Bot',
      email: 'bot@example.com',
      message: 'spam',
      agreement: '1',
      website: 'http://spam.example',
    });
    expect(bot.status).toBe(200);
    expect(await dataOf(b)).toEqual([]);

    const ok = await send('bio-errors', b, {
      token,
      name: 'Eve',
      email: 'eve@example.com',
      phone: '+44 20 7946 0958',
      message: 'Line 1\r\nLine 2',
      agreement: '1',
    });
    expect(ok.status).toBe(200);
    expect((await dataOf(b)).map((d) => d.data)).toEqual([
      {
        phone: '+442079460958',
        email: 'eve@example.com',
        message: 'Line 1\r\nLine 2',
        name: 'Eve',
      },
    ]);
  });

  it('refuses a correctly signed token that has expired', async () => {
    const id = await page('bio-expired');
    const b = await block({ link_id: id, type: 'email_collector' });
    const secret = t.app.get<Buffer>(VISITOR_SECRET);
    const exp = Math.floor(Date.now() / 1000) - 1;
    const sig = createHmac('sha256', secret)
      .update(`bio-form|${id}|${b}|${exp}`)
      .digest('base64url');
    const res = await send('bio-expired', b, { token: `${exp}.${sig}`, email: 'a@example.com' });
    expect(res.status).toBe(400);
    expect(res.text).toContain('This form has expired.');
    expect(res.text).toContain('value="a@example.com"');
    expect(await dataOf(b)).toEqual([]);
    // The same signature scheme with an expiry ahead is accepted: the refusal was the expiry.
    const later = Math.floor(Date.now() / 1000) + 600;
    const ok = createHmac('sha256', secret)
      .update(`bio-form|${id}|${b}|${later}`)
      .digest('base64url');
    const good = await send('bio-expired', b, { token: `${later}.${ok}`, email: 'a@example.com' });
    expect(good.status).toBe(200);
  });

  it('shows the splash page first (not counted), then the page', async () => {
    const splash = await t.http
      .post('/v1/splash-pages')
      .set('Authorization', owner.auth)
      .send({ name: 'Welcome', title: 'Welcome splash' });
    expect(splash.status).toBe(201);
    const id = await page('bio-splash', { splash_page_id: splash.body.data.id });
    await block({ link_id: id, type: 'heading', text: 'Behind the splash' });
    const first = await view('/bio-splash');
    expect(first.status).toBe(200);
    expect(first.text).toContain('Welcome splash');
    expect(first.text).not.toContain('Behind the splash');
    const cookie = String(first.headers['set-cookie']).split(';')[0];
    expect(cookie).toBe(`ld_sp_${id}=1`);
    const second = await view('/bio-splash').set('Cookie', cookie);
    expect(second.text).toContain('<h2>Behind the splash</h2>');
    await t.app.get(VisitRecorder).flush();
    const got = await t.http.get(`/v1/links/${id}`).set('Authorization', owner.auth);
    expect(got.body.data.clicks).toBe(1);
  });

  it('phone collector: E.164, and 303 to thank_you_url', async () => {
    const id = await page('bio-phone');
    const b = await block({
      link_id: id,
      type: 'phone_collector',
      thank_you_url: 'https://example.com/thanks',
    });
    const res = await send('bio-phone', b, {
      token: await tokenOf('bio-phone', b),
      phone: '+1 (201) 555-0123',
    });
    expect(res.status).toBe(303);
    expect(res.headers.location).toBe('https://example.com/thanks');
    expect((await dataOf(b)).map((d) => d.data)).toEqual([{ phone: '+12015550123', name: null }]);
  });

  it('refuses a NUL character in any field with a 400 page naming the field; nothing is stored', async () => {
    const id = await page('bio-nul');
    const b = await block({ link_id: id, type: 'contact_collector' });
    const token = await tokenOf('bio-nul', b);
    const res = await send('bio-nul', b, {
      token,
      name: 'Eve\u0000',
      email: 'eve@example.com',
      phone: '+44 20 7946 0958\u0000',
      message: 'hi\u0000there',
    });
    expect(res.status).toBe(400);
    expect(res.headers['content-type']).toBe('text/html; charset=utf-8');
    for (const [field, label] of [
      ['name', 'Name'],
      ['phone', 'Phone'],
      ['message', 'Message'],
    ]) {
      expect(res.text).toContain(
        `<p class="error" id="b${b}-${field}-error">${label} must not contain a NUL character.</p>`,
      );
    }
    expect(res.text).not.toContain(`id="b${b}-email-error"`);
    expect(res.text).not.toContain('\u0000');
    expect(await dataOf(b)).toEqual([]);
  });

  it('limits posts per visitor and form with a 429 page', async () => {
    const id = await page('bio-limit');
    const b = await block({ link_id: id, type: 'email_collector' });
    const token = await tokenOf('bio-limit', b);
    const statuses: number[] = [];
    for (let i = 0; i < 11; i += 1) {
      statuses.push((await send('bio-limit', b, { token, email: 'bad' })).status);
    }
    expect(statuses).toEqual([...Array(10).fill(400), 429]);
  });

  it('appointment calendar: books a free slot once; a racer for the same slot gets "taken"', async () => {
    const id = await page('bio-cal');
    const b = await block({
      link_id: id,
      type: 'appointment_calendar',
      timezone: 'America/New_York',
      days: ['mon', 'tue', 'wed', 'thu', 'fri', 'sat', 'sun'],
      start_time: '00:00',
      end_time: '23:00',
      duration_value: 1,
      duration_type: 'hours',
      max_days_ahead: 3,
      min_notice_minutes: 120,
    });
    const html = (await view('/bio-cal')).text;
    expect(html).toContain('Times are in America/New_York.');
    const slots = [...html.matchAll(/name="slot" value="(\d+)"/g)].map((m) => Number(m[1]));
    expect(slots.length).toBeGreaterThan(20);
    expect(slots[0]).toBeGreaterThanOrEqual(Date.now() + 120 * 60_000 - 1000);
    const token = await tokenOf('bio-cal', b);
    const fields = (name: string) => ({
      token,
      slot: String(slots[0]),
      name,
      email: `${name.toLowerCase()}@example.com`,
    });
    const [first, second] = await Promise.all([
      send('bio-cal', b, fields('Ann')),
      send('bio-cal', b, fields('Bob')),
    ]);
    expect([first.status, second.status].sort()).toEqual([200, 409]);
    const loser = first.status === 409 ? first : second;
    expect(loser.text).toContain('Someone has just booked that time. Please choose another.');
    const records = await dataOf(b);
    expect(records).toHaveLength(1);
    const start = new Date(slots[0]).toISOString();
    const end = new Date(slots[0] + 3600_000).toISOString();
    expect(records[0].data).toEqual({
      date: start.slice(0, 10),
      start_time: start.slice(11, 16),
      end_time: end.slice(11, 16),
      duration_value: 1,
      duration_type: 'hours',
      email: expect.stringMatching(/^(ann|bob)@example\.com$/),
      phone: null,
      name: expect.stringMatching(/^(Ann|Bob)$/),
      message: null,
    });
    const after = (await view('/bio-cal')).text;
    expect(after).not.toContain(`value="${slots[0]}"`);
    expect(after).toContain(`value="${slots[1]}"`);
    // The unique index itself: a second row for the same block and slot start is refused, and the
    // record (with its event) is not written.
    const repo = t.app.get(DataRepository);
    const values = {
      user_id: owner.id,
      biolink_block_id: b,
      link_id: id,
      project_id: null,
      type: 'appointment_calendar',
      data: '{}',
      email: null,
      name: null,
      phone: null,
      slot_start: new Date(slots[1]),
      datetime: new Date(),
    };
    const eventsBefore = await t.dataSource.getRepository(OutboxEventEntity).count();
    const [x, y] = await Promise.all([
      repo.record(values, [], new Date()),
      repo.record(values, [], new Date()),
    ]);
    expect([x === null, y === null].sort()).toEqual([false, true]);
    expect(await t.dataSource.getRepository(OutboxEventEntity).count()).toBe(eventsBefore + 1);

    const missing = await send('bio-cal', b, { token, name: 'Cy', email: 'cy@example.com' });
    expect(missing.status).toBe(400);
    expect(missing.text).toContain('Choose a time.');
  });
});
