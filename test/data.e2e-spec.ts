import { parse } from 'csv-parse/sync';
import { DatumEntity } from '@app/database';
import { createTestApp, TestApp, TestUser } from '@app/testing';

/** Collected data records: the list, read, delete and the export (seed operation 4). */
describe('Collected data', () => {
  let t: TestApp;
  let owner: TestUser;
  let stranger: TestUser;
  let link: number;
  let block: number;
  let project: number;
  const ids: Record<string, number> = {};

  async function insert(
    user: TestUser,
    values: Partial<Omit<DatumEntity, 'data'>> & { type: string; data: Record<string, unknown> },
  ): Promise<number> {
    const data = values.data;
    const saved = await t.dataSource.getRepository(DatumEntity).save({
      user_id: user.id,
      biolink_block_id: values.biolink_block_id ?? block,
      link_id: values.link_id ?? link,
      project_id: values.project_id ?? null,
      type: values.type,
      data: JSON.stringify(data),
      email: (data.email as string | undefined) ?? null,
      name: (data.name as string | undefined) ?? null,
      phone: (data.phone as string | undefined) ?? null,
      slot_start: null,
      datetime: values.datetime ?? new Date('2026-11-20T10:00:00Z'),
    });
    return saved.id;
  }

  beforeAll(async () => {
    t = await createTestApp();
    owner = await t.createUser();
    stranger = await t.createUser();
    const p = await t.http
      .post('/v1/projects')
      .set('Authorization', owner.auth)
      .send({ name: 'P' });
    project = p.body.data.id;
    const l = await t.http
      .post('/v1/links')
      .set('Authorization', owner.auth)
      .send({ type: 'biolink', project_id: project });
    link = l.body.data.id;
    const b = await t.http
      .post('/v1/biolink-blocks')
      .set('Authorization', owner.auth)
      .send({ link_id: link, type: 'email_collector' });
    block = b.body.data.id;
    ids.email = await insert(owner, {
      type: 'email_collector',
      project_id: project,
      data: { email: 'ada@example.com', name: 'Ada' },
      datetime: new Date('2026-11-20T10:00:00Z'),
    });
    ids.phone = await insert(owner, {
      type: 'phone_collector',
      biolink_block_id: block + 1000,
      data: { phone: '+33612345678', name: 'Grace, "Amazing"' },
      datetime: new Date('2026-11-21T10:00:00Z'),
    });
    ids.contact = await insert(owner, {
      type: 'contact_collector',
      data: {
        phone: '+15551234567',
        email: 'zoé@example.com',
        message: 'Line one\nline two, =SUM(A1)',
        name: '=HYPERLINK("x")',
      },
      datetime: new Date('2026-11-22T10:00:00Z'),
    });
    ids.theirs = await insert(stranger, {
      type: 'email_collector',
      data: { email: 'theirs@example.com', name: 'Theirs' },
    });
  });
  afterAll(() => t?.close());

  const list = (query: string, user = owner) =>
    t.http.get(`/v1/data${query}`).set('Authorization', user.auth);

  it('lists the owner’s records with exactly the seed’s fields, newest first', async () => {
    const res = await list('');
    expect(res.status).toBe(200);
    expect(res.body.data).toEqual([
      {
        id: ids.contact,
        biolink_block_id: block,
        link_id: link,
        project_id: null,
        type: 'contact_collector',
        data: {
          phone: '+15551234567',
          email: 'zoé@example.com',
          message: 'Line one\nline two, =SUM(A1)',
          name: '=HYPERLINK("x")',
        },
        datetime: '2026-11-22 10:00:00',
      },
      {
        id: ids.phone,
        biolink_block_id: block + 1000,
        link_id: link,
        project_id: null,
        type: 'phone_collector',
        data: { phone: '+33612345678', name: 'Grace, "Amazing"' },
        datetime: '2026-11-21 10:00:00',
      },
      {
        id: ids.email,
        biolink_block_id: block,
        link_id: link,
        project_id: project,
        type: 'email_collector',
        data: { email: 'ada@example.com', name: 'Ada' },
        datetime: '2026-11-20 10:00:00',
      },
    ]);
    expect(res.body.meta).toEqual({
      page: 1,
      results_per_page: 25,
      total: 3,
      total_results: 3,
      total_pages: 1,
    });
  });

  it.each([
    ['?type=phone_collector', () => [ids.phone]],
    ['?biolink_block_id=BLOCK', () => [ids.contact, ids.email]],
    ['?link_id=LINK&order_by=datum_id&order_type=ASC', () => [ids.email, ids.phone, ids.contact]],
    ['?project_id=PROJECT', () => [ids.email]],
    ['?search=grace&search_by=name', () => [ids.phone]],
    ['?search=ZOÉ', () => [ids.contact]],
    ['?search=%2B3361&search_by=phone', () => [ids.phone]],
    [
      '?datetime_field=datetime&datetime_start=2026-11-21 00:00:00&datetime_end=2026-11-21 23:59:59',
      () => [ids.phone],
    ],
  ])('filters %s', async (query, expected) => {
    const q = query
      .replace('BLOCK', String(block))
      .replace('LINK', String(link))
      .replace('PROJECT', String(project));
    const res = await list(q);
    expect(res.status).toBe(200);
    expect(res.body.data.map((d: { id: number }) => d.id)).toEqual(expected());
  });

  it.each([
    ['?type=mail', 'type'],
    ['?order_by=email', 'order_by'],
    ['?search=x&search_by=message', 'search_by'],
    ['?datetime_field=last_datetime', 'datetime_field'],
  ])('refuses %s with a 400 naming %s', async (query, field) => {
    const res = await list(query);
    expect(res.status).toBe(400);
    expect(res.body.errors[0]).toEqual(
      expect.objectContaining({ status: 400, field, code: expect.any(String) }),
    );
  });

  it('reads one record; another user’s is a 404 to read and delete', async () => {
    const res = await t.http.get(`/v1/data/${ids.email}`).set('Authorization', owner.auth);
    expect(res.body).toEqual({
      data: {
        id: ids.email,
        biolink_block_id: block,
        link_id: link,
        project_id: project,
        type: 'email_collector',
        data: { email: 'ada@example.com', name: 'Ada' },
        datetime: '2026-11-20 10:00:00',
      },
    });
    for (const r of [
      await t.http.get(`/v1/data/${ids.theirs}`).set('Authorization', owner.auth),
      await t.http.delete(`/v1/data/${ids.theirs}`).set('Authorization', owner.auth),
    ]) {
      expect(r.status).toBe(404);
      expect(r.body).toEqual({
        errors: [{ status: 404, title: expect.any(String), code: 'datum_not_found' }],
      });
    }
  });

  it('exports CSV with a BOM and one column per data key, which csv-parse reads back', async () => {
    const res = await t.http
      .get('/v1/data/export?format=csv')
      .set('Authorization', owner.auth)
      .buffer(true)
      .parse((r, done) => {
        const chunks: Buffer[] = [];
        r.on('data', (c: Buffer) => chunks.push(c));
        r.on('end', () => done(null, Buffer.concat(chunks)));
      });
    expect(res.status).toBe(200);
    expect(res.headers['content-type']).toBe('text/csv; charset=utf-8');
    expect(res.headers['content-disposition']).toMatch(
      /^attachment; filename="data-\d{8}-\d{6}\.csv"$/,
    );
    const body = res.body as Buffer;
    expect([...body.subarray(0, 3)]).toEqual([0xef, 0xbb, 0xbf]);
    const rows: Record<string, string>[] = parse(body, { bom: true, columns: true });
    expect(Object.keys(rows[0])).toEqual([
      'id',
      'biolink_block_id',
      'link_id',
      'project_id',
      'type',
      'datetime',
      'email',
      'name',
      'phone',
      'message',
      'date',
      'start_time',
      'end_time',
      'duration_value',
      'duration_type',
    ]);
    const empty = { date: '', start_time: '', end_time: '', duration_value: '', duration_type: '' };
    expect(rows).toEqual([
      {
        id: String(ids.email),
        biolink_block_id: String(block),
        link_id: String(link),
        project_id: String(project),
        type: 'email_collector',
        datetime: '2026-11-20 10:00:00',
        email: 'ada@example.com',
        name: 'Ada',
        phone: '',
        message: '',
        ...empty,
      },
      {
        id: String(ids.phone),
        biolink_block_id: String(block + 1000),
        link_id: String(link),
        project_id: '',
        type: 'phone_collector',
        datetime: '2026-11-21 10:00:00',
        email: '',
        name: 'Grace, "Amazing"',
        // + and digits only is still a formula to a spreadsheet (OWASP): kept as text.
        phone: "'+33612345678",
        message: '',
        ...empty,
      },
      {
        id: String(ids.contact),
        biolink_block_id: String(block),
        link_id: String(link),
        project_id: '',
        type: 'contact_collector',
        datetime: '2026-11-22 10:00:00',
        email: 'zoé@example.com',
        name: `'=HYPERLINK("x")`,
        phone: "'+15551234567",
        message: 'Line one\nline two, =SUM(A1)',
        ...empty,
      },
    ]);
  });

  it('exports every formula-like cell as text (a leading apostrophe), and nothing else changed', async () => {
    const cases: [string, string][] = [
      ['=1+1', "'=1+1"],
      ['\uff1d1+1', "'\uff1d1+1"],
      ['\u200b=1+1', "'\u200b=1+1"],
      ['\ufeff@SUM(A1)', "'\ufeff@SUM(A1)"],
      ['\u200e-2+3', "'\u200e-2+3"],
      ['"=1+1', `'"=1+1`],
      ['|calc', "'|calc"],
      ['+15551234567', "'+15551234567"],
      ['-', "'-"],
      ['\tx', "'\tx"],
      ['\r\nx', "'\r\nx"],
      ['  =1+1', "'  =1+1"],
      ['plain text', 'plain text'],
      ['a=b, "c"', 'a=b, "c"'],
      ['42', '42'],
    ];
    const user = await t.createUser();
    const recordIds: number[] = [];
    for (const [value] of cases) {
      recordIds.push(
        await insert(user, { type: 'contact_collector', data: { name: 'N', message: value } }),
      );
    }
    const res = await t.http
      .get('/v1/data/export?format=csv&type=contact_collector')
      .set('Authorization', user.auth)
      .buffer(true)
      .parse((r, done) => {
        const chunks: Buffer[] = [];
        r.on('data', (c: Buffer) => chunks.push(c));
        r.on('end', () => done(null, Buffer.concat(chunks)));
      });
    expect(res.status).toBe(200);
    const rows: string[][] = parse(res.body as Buffer, { bom: true });
    expect(rows).toEqual([
      [
        'id',
        'biolink_block_id',
        'link_id',
        'project_id',
        'type',
        'datetime',
        'phone',
        'email',
        'message',
        'name',
      ],
      ...cases.map(([, exported], i) => [
        String(recordIds[i]),
        String(block),
        String(link),
        '',
        'contact_collector',
        '2026-11-20 10:00:00',
        '',
        '',
        exported,
        'N',
      ]),
    ]);
  });

  it('exports only the kind asked for, with only its columns; JSON holds the API objects', async () => {
    const csv = await t.http
      .get('/v1/data/export?type=phone_collector')
      .set('Authorization', owner.auth)
      .buffer(true)
      .parse((r, done) => {
        let text = '';
        r.setEncoding('utf8');
        r.on('data', (c: string) => (text += c));
        r.on('end', () => done(null, text));
      });
    expect(parse(csv.body as string, { bom: true })).toEqual([
      ['id', 'biolink_block_id', 'link_id', 'project_id', 'type', 'datetime', 'phone', 'name'],
      [
        String(ids.phone),
        String(block + 1000),
        String(link),
        '',
        'phone_collector',
        '2026-11-21 10:00:00',
        "'+33612345678",
        'Grace, "Amazing"',
      ],
    ]);
    const json = await t.http.get('/v1/data/export?format=json').set('Authorization', owner.auth);
    expect(json.status).toBe(200);
    const listed = await list('?order_by=datum_id&order_type=ASC');
    expect(JSON.parse(json.text)).toEqual({ data: listed.body.data });
    const bad = await t.http.get('/v1/data/export?format=xml').set('Authorization', owner.auth);
    expect(bad.status).toBe(400);
    expect(bad.body.errors[0]).toEqual(expect.objectContaining({ field: 'format' }));
  });

  it('keeps records, with their ids, when their block and their page are deleted', async () => {
    const before = (await list('?order_by=datum_id&order_type=ASC')).body.data;
    await t.http.delete(`/v1/biolink-blocks/${block}`).set('Authorization', owner.auth).expect(200);
    await t.http.delete(`/v1/links/${link}`).set('Authorization', owner.auth).expect(200);
    const after = (await list('?order_by=datum_id&order_type=ASC')).body.data;
    expect(after).toEqual(before);
  });

  it('deletes a record', async () => {
    const res = await t.http.delete(`/v1/data/${ids.phone}`).set('Authorization', owner.auth);
    expect(res.body).toEqual({ data: { id: ids.phone } });
    const gone = await t.http.get(`/v1/data/${ids.phone}`).set('Authorization', owner.auth);
    expect(gone.status).toBe(404);
  });
});
