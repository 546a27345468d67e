import { existsSync, readdirSync } from 'node:fs';
import { join } from 'node:path';
import sharp from 'sharp';
import type { Response } from 'superagent';
import { createTestApp, expectDocumented, TestApp, TestUser } from '@app/testing';

/** Reads any body as text (supertest leaves image/svg+xml unparsed). */
function text(res: Response, done: (err: Error | null, body: string) => void): void {
  let body = '';
  res.setEncoding('utf8');
  res.on('data', (chunk: string) => (body += chunk));
  res.on('end', () => done(null, body));
}

const DATETIME = /^\d{4}-\d{2}-\d{2} \d{2}:\d{2}:\d{2}$/;
const SVG_URL = /^http:\/\/links\.test\/uploads\/qr-codes\/[0-9a-f]{40}\.svg$/;
const PNG_URL = /^http:\/\/links\.test\/uploads\/qr-codes\/[0-9a-f]{40}\.png$/;

const DEFAULT_SETTINGS = {
  style: 'square',
  inner_eye_style: 'square',
  outer_eye_style: 'square',
  foreground_type: 'color',
  foreground_color: '#000000',
  foreground_gradient_style: 'horizontal',
  foreground_gradient_one: '#000000',
  foreground_gradient_two: '#000000',
  background_color: '#ffffff',
  background_color_transparency: 0,
  custom_eyes_color: false,
  eyes_inner_color: '#000000',
  eyes_outer_color: '#000000',
  qr_code_logo_size: 25,
  qr_code_background_transparency: 0,
  qr_code_foreground_transparency: 0,
  frame: null,
  frame_text: '',
  frame_text_size: 0,
  frame_text_font: 'sora',
  frame_custom_colors: false,
  frame_color: '#000000',
  frame_text_color: '#ffffff',
  size: 500,
  margin: 1,
  ecc: 'M',
};

describe('QR codes', () => {
  let t: TestApp;
  let owner: TestUser;
  let stranger: TestUser;
  let logoPng: Buffer;

  beforeAll(async () => {
    t = await createTestApp();
    owner = await t.createUser();
    stranger = await t.createUser();
    logoPng = await sharp({
      create: { width: 64, height: 64, channels: 4, background: '#e63946' },
    })
      .png()
      .toBuffer();
  });
  afterAll(() => t?.close());

  const dir = (): string => join(t.config.dataDir, 'uploads', 'qr-codes');
  const fileOf = (url: string): string => join(dir(), url.split('/').pop() as string);
  const pathOf = (url: string): string => new URL(url).pathname;

  async function create(fields: Record<string, string>, user = owner): Promise<number> {
    const res = await t.http.post('/v1/qr-codes').set('Authorization', user.auth).field(fields);
    expect(res.status).toBe(201);
    return (res.body as { data: { id: number } }).data.id;
  }

  async function get(id: number, user = owner) {
    // Every read is checked against docs/openapi.json too.
    return expectDocumented(await t.http.get(`/v1/qr-codes/${id}`).set('Authorization', user.auth));
  }

  it('creates a url code and reads back the whole object with served SVG and PNG', async () => {
    const res = await t.http
      .post('/v1/qr-codes')
      .set('Authorization', owner.auth)
      .field({ name: 'Menu', type: 'url', url: 'https://example.com/menu' });
    expect(res.status).toBe(201);
    expect(res.body).toEqual({ data: { id: expect.any(Number) } });

    const got = await get(res.body.data.id);
    expect(got.status).toBe(200);
    expect(got.body).toEqual({
      data: {
        id: res.body.data.id,
        project_id: null,
        type: 'url',
        name: 'Menu',
        qr_code: expect.stringMatching(SVG_URL),
        qr_code_logo: null,
        qr_code_background: null,
        settings: { ...DEFAULT_SETTINGS, url: 'https://example.com/menu' },
        embedded_data: 'https://example.com/menu',
        link_id: null,
        scans: 0,
        is_readable: true,
        last_datetime: null,
        datetime: expect.stringMatching(DATETIME),
      },
    });

    const svg = await t.http.get(pathOf(got.body.data.qr_code)).buffer(true).parse(text);
    expect(svg.status).toBe(200);
    expect(svg.headers['content-type']).toBe('image/svg+xml');
    expect(svg.headers['x-content-type-options']).toBe('nosniff');
    expect(svg.headers['cache-control']).toBe('public, max-age=31536000, immutable');
    expect(svg.body as string).toMatch(
      /^<svg xmlns="http:\/\/www\.w3\.org\/2000\/svg" width="500"/,
    );
    const png = await t.http.get(pathOf(got.body.data.qr_code).replace(/\.svg$/, '.png'));
    expect(png.status).toBe(200);
    expect(png.headers['content-type']).toBe('image/png');
    expect(await sharp(png.body as Buffer).metadata()).toMatchObject({
      format: 'png',
      width: 500,
      height: 500,
    });
  });

  it('creates a styled wifi code with a logo and a frame; the logo is served as PNG', async () => {
    const res = await t.http
      .post('/v1/qr-codes')
      .set('Authorization', owner.auth)
      .field({
        name: 'Guest wifi',
        type: 'wifi',
        wifi_ssid: 'Cafe;Guest',
        wifi_encryption: 'WPA/WPA2',
        wifi_password: 'p:ss word',
        style: 'dot',
        inner_eye_style: 'leaf',
        outer_eye_style: 'rounded',
        foreground_type: 'gradient',
        foreground_gradient_style: 'radial',
        foreground_gradient_one: '#1D3557',
        foreground_gradient_two: '#000000',
        frame: 'round_bottom_text',
        frame_text: 'Scan me',
        size: '400',
        margin: '3',
        ecc: 'Q',
        qr_code_logo_size: '20',
      })
      .attach('qr_code_logo', logoPng, 'logo.png');
    expect(res.status).toBe(201);
    const got = await get(res.body.data.id);
    expect(got.body.data).toEqual({
      id: res.body.data.id,
      project_id: null,
      type: 'wifi',
      name: 'Guest wifi',
      qr_code: expect.stringMatching(SVG_URL),
      qr_code_logo: expect.stringMatching(PNG_URL),
      qr_code_background: null,
      settings: {
        ...DEFAULT_SETTINGS,
        style: 'dot',
        inner_eye_style: 'leaf',
        outer_eye_style: 'rounded',
        foreground_type: 'gradient',
        foreground_gradient_style: 'radial',
        foreground_gradient_one: '#1d3557',
        frame: 'round_bottom_text',
        frame_text: 'Scan me',
        size: 400,
        margin: 3,
        ecc: 'Q',
        qr_code_logo_size: 20,
        wifi_ssid: 'Cafe;Guest',
        wifi_encryption: 'WPA/WPA2',
        wifi_password: 'p:ss word',
        wifi: 'WIFI:T:WPA;S:Cafe\\;Guest;P:p\\:ss word;;',
      },
      embedded_data: 'WIFI:T:WPA;S:Cafe\\;Guest;P:p\\:ss word;;',
      link_id: null,
      scans: 0,
      is_readable: true,
      last_datetime: null,
      datetime: expect.stringMatching(DATETIME),
    });
    const logo = await t.http.get(pathOf(got.body.data.qr_code_logo));
    expect(logo.status).toBe(200);
    expect(logo.headers['content-type']).toBe('image/png');
  });

  it('takes vCard phone numbers and socials as form arrays', async () => {
    const res = await t.http
      .post('/v1/qr-codes')
      .set('Authorization', owner.auth)
      .field('name', 'Card')
      .field('type', 'vcard')
      .field('vcard_first_name', 'Ada')
      .field('vcard_last_name', 'Lovelace')
      .field('vcard_phone_number_label[]', 'Work')
      .field('vcard_phone_number_value[]', '+44 20 7946 0000')
      .field('vcard_phone_number_label[]', 'Home')
      .field('vcard_phone_number_value[]', '+44 20 7946 0001')
      .field('vcard_social_label[0]', 'Mastodon')
      .field('vcard_social_value[0]', 'https://mastodon.example/@ada');
    expect(res.status).toBe(201);
    const data = (await get(res.body.data.id)).body.data;
    const card = [
      'BEGIN:VCARD',
      'VERSION:3.0',
      'N:Lovelace;Ada;;;',
      'FN:Ada Lovelace',
      'TEL;TYPE=Work:+44 20 7946 0000',
      'TEL;TYPE=Home:+44 20 7946 0001',
      'X-SOCIALPROFILE;TYPE=Mastodon:https://mastodon.example/@ada',
      'END:VCARD',
      '',
    ].join('\r\n');
    expect(data.embedded_data).toBe(card);
    expect(data.settings).toMatchObject({
      vcard_first_name: 'Ada',
      vcard_last_name: 'Lovelace',
      vcard_phone_numbers: [
        { label: 'Work', value: '+44 20 7946 0000' },
        { label: 'Home', value: '+44 20 7946 0001' },
      ],
      vcard_socials: [{ label: 'Mastodon', value: 'https://mastodon.example/@ada' }],
      vcard: card,
    });
    expect(data.is_readable).toBe(true);
  });

  it('encodes an event in its time zone and refuses a bad date naming the field', async () => {
    const id = await create({
      name: 'Launch',
      type: 'event',
      event: 'Launch',
      event_timezone: 'America/New_York',
      event_start_datetime: '2026-03-01 09:00',
      event_first_alert_datetime: '2026-03-01 08:30',
    });
    // RFC 5545: times in UTC (a TZID without its VTIMEZONE is floating time), PRODID, UID and
    // DTSTAMP required.
    const lines = [
      'BEGIN:VCALENDAR',
      'VERSION:2.0',
      'PRODID:-//Linkdock//QR codes//EN',
      'BEGIN:VEVENT',
      'UID:[0-9a-f]{32}@linkdock',
      'DTSTAMP:\\d{8}T\\d{6}Z',
      'SUMMARY:Launch',
      'DTSTART:20260301T140000Z',
      'BEGIN:VALARM',
      'ACTION:DISPLAY',
      'DESCRIPTION:Launch',
      'TRIGGER;VALUE=DATE-TIME:20260301T133000Z',
      'END:VALARM',
      'END:VEVENT',
      'END:VCALENDAR',
      '',
    ];
    expect((await get(id)).body.data.embedded_data).toMatch(new RegExp(`^${lines.join('\r\n')}$`));
    const bad = await t.http
      .post(`/v1/qr-codes/${id}`)
      .set('Authorization', owner.auth)
      .field({ event_start_datetime: 'tomorrow' });
    expect(bad.status).toBe(400);
    expect(bad.body).toEqual({
      errors: [
        {
          status: 400,
          title: 'event_start_datetime must be a date and time as Y-m-d H:i.',
          field: 'event_start_datetime',
          code: 'validation_failed',
        },
      ],
    });
  });

  it('updates partially, renders a new file and removes the old ones', async () => {
    const id = await create({
      name: 'Before',
      type: 'text',
      text: 'hello',
      foreground_color: '#123456',
    });
    const before = (await get(id)).body.data;
    expect(existsSync(fileOf(before.qr_code))).toBe(true);

    const res = await t.http
      .post(`/v1/qr-codes/${id}`)
      .set('Authorization', owner.auth)
      .field({ name: 'After', style: 'rounded' });
    expect(res.status).toBe(200);
    expect(res.body).toEqual({ data: { id } });

    const after = (await get(id)).body.data;
    expect(after).toEqual({
      ...before,
      name: 'After',
      qr_code: expect.stringMatching(SVG_URL),
      settings: { ...before.settings, style: 'rounded' },
      last_datetime: expect.stringMatching(DATETIME),
    });
    expect(after.qr_code).not.toBe(before.qr_code);
    expect(existsSync(fileOf(before.qr_code))).toBe(false);
    expect(existsSync(fileOf(before.qr_code).replace(/\.svg$/, '.png'))).toBe(false);
    expect(existsSync(fileOf(after.qr_code))).toBe(true);
  });

  it('changes the type with its content, and removes a logo on request', async () => {
    const res = await t.http
      .post('/v1/qr-codes')
      .set('Authorization', owner.auth)
      .field({ name: 'Swap', type: 'phone', phone: '+4930123456' })
      .attach('qr_code_logo', logoPng, 'x.png');
    const id = res.body.data.id as number;
    const logoUrl = (await get(id)).body.data.qr_code_logo as string;
    const upd = await t.http
      .post(`/v1/qr-codes/${id}`)
      .set('Authorization', owner.auth)
      .send({ type: 'sms', sms: '+4930123456', sms_body: 'Hi', qr_code_logo_remove: 1 });
    expect(upd.status).toBe(200);
    const got = (await get(id)).body.data;
    expect(got).toMatchObject({
      type: 'sms',
      qr_code_logo: null,
      embedded_data: 'sms:+4930123456?body=Hi',
      settings: { sms: '+4930123456', sms_body: 'Hi' },
    });
    expect(got.settings).not.toHaveProperty('phone');
    expect(existsSync(fileOf(logoUrl))).toBe(false);
  });

  it('deletes a code and its files, then answers 404', async () => {
    const res = await t.http
      .post('/v1/qr-codes')
      .set('Authorization', owner.auth)
      .field({ name: 'Doomed', type: 'text', text: 'bye' })
      .attach('qr_code_background', logoPng, 'bg.png');
    const id = res.body.data.id as number;
    const data = (await get(id)).body.data;
    const files = [
      fileOf(data.qr_code),
      fileOf(data.qr_code).replace(/\.svg$/, '.png'),
      fileOf(data.qr_code_background),
    ];
    expect(files.map((f) => existsSync(f))).toEqual([true, true, true]);

    const del = await t.http.delete(`/v1/qr-codes/${id}`).set('Authorization', owner.auth);
    expect(del.status).toBe(200);
    expect(del.body).toEqual({ data: { id } });
    expect(files.map((f) => existsSync(f))).toEqual([false, false, false]);
    expect((await get(id)).status).toBe(404);
    const served = await t.http.get(pathOf(data.qr_code));
    expect(served.status).toBe(404);
  });

  it('lists with filters, search and order', async () => {
    const user = await t.createUser();
    const a = await create({ name: 'Alpha', type: 'text', text: 'a' }, user);
    const b = await create({ name: 'Beta', type: 'url', url: 'https://b.example' }, user);
    const res = await t.http
      .get('/v1/qr-codes/?type=url&order_by=name&order_type=ASC')
      .set('Authorization', user.auth);
    expect(res.status).toBe(200);
    expect(res.body.data.map((q: { id: number }) => q.id)).toEqual([b]);
    expect(res.body.meta).toEqual({
      page: 1,
      results_per_page: 25,
      total: 1,
      total_results: 1,
      total_pages: 1,
    });
    const search = await t.http
      .get('/v1/qr-codes/?search=alp&search_by=name')
      .set('Authorization', user.auth);
    expect(search.body.data.map((q: { id: number }) => q.id)).toEqual([a]);
    const bad = await t.http.get('/v1/qr-codes/?order_by=size').set('Authorization', user.auth);
    expect(bad.status).toBe(400);
  });

  it('keeps a code when its project is deleted, with project_id null', async () => {
    const project = await t.http
      .post('/v1/projects')
      .set('Authorization', owner.auth)
      .field({ name: 'Print' });
    const projectId = project.body.data.id as number;
    const id = await create({
      name: 'In project',
      type: 'text',
      text: 'p',
      project_id: String(projectId),
    });
    const listed = await t.http
      .get(`/v1/qr-codes/?project_id=${projectId}`)
      .set('Authorization', owner.auth);
    expect(listed.body.data.map((q: { id: number }) => q.id)).toEqual([id]);

    await t.http.delete(`/v1/projects/${projectId}`).set('Authorization', owner.auth);
    const rows = await t.dataSource.query(
      t.dataSource.options.type === 'postgres'
        ? 'SELECT project_id FROM qr_codes WHERE id = $1'
        : 'SELECT project_id FROM qr_codes WHERE id = ?',
      [id],
    );
    expect(rows).toEqual([{ project_id: null }]);
    expect((await get(id)).status).toBe(200);
  });

  it.each([
    ['a missing name', { type: 'text', text: 'x' }, 'name', 'name is required.'],
    ['a missing type', { name: 'x' }, 'type', 'type is required.'],
    [
      'an unknown type',
      { name: 'x', type: 'fax' },
      'type',
      'type must be one of: text, url, phone, sms, email, whatsapp, facetime, location, wifi, event, vcard, crypto, paypal, upi, epc, pix.',
    ],
    [
      'a size under 50',
      { name: 'x', type: 'text', text: 'x', size: '49' },
      'size',
      'size must be a whole number from 50 to 2000.',
    ],
    [
      'a size over 2000',
      { name: 'x', type: 'text', text: 'x', size: '2001' },
      'size',
      'size must be a whole number from 50 to 2000.',
    ],
    [
      'a margin over 25',
      { name: 'x', type: 'text', text: 'x', margin: '26' },
      'margin',
      'margin must be a whole number from 0 to 25.',
    ],
    [
      'a logo size of 4',
      { name: 'x', type: 'text', text: 'x', qr_code_logo_size: '4' },
      'qr_code_logo_size',
      'qr_code_logo_size must be a whole number from 5 to 35.',
    ],
    [
      'a transparency of 101',
      { name: 'x', type: 'text', text: 'x', background_color_transparency: '101' },
      'background_color_transparency',
      'background_color_transparency must be a whole number from 0 to 100.',
    ],
    [
      'a frame text size of -6',
      { name: 'x', type: 'text', text: 'x', frame_text_size: '-6' },
      'frame_text_size',
      'frame_text_size must be a whole number from -5 to 5.',
    ],
    [
      'an unknown style',
      { name: 'x', type: 'text', text: 'x', style: 'heart' },
      'style',
      'style must be one of: square, dot, rounded, diamond, flower, leaf.',
    ],
    [
      'an unknown outer eye style',
      { name: 'x', type: 'text', text: 'x', outer_eye_style: 'dot' },
      'outer_eye_style',
      'outer_eye_style must be one of: square, circle, rounded, flower, leaf.',
    ],
    [
      'an unknown ecc',
      { name: 'x', type: 'text', text: 'x', ecc: 'X' },
      'ecc',
      'ecc must be one of: L, M, Q, H.',
    ],
    [
      'a colour that is not #rrggbb',
      { name: 'x', type: 'text', text: 'x', foreground_color: 'black' },
      'foreground_color',
      'foreground_color must be a colour as #rrggbb.',
    ],
    ['a url type without url', { name: 'x', type: 'url' }, 'url', 'url is required for this type.'],
    [
      'a boolean that is not 0/1',
      { name: 'x', type: 'text', text: 'x', custom_eyes_color: 'yes' },
      'custom_eyes_color',
      'custom_eyes_color must be 0 or 1.',
    ],
    [
      'low contrast',
      { name: 'x', type: 'text', text: 'x', foreground_color: '#cccccc' },
      'foreground_color',
      'foreground_color #cccccc on the background #ffffff has a contrast of 1.6:1; a code needs at least 3:1 to scan.',
    ],
    [
      'light modules on a dark background',
      {
        name: 'x',
        type: 'text',
        text: 'x',
        foreground_color: '#ffffff',
        background_color: '#000000',
      },
      'foreground_color',
      'foreground_color #ffffff is lighter than the background #000000: many phone scanners cannot read light-on-dark codes.',
    ],
    [
      'custom eye colours with low contrast',
      {
        name: 'x',
        type: 'text',
        text: 'x',
        custom_eyes_color: '1',
        eyes_inner_color: '#000000',
        eyes_outer_color: '#dddddd',
      },
      'eyes_outer_color',
      'eyes_outer_color #dddddd on the background #ffffff has a contrast of 1.35:1; a code needs at least 3:1 to scan.',
    ],
    [
      'frame text no frame font can draw (Linear B, Tibetan), instead of empty boxes',
      {
        name: 'x',
        type: 'text',
        text: 'x',
        frame: 'ribbon_bottom_text',
        frame_text: 'Scan 𐀀 한국 Привет 扫码 ༀ 𐀀',
        frame_text_font: 'arial',
      },
      'frame_text',
      'frame_text has characters that the font arial cannot draw: "𐀀" (U+10000), "ༀ" (U+0F00).',
    ],
    [
      'frame text with a mark no font of the chain places on its letter (a diaeresis on Arabic)',
      {
        name: 'x',
        type: 'text',
        text: 'x',
        frame: 'ribbon_bottom_text',
        frame_text: 'Scan \u0634\u0308 Ŝ̈',
        frame_text_font: 'courier',
      },
      'frame_text',
      'frame_text has characters that the font courier cannot draw: "\u0634\u0308" (U+0634 U+0308).',
    ],
    [
      'a project of someone else',
      { name: 'x', type: 'text', text: 'x', project_id: '999999' },
      'project_id',
      'project_id is not one of your projects.',
    ],
  ])('refuses %s with 400 naming the field', async (_case, fields, field, title) => {
    const filesBefore = existsSync(dir()) ? readdirSync(dir()).length : 0;
    const res = await t.http.post('/v1/qr-codes').set('Authorization', owner.auth).field(fields);
    expect(res.status).toBe(400);
    expect(res.body).toEqual({
      errors: [
        {
          status: 400,
          title,
          field,
          code: field === 'project_id' ? 'invalid_reference' : 'validation_failed',
        },
      ],
    });
    const filesAfter = existsSync(dir()) ? readdirSync(dir()).length : 0;
    expect(filesAfter).toBe(filesBefore);
  });

  it('refuses a bad update without writing a file or changing the code', async () => {
    const id = await create({ name: 'Stable', type: 'text', text: 'keep' });
    const before = (await get(id)).body.data;
    const files = readdirSync(dir()).length;
    const res = await t.http
      .post(`/v1/qr-codes/${id}`)
      .set('Authorization', owner.auth)
      .field({ name: 'Changed', foreground_color: '#eeeeee' })
      .attach('qr_code_logo', logoPng, 'logo.png');
    expect(res.status).toBe(400);
    expect(res.body.errors).toEqual([
      {
        status: 400,
        title:
          'foreground_color #eeeeee on the background #ffffff has a contrast of 1.16:1; a code needs at least 3:1 to scan.',
        field: 'foreground_color',
        code: 'validation_failed',
      },
    ]);
    expect(readdirSync(dir()).length).toBe(files);
    expect((await get(id)).body.data).toEqual(before);
  });

  it('renders frame text in every font, in Latin Extended, Cyrillic, Greek and CJK', async () => {
    for (const font of ['georgia', 'verdana', 'tahoma', 'courier', 'times_new_roman', 'impact']) {
      const res = await t.http.post('/v1/qr-codes').set('Authorization', owner.auth).field({
        name: font,
        type: 'text',
        text: 'font',
        frame: 'straight_top_text',
        frame_text: 'Zażółć Привет Γειά 扫码',
        frame_text_font: font,
      });
      expect(res.status).toBe(201);
      expect((await get(res.body.data.id)).body.data.is_readable).toBe(true);
    }
  });

  it('renders Korean frame text (Hangul), refused with 400 before Noto Sans KR', async () => {
    const fields = {
      name: 'Korean',
      type: 'text',
      text: 'menu',
      frame: 'ribbon_bottom_text',
      frame_text: '스캔하세요 Scan 扫码',
      frame_text_font: 'arial',
    };
    const res = await t.http.post('/v1/qr-codes').set('Authorization', owner.auth).field(fields);
    expect(res.status).toBe(201);
    expect(res.body).toEqual({ data: { id: expect.any(Number) } });
    const got = await get(res.body.data.id);
    expect(got.status).toBe(200);
    expect(got.body).toEqual({
      data: {
        id: res.body.data.id,
        project_id: null,
        type: 'text',
        name: 'Korean',
        qr_code: expect.stringMatching(SVG_URL),
        qr_code_logo: null,
        qr_code_background: null,
        settings: {
          ...DEFAULT_SETTINGS,
          text: 'menu',
          frame: 'ribbon_bottom_text',
          frame_text: '스캔하세요 Scan 扫码',
          frame_text_font: 'arial',
        },
        embedded_data: 'menu',
        link_id: null,
        scans: 0,
        is_readable: true,
        last_datetime: null,
        datetime: expect.stringMatching(DATETIME),
      },
    });
    // The text is drawn as outlines: the SVG needs no font and carries no text element.
    const svg = await t.http.get(pathOf(got.body.data.qr_code)).buffer(true).parse(text);
    expect(svg.status).toBe(200);
    expect(svg.body as string).not.toMatch(/<text|스캔/);
  });

  it('draws each of the 19 frames of the origin in an image size px tall, frame included', async () => {
    const frames = [
      'circle_simple_bottom_text',
      'round_simple_bottom_text',
      'straight_simple_bottom_text',
      'round_card_bottom_text',
      'straight_bottom_text',
      'straight_top_text',
      'round_bottom_text',
      'round_top_text',
      'tooltip_bottom_text',
      'tooltip_top_text',
      'ribbon_bottom_text',
      'ribbon_top_text',
      'tooltip_snap_top_text',
      'tooltip_snap_bottom_text',
      'straight_semi_bordered_bottom_text',
      'round_semi_bordered_bottom_text',
      'hand_arrows_bottom_text',
      'broken_ticket_bottom_text',
      'smooth_ribbon_bottom_text',
    ];
    const wrong: string[] = [];
    for (const frame of frames) {
      const res = await t.http.post('/v1/qr-codes').set('Authorization', owner.auth).field({
        name: frame,
        type: 'url',
        url: 'https://example.com/menu',
        frame,
        frame_text: 'Scan me',
        size: '500',
      });
      expect(res.status).toBe(201);
      const got = (await get(res.body.data.id)).body.data;
      const png = await t.http.get(pathOf(got.qr_code).replace(/\.svg$/, '.png'));
      const { width, height } = await sharp(png.body as Buffer).metadata();
      if (!got.is_readable || height !== 500 || (width ?? 0) > 500) {
        wrong.push(`${frame}: ${width}×${height} readable=${got.is_readable}`);
      }
    }
    expect(wrong).toEqual([]);
  });

  it('refuses content too long for a QR code with 400 naming the content field', async () => {
    const res = await t.http
      .post('/v1/qr-codes')
      .set('Authorization', owner.auth)
      .field({ name: 'long', type: 'text', text: 'x'.repeat(2000), ecc: 'H' });
    expect(res.status).toBe(400);
    expect(res.body).toEqual({
      errors: [
        {
          status: 400,
          title: 'The content of this text code is too long for a QR code with error correction H.',
          field: 'text',
          code: 'validation_failed',
        },
      ],
    });
  });

  // A logo raises the level to Q, and to H only when H costs no version or the logo would take
  // more than 3/4 of what a block of Q corrects: 1,500 bytes fit version 39 at Q, no version at H
  // (before, any logo over 15 % asked for H: a 400).
  it('takes content under a logo that only error correction Q holds; 400 when the logo needs H', async () => {
    const text = 'x'.repeat(1500);
    const res = await t.http
      .post('/v1/qr-codes')
      .set('Authorization', owner.auth)
      .field({ name: 'long', type: 'text', text })
      .attach('qr_code_logo', logoPng, 'logo.png');
    expect(res.status).toBe(201);
    expect(res.body).toEqual({ data: { id: expect.any(Number) } });
    const got = (await get(res.body.data.id)).body.data;
    expect({ ecc: got.settings.ecc, embedded: got.embedded_data === text }).toEqual({
      ecc: 'M',
      embedded: true,
    });

    const big = await t.http
      .post('/v1/qr-codes')
      .set('Authorization', owner.auth)
      .field({ name: 'long', type: 'text', text, qr_code_logo_size: '35' })
      .attach('qr_code_logo', logoPng, 'logo.png');
    expect(big.status).toBe(400);
    expect(big.body).toEqual({
      errors: [
        {
          status: 400,
          title:
            'The content of this text code is too long for a QR code with error correction H (a logo needs Q or H).',
          field: 'text',
          code: 'validation_failed',
        },
      ],
    });
  });

  it('refuses a file that is not an image by its content, whatever its name', async () => {
    const res = await t.http
      .post('/v1/qr-codes')
      .set('Authorization', owner.auth)
      .field({ name: 'x', type: 'text', text: 'x' })
      .attach('qr_code_logo', Buffer.from('MZ not an image at all'), {
        filename: 'logo.png',
        contentType: 'image/png',
      });
    expect(res.status).toBe(400);
    expect(res.body).toEqual({
      errors: [
        {
          status: 400,
          title: 'qr_code_logo must be a PNG, JPEG, WebP or SVG image.',
          field: 'qr_code_logo',
          code: 'validation_failed',
        },
      ],
    });
  });

  it('stores an SVG upload as a PNG: no script of it is ever served', async () => {
    const svg = Buffer.from(
      '<svg xmlns="http://www.w3.org/2000/svg" width="40" height="40" onload="alert(1)"><script>alert(2)</script><rect width="40" height="40" fill="#264653"/></svg>',
    );
    const res = await t.http
      .post('/v1/qr-codes')
      .set('Authorization', owner.auth)
      .field({ name: 'svg logo', type: 'text', text: 'x' })
      .attach('qr_code_logo', svg, { filename: 'logo.svg', contentType: 'image/svg+xml' });
    expect(res.status).toBe(201);
    const data = (await get(res.body.data.id)).body.data;
    expect(data.qr_code_logo).toMatch(PNG_URL);
    const logo = await t.http.get(pathOf(data.qr_code_logo));
    expect(logo.headers['content-type']).toBe('image/png');
    const code = await t.http.get(pathOf(data.qr_code)).buffer(true).parse(text);
    expect(code.body as string).not.toMatch(/script|onload|alert/);
  });

  it('answers 413 naming the field for an upload over 2 MB, and writes nothing', async () => {
    const before = readdirSync(dir()).length;
    const res = await t.http
      .post('/v1/qr-codes')
      .set('Authorization', owner.auth)
      .field({ name: 'big', type: 'text', text: 'x' })
      .attach('qr_code_background', Buffer.alloc(2 * 1024 * 1024 + 1, 1), 'big.png');
    expect(res.status).toBe(413);
    expect(res.body).toEqual({
      errors: [
        {
          status: 413,
          title: 'qr_code_background must be at most 2 MB.',
          field: 'qr_code_background',
          code: 'payload_too_large',
        },
      ],
    });
    expect(readdirSync(dir()).length).toBe(before);
  });

  it('ignores file parts of undeclared fields', async () => {
    const res = await t.http
      .post('/v1/qr-codes')
      .set('Authorization', owner.auth)
      .field({ name: 'extra', type: 'text', text: 'x' })
      .attach('avatar', logoPng, 'a.png');
    expect(res.status).toBe(201);
  });

  it.each([
    ['style', 'style must be one of'],
    ['inner_eye_style', 'inner_eye_style must be one of'],
    ['outer_eye_style', 'outer_eye_style must be one of'],
    ['foreground_color', 'foreground_color must be a colour as #rrggbb'],
    ['eyes_inner_color', 'eyes_inner_color must be a colour as #rrggbb'],
    ['size', 'size must be a whole number from 50 to 2000'],
  ])('answers 400 for JSON null as %s on create and on update', async (field, title) => {
    const id = await create({ name: 'Nulls', type: 'text', text: 'x' });
    for (const [path, body] of [
      ['/v1/qr-codes', { name: 'Nulls', type: 'text', text: 'x', [field]: null }],
      [`/v1/qr-codes/${id}`, { [field]: null }],
    ] as const) {
      const res = await t.http.post(path).set('Authorization', owner.auth).send(body);
      expect(res.status).toBe(400);
      expect(res.body.errors).toEqual([
        { status: 400, title: expect.stringContaining(title), field, code: 'validation_failed' },
      ]);
    }
    expect((await get(id)).body.data.settings[field]).toEqual(
      DEFAULT_SETTINGS[field as keyof typeof DEFAULT_SETTINGS],
    );
  });

  it('never leaves a code pointing at a removed logo when a removal races another update', async () => {
    for (let round = 0; round < 4; round += 1) {
      const res = await t.http
        .post('/v1/qr-codes')
        .set('Authorization', owner.auth)
        .field({ name: 'Race', type: 'text', text: 'race' })
        .attach('qr_code_logo', logoPng, 'x.png');
      const id = res.body.data.id as number;
      const answers = await Promise.all([
        t.http
          .post(`/v1/qr-codes/${id}`)
          .set('Authorization', owner.auth)
          .send({ qr_code_logo_remove: 1 }),
        ...['One', 'Two', 'Three'].map((name) =>
          t.http.post(`/v1/qr-codes/${id}`).set('Authorization', owner.auth).send({ name }),
        ),
      ]);
      for (const answer of answers) {
        expect([200, 409]).toContain(answer.status);
      }
      const got = (await get(id)).body.data;
      for (const url of [got.qr_code, got.qr_code_logo].filter((u): u is string => u !== null)) {
        expect(existsSync(fileOf(url))).toBe(true);
      }
      const later = await t.http
        .post(`/v1/qr-codes/${id}`)
        .set('Authorization', owner.auth)
        .send({ name: 'Later' });
      expect(later.status).toBe(200);
    }
  });

  it('answers 401 without a key', async () => {
    const res = await t.http.get('/v1/qr-codes/');
    expect(res.status).toBe(401);
    const post = await t.http.post('/v1/qr-codes').field({ name: 'x', type: 'text', text: 'x' });
    expect(post.status).toBe(401);
  });

  it("answers 404 for another user's code on read, update and delete", async () => {
    const id = await create({ name: 'Mine', type: 'text', text: 'mine' });
    const notFound = {
      errors: [
        {
          status: 404,
          title: 'The QR code you are looking for does not exist.',
          code: 'qr_code_not_found',
        },
      ],
    };
    const read = await get(id, stranger);
    expect(read.status).toBe(404);
    expect(read.body).toEqual(notFound);
    const upd = await t.http
      .post(`/v1/qr-codes/${id}`)
      .set('Authorization', stranger.auth)
      .field({ name: 'Stolen' });
    expect(upd.status).toBe(404);
    expect(upd.body).toEqual(notFound);
    const del = await t.http.delete(`/v1/qr-codes/${id}`).set('Authorization', stranger.auth);
    expect(del.status).toBe(404);
    expect((await get(id)).body.data.name).toBe('Mine');
  });
});
