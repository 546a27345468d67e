import { existsSync, readdirSync } from 'node:fs';
import { join } from 'node:path';
import sharp from 'sharp';
import { PlansService } from '@app/billing';
import { createTestApp, TestApp, TestUser } from '@app/testing';

const DATETIME = /^\d{4}-\d{2}-\d{2} \d{2}:\d{2}:\d{2}$/;
const AVATAR_URL = /^http:\/\/links\.test\/uploads\/biolinks\/[0-9a-f]{40}\.png$/;

/** The settings a bio page starts with, beside the redirect settings every link has. */
const PAGE_DEFAULTS = {
  name: '',
  title: null,
  description: null,
  avatar: null,
  background_color: '#f4f4f5',
  background_color_two: null,
  text_color: '#18181b',
  button_color: '#18181b',
  button_text_color: '#ffffff',
  font: 'system',
  seo_title: null,
  seo_description: null,
  seo_noindex: false,
};

const COLLECTOR_DEFAULTS = {
  name: 'Send',
  title: null,
  description: null,
  name_placeholder: 'Your name',
  email_placeholder: 'Email address',
  phone_placeholder: 'Phone number',
  message_placeholder: 'Message',
  thank_you_message: 'Thank you!',
  thank_you_url: null,
  agreement_text: null,
  agreement_url: null,
  notification_handlers_ids: [],
};

describe('Bio pages and their blocks', () => {
  let t: TestApp;
  let owner: TestUser;
  let stranger: TestUser;
  let png: Buffer;

  beforeAll(async () => {
    t = await createTestApp({ env: { APP_URL: 'http://links.test' } });
    owner = await t.createUser();
    stranger = await t.createUser();
    png = await sharp({ create: { width: 900, height: 600, channels: 4, background: '#e63946' } })
      .png()
      .toBuffer();
  });
  afterAll(() => t?.close());

  const uploads = (): string => join(t.config.dataDir, 'uploads', 'biolinks');
  const files = (): string[] => (existsSync(uploads()) ? readdirSync(uploads()).sort() : []);

  async function page(user = owner, fields: Record<string, unknown> = {}): Promise<number> {
    const res = await t.http
      .post('/v1/links')
      .set('Authorization', user.auth)
      .send({ type: 'biolink', ...fields });
    expect(res.status).toBe(201);
    return res.body.data.id as number;
  }

  async function block(fields: Record<string, unknown>, user = owner): Promise<number> {
    const res = await t.http
      .post('/v1/biolink-blocks')
      .set('Authorization', user.auth)
      .send(fields);
    expect(res.body).toEqual({ data: { id: expect.any(Number) } });
    expect(res.status).toBe(201);
    return res.body.data.id as number;
  }

  async function handler(user = owner): Promise<number> {
    const res = await t.http
      .post('/v1/notification-handlers')
      .set('Authorization', user.auth)
      .send({ name: 'Hook', type: 'webhook', webhook: 'http://127.0.0.1:9/hook' });
    expect(res.status).toBe(201);
    return res.body.data.id as number;
  }

  describe('links of type biolink', () => {
    it('creates a page with defaults and reads back its settings', async () => {
      const id = await page(owner, { url: 'my-bio' });
      const res = await t.http.get(`/v1/links/${id}`).set('Authorization', owner.auth);
      expect(res.status).toBe(200);
      expect(res.body.data).toEqual({
        id,
        type: 'biolink',
        url: 'my-bio',
        location_url: null,
        full_url: 'http://links.test/my-bio',
        domain_id: 0,
        project_id: null,
        splash_page_id: null,
        settings: expect.objectContaining({ ...PAGE_DEFAULTS, password: false }),
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
      });
    });

    it('takes page settings and an avatar from multipart, updates them and removes the file', async () => {
      const before = files();
      const res = await t.http
        .post('/v1/links')
        .set('Authorization', owner.auth)
        .field({
          type: 'biolink',
          name: 'Ada',
          title: 'Ada Lovelace',
          description: 'Notes on the engine',
          background_color: '#112233',
          background_color_two: '#445566',
          text_color: '#FFFFFF',
          button_color: '#abcdef',
          button_text_color: '#000000',
          font: 'serif',
          seo_title: 'Ada',
          seo_description: 'The page of Ada',
          seo_noindex: '1',
        })
        .attach('avatar', png, 'me.png');
      expect(res.status).toBe(201);
      const id = res.body.data.id as number;
      const got = await t.http.get(`/v1/links/${id}`).set('Authorization', owner.auth);
      const settings = got.body.data.settings as Record<string, unknown>;
      expect(settings).toEqual(
        expect.objectContaining({
          name: 'Ada',
          title: 'Ada Lovelace',
          description: 'Notes on the engine',
          avatar: expect.stringMatching(AVATAR_URL),
          background_color: '#112233',
          background_color_two: '#445566',
          text_color: '#ffffff',
          button_color: '#abcdef',
          button_text_color: '#000000',
          font: 'serif',
          seo_title: 'Ada',
          seo_description: 'The page of Ada',
          seo_noindex: true,
        }),
      );
      const stored = join(uploads(), String(settings.avatar).split('/').pop() as string);
      const meta = await sharp(stored).metadata();
      expect([meta.format, meta.width, meta.height]).toEqual(['png', 512, 341]);
      expect(files()).toHaveLength(before.length + 1);

      const upd = await t.http
        .post(`/v1/links/${id}`)
        .set('Authorization', owner.auth)
        .send({ title: '', background_color_two: '', avatar_remove: 1 });
      expect(upd.body).toEqual({ data: { id } });
      const after = await t.http.get(`/v1/links/${id}`).set('Authorization', owner.auth);
      expect(after.body.data.settings).toEqual(
        expect.objectContaining({ title: null, background_color_two: null, avatar: null }),
      );
      expect(files()).toEqual(before);
    });

    it('refuses bad page settings with 400s that name the field', async () => {
      const res = await t.http
        .post('/v1/links')
        .set('Authorization', owner.auth)
        .send({
          type: 'biolink',
          background_color: 'red',
          font: 'comic',
          name: 'x'.repeat(129),
        });
      expect(res.status).toBe(400);
      expect(res.body.errors.map((e: { field: string }) => e.field).sort()).toEqual([
        'background_color',
        'font',
        'name',
      ]);
      const avatar = await t.http
        .post('/v1/links')
        .set('Authorization', owner.auth)
        .field({ location_url: 'https://example.com/' })
        .attach('avatar', png, 'me.png');
      expect(avatar.status).toBe(400);
      expect(avatar.body).toEqual({
        errors: [
          {
            status: 400,
            title: 'avatar is only for links of type biolink.',
            field: 'avatar',
            code: 'validation_failed',
          },
        ],
      });
      const notImage = await t.http
        .post('/v1/links')
        .set('Authorization', owner.auth)
        .field({ type: 'biolink' })
        .attach('avatar', Buffer.from('hello'), 'me.png');
      expect(notImage.status).toBe(400);
      expect(notImage.body.errors[0]).toEqual(
        expect.objectContaining({ field: 'avatar', code: 'validation_failed' }),
      );
    });
    it('refuses text colours visitors could not read (WCAG AA 4.5:1), naming both colours', async () => {
      const res = await t.http.post('/v1/links').set('Authorization', owner.auth).send({
        type: 'biolink',
        text_color: '#777777',
        background_color: '#ffffff',
        button_color: '#fbbf24',
        button_text_color: '#ffffff',
      });
      expect(res.status).toBe(400);
      expect(res.body).toEqual({
        errors: [
          {
            status: 400,
            code: 'validation_failed',
            field: 'text_color',
            title:
              'text_color #777777 on background_color #ffffff has a contrast of 4.47:1; text on a bio page needs at least 4.5:1 (WCAG 2.1 AA).',
          },
          {
            status: 400,
            code: 'validation_failed',
            field: 'button_text_color',
            title:
              'button_text_color #ffffff on button_color #fbbf24 has a contrast of 1.66:1; text on a bio page needs at least 4.5:1 (WCAG 2.1 AA).',
          },
        ],
      });
      const created = await t.http
        .post('/v1/links')
        .set('Authorization', owner.auth)
        .send({ type: 'biolink', text_color: '#767676', background_color: '#ffffff' });
      expect(created.status).toBe(201);
      const update = await t.http
        .post(`/v1/links/${created.body.data.id as number}`)
        .set('Authorization', owner.auth)
        .send({ background_color_two: '#333333' });
      expect(update.status).toBe(400);
      expect(update.body.errors[0]).toEqual(
        expect.objectContaining({ field: 'background_color_two', code: 'validation_failed' }),
      );
    });

    it('refuses bio pages in bulk, naming the item', async () => {
      const res = await t.http
        .post('/v1/links/bulk')
        .set('Authorization', owner.auth)
        .send([{ location_url: 'https://example.com/' }, { type: 'biolink' }]);
      expect(res.status).toBe(400);
      expect(res.body.errors).toEqual([
        {
          status: 400,
          title:
            'Link [1]: Bio pages cannot be created in bulk: create each with POST /v1/links and its blocks with /v1/biolink-blocks.',
          field: '[1].type',
          code: 'validation_failed',
        },
      ]);
    });
  });

  describe('/v1/biolink-blocks', () => {
    it('creates each type and reads back the whole block', async () => {
      const link = await page();
      const hook = await handler();
      const a = await block({
        link_id: link,
        type: 'link',
        name: 'My shop',
        location_url: 'https://shop.example.com',
      });
      const got = await t.http.get(`/v1/biolink-blocks/${a}`).set('Authorization', owner.auth);
      expect(got.status).toBe(200);
      expect(got.body).toEqual({
        data: {
          id: a,
          link_id: link,
          type: 'link',
          order: 0,
          is_enabled: true,
          settings: { name: 'My shop', location_url: 'https://shop.example.com/' },
          clicks: 0,
          last_datetime: null,
          datetime: expect.stringMatching(DATETIME),
        },
      });

      // A form body, with the handler list as name[]=v.
      const form = await t.http
        .post('/v1/biolink-blocks')
        .set('Authorization', owner.auth)
        .type('form')
        .send(
          `link_id=${link}&type=email_collector&title=News&notification_handlers_ids[]=${hook}&agreement_text=I+agree&is_enabled=0`,
        );
      expect(form.status).toBe(201);
      const b = form.body.data.id as number;
      const gotB = await t.http.get(`/v1/biolink-blocks/${b}`).set('Authorization', owner.auth);
      expect(gotB.body.data).toEqual({
        id: b,
        link_id: link,
        type: 'email_collector',
        order: 1,
        is_enabled: false,
        settings: {
          ...COLLECTOR_DEFAULTS,
          title: 'News',
          agreement_text: 'I agree',
          notification_handlers_ids: [hook],
        },
        clicks: 0,
        last_datetime: null,
        datetime: expect.stringMatching(DATETIME),
      });

      const c = await block({
        link_id: link,
        type: 'appointment_calendar',
        timezone: 'Europe/Paris',
        days: ['mon', 'WED'],
        start_time: '10:00',
        end_time: '12:00',
        duration_value: '1',
        duration_type: 'hours',
        max_days_ahead: '7',
        min_notice_minutes: '0',
        order: 10,
      });
      const gotC = await t.http.get(`/v1/biolink-blocks/${c}`).set('Authorization', owner.auth);
      expect(gotC.body.data.settings).toEqual({
        ...COLLECTOR_DEFAULTS,
        timezone: 'Europe/Paris',
        days: ['mon', 'wed'],
        start_time: '10:00',
        end_time: '12:00',
        duration_value: 1,
        duration_type: 'hours',
        max_days_ahead: 7,
        min_notice_minutes: 0,
      });
      expect(gotC.body.data.order).toBe(10);

      const socials = await block({ link_id: link, type: 'socials', github: '@octocat' });
      const gotS = await t.http
        .get(`/v1/biolink-blocks/${socials}`)
        .set('Authorization', owner.auth);
      expect(gotS.body.data.settings).toEqual({
        facebook: null,
        twitter: null,
        instagram: null,
        youtube: null,
        tiktok: null,
        spotify: null,
        pinterest: null,
        linkedin: null,
        snapchat: null,
        twitch: null,
        discord: null,
        github: 'octocat',
        reddit: null,
      });

      const image = await t.http
        .post('/v1/biolink-blocks')
        .set('Authorization', owner.auth)
        .field({ link_id: String(link), type: 'image', image_alt: 'A red square' })
        .attach('image', png, 'red.png');
      expect(image.status).toBe(201);
      const gotI = await t.http
        .get(`/v1/biolink-blocks/${image.body.data.id}`)
        .set('Authorization', owner.auth);
      expect(gotI.body.data.settings).toEqual({
        image_alt: 'A red square',
        location_url: null,
        image: expect.stringMatching(AVATAR_URL),
      });
    });

    it('keeps no stored image when the plan refuses the block', async () => {
      const user = await t.createUser();
      const link = await page(user);
      const plans = t.app.get(PlansService);
      const plan = await plans.create({
        name: `No blocks for ${user.email}`,
        settings: { biolink_blocks_limit: 0 },
      });
      await plans.setUserPlan(user.id, plan.id, null);
      const before = files();
      const res = await t.http
        .post('/v1/biolink-blocks')
        .set('Authorization', user.auth)
        .field({ link_id: String(link), type: 'image', image_alt: 'Refused' })
        .attach('image', png, 'red.png');
      expect(res.status).toBe(403);
      expect(res.body).toEqual({
        errors: [
          {
            status: 403,
            title: 'Your plan allows 0 bio page blocks; you have 0.',
            code: 'plan_limit_reached',
          },
        ],
      });
      expect(files()).toEqual(before);
    });

    it('updates partially, lists with filters and order, deletes', async () => {
      const link = await page();
      const other = await page();
      const h = await block({ link_id: link, type: 'heading', text: 'Hello' });
      const p = await block({ link_id: link, type: 'paragraph', text: 'World', order: 0 });
      await block({ link_id: other, type: 'heading', text: 'Elsewhere' });

      const upd = await t.http
        .post(`/v1/biolink-blocks/${h}`)
        .set('Authorization', owner.auth)
        .send({ heading_type: 'h1', order: 5, is_enabled: 0, link_id: other, type: 'paragraph' });
      expect(upd.body).toEqual({ data: { id: h } });
      const got = await t.http.get(`/v1/biolink-blocks/${h}`).set('Authorization', owner.auth);
      expect(got.body.data).toEqual(
        expect.objectContaining({
          link_id: link,
          type: 'heading',
          order: 5,
          is_enabled: false,
          settings: { text: 'Hello', heading_type: 'h1' },
          last_datetime: expect.stringMatching(DATETIME),
        }),
      );

      const list = await t.http
        .get(`/v1/biolink-blocks?link_id=${link}&order_by=order&order_type=ASC`)
        .set('Authorization', owner.auth);
      expect(list.status).toBe(200);
      expect(list.body.data.map((b: { id: number }) => b.id)).toEqual([p, h]);
      expect(list.body.meta).toEqual({
        page: 1,
        results_per_page: 25,
        total: 2,
        total_results: 2,
        total_pages: 1,
      });
      const enabled = await t.http
        .get(`/v1/biolink-blocks?link_id=${link}&is_enabled=1&type=paragraph`)
        .set('Authorization', owner.auth);
      expect(enabled.body.data.map((b: { id: number }) => b.id)).toEqual([p]);
      const bad = await t.http
        .get('/v1/biolink-blocks?order_by=name')
        .set('Authorization', owner.auth);
      expect(bad.status).toBe(400);
      expect(bad.body.errors[0].field).toBe('order_by');

      const del = await t.http.delete(`/v1/biolink-blocks/${h}`).set('Authorization', owner.auth);
      expect(del.body).toEqual({ data: { id: h } });
      const gone = await t.http.get(`/v1/biolink-blocks/${h}`).set('Authorization', owner.auth);
      expect(gone.status).toBe(404);
    });

    it('refuses bad blocks with 400s naming each field', async () => {
      const link = await page();
      const plain = await t.http
        .post('/v1/links')
        .set('Authorization', owner.auth)
        .send({ location_url: 'https://example.com/' });
      const theirs = await page(stranger);
      const theirHook = await handler(stranger);
      const cases: Array<[Record<string, unknown>, string[]]> = [
        [{ type: 'link' }, ['link_id']],
        [{ link_id: link }, ['type']],
        [{ link_id: link, type: 'carousel' }, ['type']],
        [{ link_id: link, type: 'link' }, ['name', 'location_url']],
        [{ link_id: link, type: 'link', name: 'x', location_url: 'ftp://x' }, ['location_url']],
        [{ link_id: plain.body.data.id, type: 'heading', text: 'x' }, ['link_id']],
        [{ link_id: theirs, type: 'heading', text: 'x' }, ['link_id']],
        [{ link_id: link, type: 'heading', text: 'x', heading_type: 'h9' }, ['heading_type']],
        [{ link_id: link, type: 'paragraph', text: 'x'.repeat(4097) }, ['text']],
        [{ link_id: link, type: 'image' }, ['image']],
        [{ link_id: link, type: 'socials', github: 'no spaces' }, ['github']],
        [
          { link_id: link, type: 'email_collector', notification_handlers_ids: [theirHook] },
          ['notification_handlers_ids'],
        ],
        [
          { link_id: link, type: 'phone_collector', thank_you_url: 'javascript:alert(1)' },
          ['thank_you_url'],
        ],
        [
          {
            link_id: link,
            type: 'appointment_calendar',
            timezone: 'Mars/Olympus',
            days: ['someday'],
            start_time: '25:00',
            duration_type: 'weeks',
            duration_value: 0,
            max_days_ahead: 400,
          },
          ['timezone', 'days', 'start_time', 'duration_value', 'duration_type', 'max_days_ahead'],
        ],
        [
          { link_id: link, type: 'appointment_calendar', start_time: '12:00', end_time: '09:00' },
          ['end_time'],
        ],
      ];
      for (const [body, fields] of cases) {
        const res = await t.http
          .post('/v1/biolink-blocks')
          .set('Authorization', owner.auth)
          .send(body);
        expect([res.status, res.body.errors.map((e: { field: string }) => e.field)]).toEqual([
          400,
          fields,
        ]);
        for (const error of res.body.errors) {
          expect(error).toEqual({
            status: 400,
            title: expect.any(String),
            field: expect.any(String),
            code: 'validation_failed',
          });
        }
      }
    });

    it('refuses a block destination with a user name or password (a disguised host)', async () => {
      const link = await page();
      const title = (field: string) =>
        `${field} must not carry a user name or password (user:password@ before the host), which browsers show like part of the address.`;
      const cases: Array<[Record<string, unknown>, string]> = [
        [
          { type: 'link', name: 'Pay', location_url: 'https://paypal.com@evil.example/' },
          'location_url',
        ],
        [
          { type: 'link', name: 'Login', location_url: 'https://user:pass@host.example/' },
          'location_url',
        ],
        [
          { type: 'phone_collector', thank_you_url: 'https://paypal.com@evil.example/' },
          'thank_you_url',
        ],
      ];
      for (const [fields, field] of cases) {
        const res = await t.http
          .post('/v1/biolink-blocks')
          .set('Authorization', owner.auth)
          .send({ link_id: link, ...fields });
        expect([res.status, res.body]).toEqual([
          400,
          { errors: [{ status: 400, title: title(field), field, code: 'validation_failed' }] },
        ]);
      }
      const list = await t.http
        .get(`/v1/biolink-blocks?link_id=${link}`)
        .set('Authorization', owner.auth);
      expect(list.body.data).toEqual([]);
    });

    it("another user's blocks are 404 to read, update and delete, and absent from lists", async () => {
      const link = await page(stranger);
      const theirs = await block({ link_id: link, type: 'heading', text: 'Mine' }, stranger);
      for (const res of [
        await t.http.get(`/v1/biolink-blocks/${theirs}`).set('Authorization', owner.auth),
        await t.http
          .post(`/v1/biolink-blocks/${theirs}`)
          .set('Authorization', owner.auth)
          .send({ text: 'x' }),
        await t.http.delete(`/v1/biolink-blocks/${theirs}`).set('Authorization', owner.auth),
      ]) {
        expect(res.status).toBe(404);
        expect(res.body).toEqual({
          errors: [
            {
              status: 404,
              title: expect.any(String),
              code: 'biolink_block_not_found',
            },
          ],
        });
      }
      const list = await t.http
        .get(`/v1/biolink-blocks?link_id=${link}`)
        .set('Authorization', owner.auth);
      expect(list.body.data).toEqual([]);
    });

    it('deleting the page deletes its blocks', async () => {
      const link = await page();
      const b = await block({ link_id: link, type: 'heading', text: 'x' });
      await t.http.delete(`/v1/links/${link}`).set('Authorization', owner.auth).expect(200);
      const res = await t.http.get(`/v1/biolink-blocks/${b}`).set('Authorization', owner.auth);
      expect(res.status).toBe(404);
    });
  });
});
