import { VisitWriter } from '@app/analytics';
import type { NewVisit } from '@app/database';
import { createTestApp, newVisit, TestApp, TestUser } from '@app/testing';
import { VisitsRetentionJob } from '../apps/worker/src/jobs/visits-retention.job';

const DAY_MS = 86_400_000;

function visitsOf(linkId: number, at: number, n: number): NewVisit[] {
  return Array.from({ length: n }, () =>
    newVisit(linkId, new Date(at), { visitor_hash: '1'.repeat(32) }),
  );
}

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
    const visits = (days: number, n: number): NewVisit[] => visitsOf(id, now - days * DAY_MS, n);
    const writer = t.app.get(VisitWriter);
    await writer.recordBatch(visits(45, 7));
    await writer.recordBatch(visits(31, 5));
    await writer.recordBatch(visits(2, 3));

    expect(await t.app.get(VisitsRetentionJob).prune()).toBe(12);
    const left: Array<{ n: unknown }> = await t.dataSource.query(
      'SELECT COUNT(*) AS "n" FROM "visits"',
    );
    expect(Number(left[0].n)).toBe(3);
    expect(await t.app.get(VisitsRetentionJob).prune()).toBe(0);

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

  it('deletes nothing more once the worker is stopping, and the next run deletes the rest', async () => {
    const res = await t.http
      .post('/v1/links')
      .set('Authorization', user.auth)
      .send({ location_url: 'https://example.com/stop', url: 'st-stop' });
    expect(res.status).toBe(201);
    const id = (res.body as { data: { id: number } }).data.id;
    // Retention counts on ids growing with time: no newer visit of the test above before these.
    await t.dataSource.query('DELETE FROM "visits"');
    await t.app.get(VisitWriter).recordBatch(visitsOf(id, Date.now() - 40 * DAY_MS, 4));
    const job = t.app.get(VisitsRetentionJob);
    const stopping = new AbortController();
    stopping.abort();

    expect(await job.prune(stopping.signal)).toBe(0);
    expect(await job.prune(new AbortController().signal)).toBe(4);
  });
});
