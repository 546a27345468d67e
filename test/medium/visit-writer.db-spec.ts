import { DataSource, In } from 'typeorm';
import { VisitWriter } from '@app/analytics';
import { formatDateTime } from '@app/common/time/datetime';
import {
  LinkDimensionMonthStatEntity,
  LinkDimensionStatEntity,
  LinkEntity,
  LinkQuarterStatEntity,
  type NewVisit,
  OutboxEventEntity,
  parseLinkSettings,
  QrCodeEntity,
  UserDimensionMonthStatEntity,
  UserDimensionStatEntity,
  UserQuarterStatEntity,
  VisitEntity,
} from '@app/database';
import { toSettingsResponse } from '@app/notifications';
import { newTestService, newVisit, TestService } from '@app/testing';
import { insertDomain, insertLink, insertUser } from './rows';

const APP_URL = 'http://links.test';
const AT = new Date('2026-11-10T12:00:00.000Z');
const QUARTER_MS = 15 * 60 * 1000;
const DAY_MS = 24 * 60 * 60 * 1000;

/** A visitor's visit of a link at AT (newVisit). */
function visit(linkId: number, values: Partial<NewVisit> = {}): NewVisit {
  return newVisit(linkId, AT, values);
}

const bucketOf = (iso: string) => Math.floor(Date.parse(iso) / QUARTER_MS);
const dayOf = (isoDay: string) => Date.parse(`${isoDay}T00:00:00.000Z`) / DAY_MS;

type Values = [string, string, string];

/** The day (or month) rows a visitor's visit with only a country and city adds to. */
function visitorRows(
  scope: Record<string, number>,
  period: Record<string, number>,
  pageviews: number,
  country = '',
  city = '',
) {
  const blank: Values = ['', '', ''];
  const rows: Array<[string, Values]> = [
    ['referrer_host', blank],
    ['continent_code', blank],
    ['country_code', [country, '', '']],
    ['city_name', [country, city, '']],
    ['os_name', blank],
    ['browser_name', blank],
    ['device_type', blank],
    ['browser_language', blank],
  ];
  return rows.map(([dimension, [value1, value2, value3]]) => ({
    ...scope,
    dimension,
    ...period,
    value1,
    value2,
    value3,
    pageviews,
  }));
}

/** Rows in one order whatever the order they were read or written in. */
function sorted<T extends object>(rows: T[]): T[] {
  const key = (row: T) => JSON.stringify(Object.entries(row).sort());
  return [...rows].sort((a, b) => (key(a) < key(b) ? -1 : key(a) > key(b) ? 1 : 0));
}

/**
 * VisitWriter.writeBatch against the real database of each dialect (better-sqlite3's own
 * transaction on SQLite, a pooled transaction on PostgreSQL): the visits it writes, the counters
 * it adds to, the QR scans it accepts, the clicks-limit events it raises and the roll-up rows.
 */
describe(VisitWriter.name, () => {
  let s: TestService<VisitWriter>;
  let ds: DataSource;
  beforeAll(async () => {
    s = await newTestService(VisitWriter);
    ds = s.dataSource;
  });
  afterAll(() => s?.close());

  const visitsOf = (linkIds: number[]) =>
    ds.getRepository(VisitEntity).find({ where: { link_id: In(linkIds) }, order: { id: 'ASC' } });
  const linkOf = (id: number) => ds.getRepository(LinkEntity).findOneByOrFail({ id });
  const eventsOf = (ownerId: number) =>
    ds
      .getRepository(OutboxEventEntity)
      .find({ where: { owner_id: ownerId }, order: { id: 'ASC' } });
  const stored = (visits: NewVisit[]) =>
    visits.map((v) => ({ ...v, id: expect.any(Number) as number }));

  async function insertQrCode(userId: number, linkId: number | null): Promise<QrCodeEntity> {
    const repo = ds.getRepository(QrCodeEntity);
    return repo.save(
      repo.create({
        user_id: userId,
        project_id: null,
        type: 'url',
        name: 'Code',
        settings: {},
        embedded_data: 'https://example.org/',
        qr_code: 'code',
        qr_code_logo: null,
        qr_code_background: null,
        qr_code_foreground: null,
        is_readable: true,
        link_id: linkId,
        datetime: AT,
        last_datetime: null,
      }),
    );
  }

  it("writes two links' visits and adds visitors to clicks and bots to bot_clicks", async () => {
    const owner = await insertUser(ds);
    const a = await insertLink(ds, owner.id, { url: `a-${owner.id}`, clicks: 5, bot_clicks: 2 });
    const b = await insertLink(ds, owner.id, { url: `b-${owner.id}` });
    const [aBefore, bBefore] = [await linkOf(a.id), await linkOf(b.id)];
    const batch = [
      visit(a.id, {
        datetime: new Date('2026-11-10T12:00:01.250Z'),
        referrer_host: 'news.example',
        referrer_path: '/story',
        utm_source: 'mail',
        utm_medium: 'email',
        utm_campaign: 'launch',
        continent_code: 'EU',
        country_code: 'DE',
        city_name: 'Berlin',
        os_name: 'Linux',
        browser_name: 'Firefox',
        device_type: 'desktop',
        browser_language: 'de',
        is_unique: true,
        visitor_hash: 'b'.repeat(32),
      }),
      visit(a.id, { bot: 'curl', is_unique: false, visitor_hash: 'c'.repeat(32) }),
      visit(b.id, { datetime: new Date('2026-11-10T12:00:02.000Z'), is_unique: false }),
      visit(a.id, { datetime: new Date('2026-11-10T12:00:03.007Z') }),
      visit(b.id, { bot: 'Slackbot', is_unique: false }),
    ];

    expect(await s.sut.writeBatch(batch)).toEqual({
      written: 5,
      limitedLinks: [],
      limitsReached: 0,
    });

    expect(await visitsOf([a.id, b.id])).toEqual(stored(batch));
    expect(await linkOf(a.id)).toEqual({ ...aBefore, clicks: 7, bot_clicks: 3 });
    expect(await linkOf(b.id)).toEqual({ ...bBefore, clicks: 1, bot_clicks: 1 });
    expect(await eventsOf(owner.id)).toEqual([]);
  });

  it('drops the visits of a link deleted meanwhile, and counts them nowhere', async () => {
    const owner = await insertUser(ds);
    const kept = await insertLink(ds, owner.id, { url: `kept-${owner.id}` });
    const gone = await insertLink(ds, owner.id, { url: `gone-${owner.id}` });
    await ds.getRepository(LinkEntity).delete({ id: gone.id });
    const keptVisit = visit(kept.id, { visitor_hash: 'd'.repeat(32) });

    expect(
      await s.sut.writeBatch([
        visit(gone.id),
        keptVisit,
        visit(gone.id, { bot: 'curl' }),
        visit(gone.id, { qr_code_id: 1 }),
      ]),
    ).toEqual({ written: 1, limitedLinks: [], limitsReached: 0 });
    expect(await visitsOf([kept.id, gone.id])).toEqual(stored([keptVisit]));
    expect(await linkOf(kept.id)).toMatchObject({ clicks: 1, bot_clicks: 0 });

    // A batch of nothing but such visits writes nothing.
    expect(await s.sut.writeBatch([visit(gone.id), visit(gone.id, { bot: 'curl' })])).toEqual({
      written: 0,
      limitedLinks: [],
      limitsReached: 0,
    });
    expect(await visitsOf([kept.id, gone.id])).toEqual(stored([keptVisit]));
    const rollups = await ds.getRepository(LinkDimensionStatEntity).countBy({ link_id: gone.id });
    expect(rollups).toBe(0);
  });

  it("counts a scan only for an existing code of the link's owner that encodes that link", async () => {
    const owner = await insertUser(ds);
    const other = await insertUser(ds);
    const link = await insertLink(ds, owner.id, { url: `qr-${owner.id}` });
    const second = await insertLink(ds, owner.id, { url: `qr2-${owner.id}` });
    const own = await insertQrCode(owner.id, link.id);
    const ofSecond = await insertQrCode(owner.id, second.id);
    const othersCode = await insertQrCode(other.id, link.id);
    const missing = ofSecond.id + 1_000_000;
    const tooLarge = 2_147_483_648;
    const batch = [
      visit(link.id, { qr_code_id: own.id }),
      visit(link.id, { qr_code_id: ofSecond.id }),
      visit(link.id, { qr_code_id: othersCode.id }),
      visit(link.id, { qr_code_id: missing }),
      visit(link.id, { qr_code_id: tooLarge }),
      visit(second.id, { qr_code_id: ofSecond.id }),
      visit(link.id, { qr_code_id: own.id, is_unique: false }),
      visit(link.id),
      // A scan is a person's: a bot's visit naming a code counts no scan and keeps no code.
      visit(link.id, { qr_code_id: own.id, bot: 'curl' }),
    ];

    expect(await s.sut.writeBatch(batch)).toEqual({
      written: 9,
      limitedLinks: [],
      limitsReached: 0,
    });

    const scans = await ds.getRepository(QrCodeEntity).find({
      where: { id: In([own.id, ofSecond.id, othersCode.id]) },
      select: { id: true, scans: true },
      order: { id: 'ASC' },
    });
    expect(scans).toEqual([
      { id: own.id, scans: 2 },
      { id: ofSecond.id, scans: 1 },
      { id: othersCode.id, scans: 0 },
    ]);
    const noCode = { qr_code_id: null };
    expect(await visitsOf([link.id, second.id])).toEqual(
      stored([
        batch[0],
        { ...batch[1], ...noCode },
        { ...batch[2], ...noCode },
        { ...batch[3], ...noCode },
        { ...batch[4], ...noCode },
        batch[5],
        batch[6],
        batch[7],
        { ...batch[8], ...noCode },
      ]),
    );
    // Only the counted scans reach the qr_codes breakdown; the others are ordinary visits.
    const day = dayOf('2026-11-10');
    const qrRows = await ds.getRepository(LinkDimensionStatEntity).find({
      where: { link_id: In([link.id, second.id]), dimension: 'qr_codes' },
    });
    expect(sorted(qrRows)).toEqual(
      sorted([
        {
          link_id: link.id,
          dimension: 'qr_codes',
          day,
          value1: `${own.id}`,
          value2: '',
          value3: '',
          pageviews: 2,
        },
        {
          link_id: second.id,
          dimension: 'qr_codes',
          day,
          value1: `${ofSecond.id}`,
          value2: '',
          value3: '',
          pageviews: 1,
        },
      ]),
    );
    expect(await linkOf(link.id)).toMatchObject({ clicks: 7, bot_clicks: 1 });
  });

  describe('clicks limit', () => {
    const settingsOut = (settings: string, hasPassword: boolean) =>
      toSettingsResponse(parseLinkSettings(settings), hasPassword, APP_URL);

    it('raises link.clicks_limit_reached once, for the batch that reaches it, on either domain', async () => {
      const owner = await insertUser(ds);
      const domain = await insertDomain(ds, owner.id, {
        scheme: 'http://',
        host: `limit-${owner.id}.example.com`,
      });
      const created = new Date('2026-11-01T10:00:00.000Z');
      const main = await insertLink(ds, owner.id, {
        url: `main-${owner.id}`,
        settings: '{"clicks_limit":3}',
        clicks: 1,
        datetime: created,
      });
      const custom = await insertLink(ds, owner.id, {
        url: `custom-${owner.id}`,
        domain_id: domain.id,
        location_url: 'https://example.org/custom',
        settings: '{"name":"Custom","clicks_limit":3}',
        password_hash: 'hash',
        clicks: 1,
        start_date: new Date('2026-10-01T00:00:00.000Z'),
        datetime: created,
        last_datetime: new Date('2026-11-05T00:00:00.000Z'),
        preview_title: 'A title',
        preview_image: 'preview.jpg',
        destination_status: 'ok',
        destination_status_code: 200,
        destination_checked_datetime: new Date('2026-11-20T08:30:00.000Z'),
      });
      const roomy = await insertLink(ds, owner.id, {
        url: `roomy-${owner.id}`,
        settings: '{"clicks_limit":10}',
      });
      const unlimited = await insertLink(ds, owner.id, { url: `free-${owner.id}` });
      const reached = await insertLink(ds, owner.id, {
        url: `reached-${owner.id}`,
        settings: '{"clicks_limit":2}',
        clicks: 2,
      });

      const before = new Date();
      const first = await s.sut.writeBatch([
        visit(main.id),
        visit(main.id, { bot: 'curl' }),
        visit(main.id),
        visit(custom.id),
        visit(custom.id),
        visit(roomy.id),
        visit(unlimited.id),
        visit(reached.id),
      ]);
      const after = new Date();

      expect(first).toEqual({
        written: 8,
        limitedLinks: [
          { domainId: 0, alias: main.url },
          { domainId: domain.id, alias: custom.url },
          { domainId: 0, alias: roomy.url },
        ],
        limitsReached: 2,
      });
      const events = await eventsOf(owner.id);
      expect(events).toEqual([
        {
          id: expect.any(Number) as number,
          uid: expect.stringMatching(/^evt_[A-Za-z0-9_-]{22}$/) as string,
          event: 'link.clicks_limit_reached',
          owner_id: owner.id,
          data: expect.any(String) as string,
          handler_ids: null,
          created_at: expect.any(Date) as Date,
          dispatched_at: null,
        },
        expect.objectContaining({ event: 'link.clicks_limit_reached', owner_id: owner.id }),
      ]);
      for (const e of events) {
        expect(e.created_at.getTime()).toBeGreaterThanOrEqual(before.getTime() - 1);
        expect(e.created_at.getTime()).toBeLessThanOrEqual(after.getTime() + 1);
      }
      // In the links' id order, on both dialects.
      const payloads = events.map((e) => JSON.parse(e.data) as { id: number });
      expect(payloads).toEqual([
        {
          id: main.id,
          type: 'link',
          url: main.url,
          location_url: 'https://example.org/',
          full_url: `${APP_URL}/${main.url}`,
          domain_id: 0,
          project_id: null,
          splash_page_id: null,
          settings: settingsOut('{"clicks_limit":3}', false),
          clicks: 3,
          bot_clicks: 1,
          is_enabled: true,
          start_date: null,
          end_date: null,
          last_datetime: null,
          datetime: formatDateTime(created),
          preview_title: null,
          preview_description: null,
          preview_image_url: null,
          destination_status: 'unknown',
          destination_status_code: null,
          destination_checked_datetime: null,
        },
        {
          id: custom.id,
          type: 'link',
          url: custom.url,
          location_url: 'https://example.org/custom',
          full_url: `http://limit-${owner.id}.example.com/${custom.url}`,
          domain_id: domain.id,
          project_id: null,
          splash_page_id: null,
          settings: settingsOut('{"name":"Custom","clicks_limit":3}', true),
          clicks: 3,
          bot_clicks: 0,
          is_enabled: true,
          start_date: '2026-10-01 00:00:00',
          end_date: null,
          last_datetime: '2026-11-05 00:00:00',
          datetime: formatDateTime(created),
          // The whole row, as the other link events carry it.
          preview_title: 'A title',
          preview_description: null,
          preview_image_url: `${APP_URL}/uploads/previews/preview.jpg`,
          destination_status: 'ok',
          destination_status_code: 200,
          destination_checked_datetime: '2026-11-20 08:30:00',
        },
      ]);

      // Past the limit: counted, but neither raised again nor listed as below it.
      expect(await s.sut.writeBatch([visit(main.id), visit(custom.id)])).toEqual({
        written: 2,
        limitedLinks: [],
        limitsReached: 0,
      });
      expect(await eventsOf(owner.id)).toHaveLength(2);
      expect(await linkOf(main.id)).toMatchObject({ clicks: 4, bot_clicks: 1 });
      expect(await linkOf(custom.id)).toMatchObject({ clicks: 4, bot_clicks: 0 });
    });

    it('does not count bots toward the limit, and lists no link only bots visited', async () => {
      const owner = await insertUser(ds);
      const link = await insertLink(ds, owner.id, {
        url: `bots-${owner.id}`,
        settings: '{"clicks_limit":3}',
        clicks: 2,
      });
      const bots = [visit(link.id, { bot: 'curl' }), visit(link.id, { bot: 'HEAD' })];
      expect(await s.sut.writeBatch([...bots, visit(link.id, { bot: 'curl' })])).toEqual({
        written: 3,
        limitedLinks: [],
        limitsReached: 0,
      });
      expect(await linkOf(link.id)).toMatchObject({ clicks: 2, bot_clicks: 3 });
      expect(await eventsOf(owner.id)).toEqual([]);

      expect(await s.sut.writeBatch([visit(link.id), visit(link.id, { bot: 'curl' })])).toEqual({
        written: 2,
        limitedLinks: [{ domainId: 0, alias: link.url }],
        limitsReached: 1,
      });
      expect(await linkOf(link.id)).toMatchObject({ clicks: 3, bot_clicks: 4 });
      const events = await eventsOf(owner.id);
      expect(events.map((e) => [e.event, (JSON.parse(e.data) as { id: number }).id])).toEqual([
        ['link.clicks_limit_reached', link.id],
      ]);
    });

    it('lists the links below their limit before the batch, in id order', async () => {
      const owner = await insertUser(ds);
      const first = await insertLink(ds, owner.id, {
        url: `l1-${owner.id}`,
        settings: '{"clicks_limit":5}',
      });
      const second = await insertLink(ds, owner.id, {
        url: `l2-${owner.id}`,
        settings: '{"clicks_limit":5}',
      });
      // In the links' id order on both dialects, whatever the batch's.
      expect(await s.sut.writeBatch([visit(second.id), visit(first.id)])).toEqual({
        written: 2,
        limitedLinks: [
          { domainId: 0, alias: first.url },
          { domainId: 0, alias: second.url },
        ],
        limitsReached: 0,
      });
    });
  });

  it("adds a batch to the roll-ups: quarters of visitors, the owner's local days, closed months", async () => {
    // October 2026 closed (months since January 1970), November open: month rows only for October.
    const october = (2026 - 1970) * 12 + 9;
    await ds.query(`UPDATE "stats_closed_months" SET "months_closed_through" = ${october}`);
    const owner = await insertUser(ds, { timezone: 'America/New_York' });
    const a = await insertLink(ds, owner.id, { url: `ra-${owner.id}` });
    const b = await insertLink(ds, owner.id, { url: `rb-${owner.id}` });
    const inBoston = { country_code: 'US', city_name: 'Boston' };

    await s.sut.writeBatch([
      // 22:00 and 22:10 on 9 November in New York, one quarter hour in UTC.
      visit(a.id, { datetime: new Date('2026-11-10T03:00:00.000Z'), ...inBoston }),
      visit(a.id, {
        datetime: new Date('2026-11-10T03:10:00.000Z'),
        ...inBoston,
        is_unique: false,
      }),
      visit(a.id, { datetime: new Date('2026-11-10T12:00:00.000Z') }),
      visit(b.id, { datetime: new Date('2026-11-10T12:05:00.000Z') }),
      visit(b.id, { datetime: new Date('2026-11-10T12:05:00.000Z'), bot: 'curl' }),
      visit(b.id, { datetime: new Date('2026-11-10T12:06:00.000Z'), bot: 'curl' }),
      visit(a.id, { datetime: new Date('2026-10-15T12:00:00.000Z') }),
    ]);
    // A second batch adds to the rows the first wrote.
    await s.sut.writeBatch([visit(a.id, { datetime: new Date('2026-11-10T12:01:00.000Z') })]);

    const links = { link_id: In([a.id, b.id]) };
    const user = { user_id: owner.id };
    expect(sorted(await ds.getRepository(LinkQuarterStatEntity).findBy(links))).toEqual(
      sorted([
        { link_id: a.id, bucket: bucketOf('2026-11-10T03:00:00Z'), pageviews: 2, visitors: 1 },
        { link_id: a.id, bucket: bucketOf('2026-11-10T12:00:00Z'), pageviews: 2, visitors: 2 },
        { link_id: a.id, bucket: bucketOf('2026-10-15T12:00:00Z'), pageviews: 1, visitors: 1 },
        { link_id: b.id, bucket: bucketOf('2026-11-10T12:00:00Z'), pageviews: 1, visitors: 1 },
      ]),
    );
    expect(sorted(await ds.getRepository(UserQuarterStatEntity).findBy(user))).toEqual(
      sorted([
        { user_id: owner.id, bucket: bucketOf('2026-11-10T03:00:00Z'), pageviews: 2, visitors: 1 },
        { user_id: owner.id, bucket: bucketOf('2026-11-10T12:00:00Z'), pageviews: 3, visitors: 3 },
        { user_id: owner.id, bucket: bucketOf('2026-10-15T12:00:00Z'), pageviews: 1, visitors: 1 },
      ]),
    );

    const [nov9, nov10, oct15] = [dayOf('2026-11-09'), dayOf('2026-11-10'), dayOf('2026-10-15')];
    const curl = (scope: Record<string, number>) => ({
      ...scope,
      dimension: 'bots',
      day: nov10,
      value1: 'curl',
      value2: '',
      value3: '',
      pageviews: 2,
    });
    expect(sorted(await ds.getRepository(LinkDimensionStatEntity).findBy(links))).toEqual(
      sorted([
        ...visitorRows({ link_id: a.id }, { day: nov9 }, 2, 'US', 'Boston'),
        ...visitorRows({ link_id: a.id }, { day: nov10 }, 2),
        ...visitorRows({ link_id: a.id }, { day: oct15 }, 1),
        ...visitorRows({ link_id: b.id }, { day: nov10 }, 1),
        curl({ link_id: b.id }),
      ]),
    );
    expect(sorted(await ds.getRepository(UserDimensionStatEntity).findBy(user))).toEqual(
      sorted([
        ...visitorRows({ user_id: owner.id }, { day: nov9 }, 2, 'US', 'Boston'),
        ...visitorRows({ user_id: owner.id }, { day: nov10 }, 3),
        ...visitorRows({ user_id: owner.id }, { day: oct15 }, 1),
        curl({ user_id: owner.id }),
      ]),
    );
    expect(sorted(await ds.getRepository(LinkDimensionMonthStatEntity).findBy(links))).toEqual(
      sorted(visitorRows({ link_id: a.id }, { month: october }, 1)),
    );
    expect(sorted(await ds.getRepository(UserDimensionMonthStatEntity).findBy(user))).toEqual(
      sorted(visitorRows({ user_id: owner.id }, { month: october }, 1)),
    );
  });

  it('writes nothing for a batch of no visits', async () => {
    expect(await s.sut.writeBatch([])).toEqual({ written: 0, limitedLinks: [], limitsReached: 0 });
  });

  it('writes nothing of a batch when one of its visits cannot be written', async () => {
    const owner = await insertUser(ds);
    const link = await insertLink(ds, owner.id, {
      url: `atomic-${owner.id}`,
      settings: '{"clicks_limit":3}',
      clicks: 2,
    });
    const code = await insertQrCode(owner.id, link.id);
    const linkBefore = await linkOf(link.id);
    const broken = visit(link.id, { visitor_hash: null as unknown as string });

    await expect(
      s.sut.writeBatch([visit(link.id, { qr_code_id: code.id }), visit(link.id), broken]),
    ).rejects.toThrow(/NOT NULL|null value/i);

    expect(await linkOf(link.id)).toEqual(linkBefore);
    expect(await ds.getRepository(QrCodeEntity).findOneByOrFail({ id: code.id })).toMatchObject({
      scans: 0,
    });
    expect(await visitsOf([link.id])).toEqual([]);
    expect(await eventsOf(owner.id)).toEqual([]);
    expect(await ds.getRepository(LinkQuarterStatEntity).countBy({ link_id: link.id })).toBe(0);
    expect(await ds.getRepository(UserDimensionStatEntity).countBy({ user_id: owner.id })).toBe(0);

    // The writer goes on: the same batch without the broken visit is written whole.
    const fine = [visit(link.id, { qr_code_id: code.id }), visit(link.id)];
    expect(await s.sut.writeBatch(fine)).toEqual({
      written: 2,
      limitedLinks: [{ domainId: 0, alias: link.url }],
      limitsReached: 1,
    });
    expect(await visitsOf([link.id])).toEqual(stored(fine));
    expect(await eventsOf(owner.id)).toHaveLength(1);
  });
});
