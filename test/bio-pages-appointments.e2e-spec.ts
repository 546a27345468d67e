import { createTestApp, TestApp, TestUser } from '@app/testing';
import { badSlotsFromPage } from '../apps/api/src/visitor/pages/visitor-pages';

const CHROME =
  'Mozilla/5.0 (X11; Linux x86_64) AppleWebKit/537.36 (KHTML, like Gecko) Chrome/130.0 Safari/537.36';
/** The most the page allows: 1-minute slots all day, every day, 90 days ahead. */
const WORST = {
  type: 'appointment_calendar',
  timezone: 'Europe/Paris',
  days: ['mon', 'tue', 'wed', 'thu', 'fri', 'sat', 'sun'],
  start_time: '00:00',
  end_time: '23:59',
  duration_value: 1,
  duration_type: 'minutes',
  max_days_ahead: 90,
  min_notice_minutes: 0,
  description: 'x'.repeat(1000),
};
const sleep = (ms: number) => new Promise((resolve) => setTimeout(resolve, ms));

/** Appointment pages cost a bounded amount per view, whatever their owner configured. */
describe('Bio pages with appointments, bounded', () => {
  let t: TestApp;
  let owner: TestUser;
  let worstPage: number;
  const worstBlocks: number[] = [];

  beforeAll(async () => {
    t = await createTestApp();
    owner = await t.createUser();
    worstPage = await page('appt-worst');
    for (let i = 0; i < 100; i++) {
      worstBlocks.push(await block({ link_id: worstPage, ...WORST }));
    }
  }, 120_000);
  afterAll(() => t?.close());

  async function page(alias: string): Promise<number> {
    const res = await t.http
      .post('/v1/links')
      .set('Authorization', owner.auth)
      .send({ type: 'biolink', url: alias });
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
  const slotsIn = (html: string) =>
    [...html.matchAll(/name="slot" value="(\d+)"/g)].map((m) => Number(m[1]));

  /** The part of the page that is block `id`'s form. */
  function formOf(html: string, id: number): string {
    const mine = html.indexOf(`id="b${id}"`);
    return html.slice(mine, html.indexOf('</form>', mine));
  }

  function book(alias: string, id: number, token: string, slot: number, name: string) {
    return t.http
      .post(`/${alias}/b/${id}`)
      .set('User-Agent', CHROME)
      .type('form')
      .send({ token, slot: String(slot), name, email: `${name.toLowerCase()}@example.com` })
      .redirects(0);
  }

  it('keeps /health answering while 8 visitors view the worst page the caps allow', async () => {
    const probes: number[] = [];
    let viewing = true;
    const probing = (async () => {
      while (viewing) {
        const started = Date.now();
        const res = await t.http.get('/health');
        probes.push(Date.now() - started);
        expect(res.status).toBe(200);
        await sleep(50);
      }
    })();
    await sleep(100);
    const statuses: number[] = [];
    let size = 0;
    // The first round finds nothing cached; the last asks each view for another later window.
    const day = 86_400_000;
    for (let round = 0; round < 4; round++) {
      const views = await Promise.all(
        Array.from({ length: 8 }, (_, i) =>
          view(
            round < 3
              ? '/appt-worst'
              : `/appt-worst/b/${worstBlocks[i]}?slots_from=${Date.now() + (i + 1) * day}`,
          ),
        ),
      );
      statuses.push(...views.map((v) => v.status));
      size = Math.max(size, ...views.map((v) => Buffer.byteLength(v.text)));
    }
    viewing = false;
    await probing;
    expect(statuses).toEqual(Array(32).fill(200));
    expect(probes.length).toBeGreaterThan(1);
    // Seconds against milliseconds: before the bounds, /health waited 5.6 s and the views did not
    // finish in 180 s; alone it now peaks under 250 ms, and 2 s leaves room for CI, where the QR
    // grid's unit tests take the other core meanwhile (1,062 ms seen there once).
    expect(Math.max(...probes)).toBeLessThan(2_000);
    // 100 blocks, 10 slots each (1,000 on the page), and each block's own text.
    expect(size).toBeLessThan(1_000_000);
  }, 180_000);

  it('refuses a 101st block on a page with 400 too_many_blocks', async () => {
    const res = await t.http
      .post('/v1/biolink-blocks')
      .set('Authorization', owner.auth)
      .send({ link_id: worstPage, type: 'heading', text: 'One too many' });
    expect(res.status).toBe(400);
    expect(res.body).toEqual({
      errors: [
        {
          status: 400,
          title: 'A bio page can have at most 100 blocks; this one has 100.',
          field: 'link_id',
          code: 'too_many_blocks',
        },
      ],
    });
  });

  it('shows a week at most, pages to later days, books a shown slot and a later one; booked slots go', async () => {
    const id = await block({
      link_id: await page('appt-one'),
      ...WORST,
      timezone: 'UTC',
      start_time: '09:00',
      end_time: '10:00',
      duration_value: 15,
    });
    const first = await view('/appt-one');
    expect(first.status).toBe(200);
    const shown = slotsIn(first.text);
    // 4 slots a day, today (what is left of it) and the next 6 days: never more than a week.
    expect(shown.length).toBeGreaterThanOrEqual(24);
    expect(shown.length).toBeLessThanOrEqual(28);
    expect(Math.max(...shown) - Date.now()).toBeLessThan(7 * 86_400_000);
    const later = new RegExp(`href="/appt-one/b/${id}\\?slots_from=(\\d+)">Later times</a>`);
    const next = Number(later.exec(first.text)![1]);
    const nextPage = await view(`/appt-one/b/${id}?slots_from=${next}`);
    expect(nextPage.status).toBe(200);
    expect(slotsIn(nextPage.text)[0]).toBeGreaterThan(Math.max(...shown));
    expect(nextPage.text).toContain(`<a href="/appt-one#b${id}">First free times</a>`);
    const token = /name="token" value="([^"]+)"/.exec(formOf(first.text, id))![1];

    // A later day, asked for explicitly: 60 days ahead, 09:00 UTC.
    const day60 = new Date(Date.now() + 60 * 86_400_000);
    const far = Date.UTC(day60.getUTCFullYear(), day60.getUTCMonth(), day60.getUTCDate(), 9);
    const farPage = await view(`/appt-one/b/${id}?slots_from=${far}`);
    expect(farPage.status).toBe(200);
    expect(slotsIn(farPage.text).slice(0, 2)).toEqual([far, far + 15 * 60_000]);

    const nearBooking = await book('appt-one', id, token, shown[0], 'Ann');
    expect(nearBooking.status).toBe(200);
    expect(nearBooking.text).toContain('Thank you!');
    const farBooking = await book('appt-one', id, token, far, 'Bob');
    expect(farBooking.status).toBe(200);
    const again = await book('appt-one', id, token, far, 'Cy');
    expect(again.status).toBe(409);
    expect(again.text).toContain('Someone has just booked that time. Please choose another.');

    // Booked slots are gone from the page at once (the cached slots were dropped).
    const after = slotsIn((await view('/appt-one')).text);
    expect(after).not.toContain(shown[0]);
    expect(after).toContain(shown[1]);
    const farAfter = slotsIn((await view(`/appt-one/b/${id}?slots_from=${far}`)).text);
    expect(farAfter[0]).toBe(far + 15 * 60_000);

    // Beyond max_days_ahead nothing is offered, and nothing can be booked.
    const beyond = far + 40 * 86_400_000;
    expect(slotsIn((await view(`/appt-one/b/${id}?slots_from=${beyond}`)).text)).toEqual([]);
    expect((await book('appt-one', id, token, beyond, 'Dee')).status).toBe(409);
  });

  it('answers a slots_from that is not a time with a 400 page', async () => {
    const id = worstBlocks[0];
    const res = await view(`/appt-worst/b/${id}?slots_from=tomorrow`);
    expect(res.status).toBe(400);
    expect(res.text).toBe(badSlotsFromPage('appt-worst'));
    expect(res.text).toContain('slots_from must be a time in milliseconds since 1970');
  });
});
