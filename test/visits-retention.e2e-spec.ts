import { VisitWriter } from '@app/analytics';
import type { NewVisit } from '@app/database';
import { createTestApp, TestApp, TestUser } from '@app/testing';
import { VisitsRetention } from '../apps/api/src/statistics/visits-retention.service';

const DAY_MS = 86_400_000;

describe('VISITS_RETENTION_DAYS', () => {
  let t: TestApp;
  let user: TestUser;

  beforeAll(async () => {
    t = await createTestApp({ env: { VISITS_RETENTION_DAYS: '30' } });
    user = await t.createUser();
  });
  afterAll(() => t?.close());

  it('deletes raw visits older than the setting and keeps their statistics', async () => {
    const res = await t.http
      .post('/v1/links')
      .set('Authorization', user.auth)
      .send({ location_url: 'https://example.com/old', url: 'st-old' });
    expect(res.status).toBe(201);
    const id = (res.body as { data: { id: number } }).data.id;
    const now = Date.now();
    const visits = (days: number, n: number): NewVisit[] =>
      Array.from({ length: n }, () => ({
        link_id: id,
        datetime: new Date(now - days * DAY_MS),
        referrer_host: null,
        referrer_path: null,
        utm_source: null,
        utm_medium: null,
        utm_campaign: null,
        continent_code: null,
        country_code: null,
        city_name: null,
        os_name: null,
        browser_name: null,
        device_type: null,
        browser_language: null,
        is_unique: true,
        visitor_hash: '1'.repeat(32),
      }));
    const writer = t.app.get(VisitWriter);
    await writer.recordBatch(visits(45, 7));
    await writer.recordBatch(visits(31, 5));
    await writer.recordBatch(visits(2, 3));

    expect(await t.app.get(VisitsRetention).prune()).toBe(12);
    const left: Array<{ n: unknown }> = await t.dataSource.query(
      'SELECT COUNT(*) AS "n" FROM "visits"',
    );
    expect(Number(left[0].n)).toBe(3);
    expect(await t.app.get(VisitsRetention).prune()).toBe(0);

    const start = new Date(now - 60 * DAY_MS).toISOString().slice(0, 10);
    const year = await t.http
      .get(`/v1/statistics/${id}?granularity=year&start_date=${start}`)
      .set('Authorization', user.auth);
    expect(year.status).toBe(200);
    const total = (year.body as { data: Array<{ pageviews: number }> }).data.reduce(
      (sum, r) => sum + r.pageviews,
      0,
    );
    expect(total).toBe(15);
  });
});
