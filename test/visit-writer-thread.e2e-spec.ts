import {
  InlineVisitSink,
  ThreadVisitSink,
  VISIT_SINK,
  VisitRecorder,
  VisitWriter,
} from '@app/analytics';
import { Db } from '@app/database';
import { closeAfterAll, createTestApp, currentTestDb, TestApp, TestUser } from '@app/testing';

/**
 * The visit writer thread in the whole app: visits are enriched and written there, not on the
 * thread that serves redirects, and on SQLite the API's own writes go on meanwhile (both sides
 * take turns through SqliteWriteLock instead of failing or blocking on SQLite's busy handler).
 */
describe('Visit writer thread', () => {
  let t: TestApp;
  let owner: TestUser;
  const opened = closeAfterAll();

  beforeAll(async () => {
    t = opened.add(await createTestApp({ env: { API_RATE_LIMIT: '1000000' } }));
    owner = await t.createUser();
  });

  async function createLink(url: string): Promise<number> {
    const res = await t.http
      .post('/v1/links')
      .set('Authorization', owner.auth)
      .send({ location_url: `https://example.com/${url}`, url });
    expect(res.status).toBe(201);
    return (res.body as { data: { id: number } }).data.id;
  }

  async function stored(linkIds: number[]): Promise<{ visits: number; clicks: number }> {
    const ids = linkIds.map(Number).join(', ');
    const [visits] = await t.dataSource.query<Array<{ n: number | string }>>(
      `SELECT COUNT(*) AS n FROM "visits" WHERE "link_id" IN (${ids})`,
    );
    const [clicks] = await t.dataSource.query<Array<{ n: number | string | null }>>(
      `SELECT SUM("clicks") AS n FROM "links" WHERE "id" IN (${ids})`,
    );
    return { visits: Number(visits.n), clicks: Number(clicks.n) };
  }

  it('writes counted visits in the thread, never through the app thread’s writer', async () => {
    expect(t.app.get(VISIT_SINK)).toBeInstanceOf(ThreadVisitSink);
    const id = await createLink('in-thread');
    const local = jest.spyOn(t.app.get(VisitWriter), 'writeBatch');
    const answers = await Promise.all(
      Array.from({ length: 30 }, (_, i) =>
        t.http
          .get('/in-thread')
          .set('User-Agent', `Mozilla/5.0 (X11; Linux x86_64) Firefox/${100 + i}.0`)
          .redirects(0),
      ),
    );
    expect(answers.map((a) => a.status)).toEqual(Array<number>(30).fill(302));
    await t.app.get(VisitRecorder).flushAll();
    expect(await stored([id])).toEqual({ visits: 30, clicks: 30 });
    expect(local).not.toHaveBeenCalled();
    local.mockRestore();
    const res = await t.http
      .get(`/v1/statistics/${id}?type=browser_name`)
      .set('Authorization', owner.auth);
    expect(res.status).toBe(200);
    expect(res.body.data).toEqual([{ browser_name: 'Firefox', pageviews: 30 }]);
  });

  it('keeps every API write and every visit when both arrive together', async () => {
    const ids = await Promise.all(['mix-a', 'mix-b', 'mix-c'].map((u) => createLink(u)));
    const recorder = t.app.get(VisitRecorder);
    const redirects: Promise<{ status: number }>[] = [];
    const creates: Promise<{ status: number }>[] = [];
    for (let round = 0; round < 8; round += 1) {
      for (let i = 0; i < 60; i += 1) {
        redirects.push(
          t.http
            .get(`/mix-${'abc'[i % 3]}`)
            .set('User-Agent', 'Mozilla/5.0 (Macintosh) Safari/605.1.15')
            .redirects(0),
        );
      }
      for (let i = 0; i < 5; i += 1) {
        creates.push(
          t.http
            .post('/v1/links')
            .set('Authorization', owner.auth)
            .send({ location_url: `https://example.com/new/${round}/${i}` }),
        );
      }
      // Hand the visits over while the creates are in flight.
      void recorder.flush();
      await new Promise((resolve) => setTimeout(resolve, 20));
    }
    expect((await Promise.all(redirects)).map((r) => r.status)).toEqual(
      Array<number>(480).fill(302),
    );
    expect((await Promise.all(creates)).map((r) => r.status)).toEqual(Array<number>(40).fill(201));
    await recorder.flushAll();
    expect(await stored(ids)).toEqual({ visits: 480, clicks: 480 });
    const list = await t.http
      .get('/v1/links?results_per_page=100')
      .set('Authorization', owner.auth);
    expect(list.body.meta.total).toBe(1 + 3 + 40);
  });

  if (currentTestDb() === 'sqlite') {
    it('lets an API write that read first still write while visits wait to be written', async () => {
      const id = await createLink('read-then-write');
      const recorder = t.app.get(VisitRecorder);
      // The thread is running: visits written now go straight in.
      await t.http.get('/read-then-write').set('User-Agent', 'Mozilla/5.0 Firefox/120.0');
      await recorder.flushAll();
      const db = t.app.get(Db);
      await db.write(async () => {
        const em = db.manager;
        // A read first: without the shared lock, SQLite keeps this snapshot, the thread commits
        // visits meanwhile, and the write below fails (SQLITE_BUSY: the snapshot is stale).
        await em.query(`SELECT "clicks" FROM "links" WHERE "id" = ?`, [id]);
        for (let i = 0; i < 20; i += 1) {
          await t.http.get('/read-then-write').set('User-Agent', 'Mozilla/5.0 Firefox/120.0');
        }
        const flushed = recorder.flush();
        await new Promise((resolve) => setTimeout(resolve, 100));
        await em.query(`UPDATE "links" SET "location_url" = ? WHERE "id" = ?`, [
          'https://example.com/changed',
          id,
        ]);
        // The thread waits for this write: the visits are not written yet.
        expect(await stored([id])).toEqual({ visits: 1, clicks: 1 });
        void flushed;
      });
      await recorder.flushAll();
      expect(await stored([id])).toEqual({ visits: 21, clicks: 21 });
      const [row] = await t.dataSource.query<Array<{ location_url: string }>>(
        `SELECT "location_url" FROM "links" WHERE "id" = ?`,
        [id],
      );
      expect(row.location_url).toBe('https://example.com/changed');
    });
  }

  it('writes visits on the app thread with VISIT_WRITER=inline', async () => {
    const inline = opened.add(await createTestApp({ env: { VISIT_WRITER: 'inline' } }));
    expect(inline.app.get(VISIT_SINK)).toBeInstanceOf(InlineVisitSink);
    const user = await inline.createUser();
    const created = await inline.http
      .post('/v1/links')
      .set('Authorization', user.auth)
      .send({ location_url: 'https://example.com/inline', url: 'inline' });
    expect(created.status).toBe(201);
    const local = jest.spyOn(inline.app.get(VisitWriter), 'writeBatch');
    for (let i = 0; i < 3; i += 1) {
      const res = await inline.http.get('/inline').set('User-Agent', 'Mozilla/5.0 Firefox/120.0');
      expect(res.status).toBe(302);
    }
    await inline.app.get(VisitRecorder).flushAll();
    expect(local).toHaveBeenCalledTimes(1);
    const link = await inline.http
      .get(`/v1/links/${(created.body as { data: { id: number } }).data.id}`)
      .set('Authorization', user.auth);
    expect(link.body.data.clicks).toBe(3);
  });
});
