import { createServer, get as httpGet } from 'node:http';
import type { AddressInfo } from 'node:net';
import { VisitRecorder } from '@app/analytics';
import { createTestApp, expectDocumented, TestApp, TestUser } from '@app/testing';
import { EventDispatcher } from '../apps/worker/src/dispatch/event-dispatcher';
import { MockHttpServer } from './support/mock-servers';

const TOKEN = 'metrics-token-0123456789';
const CHROME =
  'Mozilla/5.0 (Windows NT 10.0; Win64; x64) AppleWebKit/537.36 (KHTML, like Gecko) Chrome/131.0.0.0 Safari/537.36';

type Samples = Map<string, number>;

const NAME = '[a-zA-Z_:][a-zA-Z0-9_:]*';
const LABEL = `[a-zA-Z_][a-zA-Z0-9_]*="(?:[^"\\\\\\n]|\\\\[\\\\"n])*"`;
const SAMPLE = new RegExp(
  `^(${NAME})(\\{(?:${LABEL}(?:,${LABEL})*)?\\})? (-?[0-9.eE+-]+|[Nn]a[Nn]|[+-]?Inf)$`,
);
// Prometheus reads values with Go's ParseFloat, which takes NaN in any case (prom-client writes Nan).
const TYPES = new Set(['counter', 'gauge', 'histogram', 'summary', 'untyped']);

/**
 * A strict reading of the Prometheus text format (0.0.4): every line is a HELP, a TYPE or a
 * sample; each family is declared once, before its samples, and a sample belongs to the family
 * declared last (histograms add _bucket, _sum and _count). Throws on anything else.
 */
function parseExposition(body: string): Samples {
  const samples: Samples = new Map();
  const declared = new Map<string, string>();
  let current: { name: string; type: string } | null = null;
  expect(body.endsWith('\n')).toBe(true);
  for (const line of body.slice(0, -1).split('\n')) {
    if (line === '') continue;
    const help = new RegExp(`^# HELP (${NAME}) .*$`).exec(line);
    if (help) continue;
    const type = new RegExp(`^# TYPE (${NAME}) (\\w+)$`).exec(line);
    if (type) {
      if (!TYPES.has(type[2]) || declared.has(type[1])) throw new Error(`Bad TYPE: ${line}`);
      declared.set(type[1], type[2]);
      current = { name: type[1], type: type[2] };
      continue;
    }
    const sample = SAMPLE.exec(line);
    if (!sample || current === null) throw new Error(`Not a sample line: ${JSON.stringify(line)}`);
    const suffixes =
      current.type === 'histogram'
        ? ['_bucket', '_sum', '_count']
        : current.type === 'summary'
          ? ['', '_sum', '_count']
          : [''];
    if (!suffixes.some((s) => sample[1] === `${current!.name}${s}`)) {
      throw new Error(`${sample[1]} outside its family ${current.name}`);
    }
    const key = `${sample[1]}${sample[2] ?? ''}`;
    if (samples.has(key)) throw new Error(`Duplicate sample ${key}`);
    samples.set(key, Number(sample[3]));
  }
  return samples;
}

describe('Metrics', () => {
  let t: TestApp;
  let owner: TestUser;
  const receiver = new MockHttpServer();

  beforeAll(async () => {
    await receiver.start();
    t = await createTestApp({ env: { METRICS_TOKEN: TOKEN, ALLOW_PRIVATE_WEBHOOKS: '1' } });
    owner = await t.createUser();
  });
  afterAll(async () => {
    await t?.close();
    await receiver.stop();
  });

  async function scrape(): Promise<Samples> {
    const res = expectDocumented(
      await t.http.get('/metrics').set('Authorization', `Bearer ${TOKEN}`),
    );
    expect([res.status, res.headers['content-type']]).toEqual([
      200,
      'text/plain; version=0.0.4; charset=utf-8',
    ]);
    return parseExposition(res.text);
  }

  it('answers 401 in the error shape without the bearer token', async () => {
    for (const auth of [undefined, 'Bearer wrong-token', `Basic ${TOKEN}`, TOKEN]) {
      const req = t.http.get('/metrics');
      const res = expectDocumented(
        await (auth === undefined ? req : req.set('Authorization', auth)),
      );
      expect([res.status, res.headers['www-authenticate'], res.body]).toEqual([
        401,
        'Bearer realm="metrics"',
        {
          errors: [
            {
              status: 401,
              title: 'GET /metrics needs Authorization: Bearer <METRICS_TOKEN>.',
              code: 'unauthorized',
            },
          ],
        },
      ]);
    }
  });

  it('counts a redirect, the buffered and written visit, the flush, the cache and the API route', async () => {
    const created = await t.http
      .post('/v1/links')
      .set('Authorization', owner.auth)
      .send({ location_url: 'https://example.com/m', url: 'metrics-link' });
    expect(created.status).toBe(201);
    await t.app.get(VisitRecorder).flush();
    const before = await scrape();
    const at = (s: Samples, key: string): number => s.get(key) ?? 0;

    const first = await t.http.get('/metrics-link').set('User-Agent', CHROME).redirects(0);
    const second = await t.http.get('/metrics-link').set('User-Agent', CHROME).redirects(0);
    expect([first.status, second.status]).toEqual([302, 302]);
    const buffered = await scrape();
    expect(at(buffered, 'linkdock_redirects_total') - at(before, 'linkdock_redirects_total')).toBe(
      2,
    );
    expect(
      at(buffered, 'linkdock_visits_buffered_total') - at(before, 'linkdock_visits_buffered_total'),
    ).toBe(2);
    // The recorder's own 250 ms timer may have flushed them already; the total is checked below.
    expect(
      at(buffered, 'linkdock_visits_written_total') - at(before, 'linkdock_visits_written_total'),
    ).toBeLessThanOrEqual(2);
    expect(
      at(buffered, 'linkdock_link_cache_misses_total') -
        at(before, 'linkdock_link_cache_misses_total'),
    ).toBeGreaterThanOrEqual(1);
    expect(
      at(buffered, 'linkdock_link_cache_hits_total') - at(before, 'linkdock_link_cache_hits_total'),
    ).toBeGreaterThanOrEqual(1);

    await t.app.get(VisitRecorder).flush();
    const flushed = await scrape();
    expect(
      at(flushed, 'linkdock_visits_written_total') - at(before, 'linkdock_visits_written_total'),
    ).toBe(2);
    expect(at(flushed, 'linkdock_visits_dropped_total')).toBe(0);
    // Our flush, and any the timer ran meanwhile on a slow machine.
    expect(
      at(flushed, 'linkdock_visit_flush_duration_seconds_count') -
        at(before, 'linkdock_visit_flush_duration_seconds_count'),
    ).toBeGreaterThanOrEqual(1);
    expect(
      at(
        flushed,
        'linkdock_http_request_duration_seconds_count{method="POST",route="/v1/links",status="201"}',
      ),
    ).toBe(1);
    expect(flushed.has('nodejs_eventloop_lag_seconds')).toBe(true);
    expect(at(flushed, 'process_resident_memory_bytes')).toBeGreaterThan(0);
    expect(flushed.has('nodejs_heap_size_used_bytes')).toBe(true);
  });

  it('shows the outbox backlog and the delivery attempts by result', async () => {
    receiver.answers.set('/dead', { status: 500 });
    for (const path of ['/ok', '/dead']) {
      const res = await t.http
        .post('/v1/notification-handlers')
        .set('Authorization', owner.auth)
        .send({ name: `hook ${path}`, type: 'webhook', webhook: `${receiver.url}${path}` });
      expect(res.status).toBe(201);
    }
    const dispatcher = t.app.get(EventDispatcher);
    await dispatcher.drain();
    const at = (s: Samples, key: string): number => s.get(key) ?? 0;
    const before = await scrape();
    // Held back, so that the event the next request writes waits in the outbox.
    const wake = jest.spyOn(dispatcher, 'wake').mockImplementation(() => undefined);
    try {
      const created = await t.http
        .post('/v1/links')
        .set('Authorization', owner.auth)
        .send({ location_url: 'https://example.com/o', url: 'metrics-outbox' });
      expect(created.status).toBe(201);
      const waiting = await scrape();
      expect([
        at(waiting, 'linkdock_outbox_events_pending') -
          at(before, 'linkdock_outbox_events_pending'),
        at(waiting, 'linkdock_deliveries_pending') - at(before, 'linkdock_deliveries_pending'),
      ]).toEqual([1, 0]);
    } finally {
      wake.mockRestore();
    }
    await dispatcher.drain();
    const after = await scrape();
    const delta = (key: string) => at(after, key) - at(before, key);
    // One handler took it, the other answered 500: that delivery is due again later.
    expect([
      delta('linkdock_outbox_events_pending'),
      delta('linkdock_deliveries_pending'),
      delta('linkdock_delivery_attempts_total{result="delivered"}'),
      delta('linkdock_delivery_attempts_total{result="retrying"}'),
      delta('linkdock_delivery_attempts_total{result="failed"}'),
    ]).toEqual([0, 1, 1, 1, 0]);
    expect(after.has('linkdock_delivery_attempts_total{result="failed"}')).toBe(true);
    expect(receiver.received.map((r) => r.url).sort()).toEqual(['/dead', '/ok']);
  });

  it('is rejected by the strict reader when malformed (the reader can fail)', () => {
    expect(() => parseExposition('a 1\n')).toThrow('Not a sample line');
    expect(() => parseExposition('# TYPE a counter\na{b=c} 1\n')).toThrow('Not a sample line');
    expect(() => parseExposition('# TYPE a counter\nb 1\n')).toThrow('outside its family');
    expect(parseExposition('# HELP a x\n# TYPE a counter\na{b="c"} 2\n')).toEqual(
      new Map([['a{b="c"}', 2]]),
    );
  });
});

describe('Metrics settings', () => {
  it('serves no /metrics on the main port without METRICS_TOKEN', async () => {
    const t = await createTestApp();
    try {
      const res = await t.http.get('/metrics');
      expect(res.status).toBe(404);
    } finally {
      await t.close();
    }
  });

  it('serves /metrics on METRICS_PORT', async () => {
    const probe = createServer();
    await new Promise<void>((done) => probe.listen(0, '127.0.0.1', done));
    const port = (probe.address() as AddressInfo).port;
    await new Promise<void>((done) => probe.close(() => done()));
    const t = await createTestApp({ env: { METRICS_PORT: String(port), HOST: '127.0.0.1' } });
    try {
      const fetchPath = (path: string) =>
        new Promise<{ status: number; body: string }>((resolve, reject) => {
          httpGet({ host: '127.0.0.1', port, path }, (res) => {
            let body = '';
            res.setEncoding('utf8');
            res.on('data', (c: string) => (body += c));
            res.on('end', () => resolve({ status: res.statusCode ?? 0, body }));
          }).on('error', reject);
        });
      const metrics = await fetchPath('/metrics');
      expect(metrics.status).toBe(200);
      expect(parseExposition(metrics.body).has('linkdock_redirects_total')).toBe(true);
      expect((await fetchPath('/other')).status).toBe(404);
      expect((await t.http.get('/metrics')).status).toBe(404);
    } finally {
      await t.close();
    }
  });
});
