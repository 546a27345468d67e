import { createServer } from 'node:http';
import type { AddressInfo } from 'node:net';
import { Client } from 'pg';
import { FLUSH_INTERVAL_MS } from '@app/analytics';
import {
  BUILT,
  freePort,
  requireBuilt,
  startBuilt,
  startRedisServer,
  startS3Server,
  StartedProcess,
  stopStarted,
  TestRedisServer,
  TestS3Server,
  waitFor,
  writeZip,
} from '@app/testing';

const PG = process.env.CLUSTER_DATABASE_URL ?? 'postgres://postgres@127.0.0.1:5432/test';
const FIREFOX = 'Mozilla/5.0 (X11; Linux x86_64; rv:133.0) Gecko/20100101 Firefox/133.0';
const RATE_LIMIT = 40;
const METRICS_TOKEN = 'cluster-metrics-token';

async function sql<T>(query: string, url: string): Promise<T[]> {
  const client = new Client({ connectionString: url });
  await client.connect();
  try {
    return (await client.query(query)).rows as T[];
  } finally {
    await client.end();
  }
}

/**
 * Two API instances (WORKER=external) and one worker, built, on one PostgreSQL schema, one Redis
 * and one s3rver bucket, as several instances behind a load balancer would run.
 */
describe('A cluster of two instances and a worker', () => {
  const schema = `cluster_${process.pid}`;
  const dbUrl = `${PG}${PG.includes('?') ? '&' : '?'}options=-c%20search_path%3D${schema}`;
  let s3: TestS3Server;
  let redis: TestRedisServer;
  let env: Record<string, string>;
  let a: StartedProcess;
  let b: StartedProcess;
  let portB: number;
  let metricsPortWorker: number;
  let urlA: string;
  let urlB: string;
  let key: string;

  const api = (base: string, path: string, init: RequestInit = {}, auth = key) =>
    fetch(`${base}${path}`, {
      ...init,
      headers: { Authorization: `Bearer ${auth}`, ...(init.headers ?? {}) },
    });
  const json = (body: unknown): RequestInit => ({
    method: 'POST',
    headers: { 'Content-Type': 'application/json' },
    body: JSON.stringify(body),
  });
  const visit = (base: string, path: string) =>
    fetch(`${base}${path}`, { redirect: 'manual', headers: { 'User-Agent': FIREFOX } });
  const createLink = async (body: Record<string, unknown>): Promise<number> => {
    const created = await api(urlA, '/v1/links', json(body));
    expect(created.status).toBe(201);
    return ((await created.json()) as { data: { id: number } }).data.id;
  };
  const recorded = async (id: number): Promise<{ visits: number; clicks: number }> => {
    const [row] = await sql<{ visits: string; clicks: number }>(
      `SELECT (SELECT COUNT(*) FROM visits WHERE link_id = ${id}) AS visits, clicks FROM links WHERE id = ${id}`,
      dbUrl,
    );
    return { visits: Number(row.visits), clicks: Number(row.clicks) };
  };
  /** One sample of a /metrics answer (0 when absent). */
  const metric = async (url: string, sample: string): Promise<number> => {
    const res = await fetch(url, { headers: { Authorization: `Bearer ${METRICS_TOKEN}` } });
    expect(res.status).toBe(200);
    const line = (await res.text()).split('\n').find((l) => l.startsWith(`${sample} `));
    return line === undefined ? 0 : Number(line.slice(sample.length + 1));
  };
  /** Each instance's flush histogram: how many flushes took at most each bucket's seconds. */
  const flushes = async (bases: string[]): Promise<Map<string, number>[]> =>
    Promise.all(
      bases.map(async (base) => {
        const res = await fetch(`${base}/metrics`, {
          headers: { Authorization: `Bearer ${METRICS_TOKEN}` },
        });
        const text = await res.text();
        const buckets = [
          ...text.matchAll(
            /^linkdock_visit_flush_duration_seconds_bucket\{le="([^"]+)"\} (\S+)$/gm,
          ),
        ];
        expect([res.status, buckets.length > 0]).toEqual([200, true]);
        return new Map(buckets.map((m) => [m[1], Number(m[2])]));
      }),
    );
  /**
   * One flush window, in ms, from the flush histograms of the instances before and after a check:
   * the recorder's interval, and the time a flush took (the slowest of those made in between, at
   * least the interval again), in which visits are counted but not yet written. See
   * docs/scaling.md.
   */
  const flushWindowMs = (before: Map<string, number>[], after: Map<string, number>[]): number => {
    let slowest = FLUSH_INTERVAL_MS / 1000;
    after.forEach((buckets, i) => {
      const made = (le: string) => (buckets.get(le) ?? 0) - (before[i].get(le) ?? 0);
      // The smallest bucket that holds every flush made in between bounds the slowest one.
      const le = [...buckets.keys()].find((bucket) => made(bucket) === made('+Inf')) ?? '+Inf';
      slowest = Math.max(slowest, le === '+Inf' ? Infinity : Number(le));
    });
    return FLUSH_INTERVAL_MS + slowest * 1000;
  };
  /** What is recorded of a link once `expected` visits are (or after 5 s, when they are not). */
  const recordedOnce = async (id: number, expected: number) => {
    let got = await recorded(id);
    for (const until = Date.now() + 5000; got.visits < expected && Date.now() < until;) {
      await new Promise((r) => setTimeout(r, 100));
      got = await recorded(id);
    }
    return got;
  };
  /** Starts B (again, after it was killed) on its port. */
  const startB = async (): Promise<void> => {
    b = startBuilt(BUILT.api, { ...env, PORT: String(portB) });
    await waitFor(() => b.output().includes('Linkdock is listening'), 30000, b.output);
  };

  /**
   * Visitors, `perInstance` on each base URL, asking for `path` until `stop()` or until `until`
   * says so of an answer; an instance that closes its port ends its visitors. Counts, by base URL,
   * the redirects (302) and everything else (other statuses and failed requests).
   */
  const load = (
    bases: string[],
    path: string,
    until: (status: number) => boolean = () => false,
    perInstance = 3,
  ) => {
    const redirects = new Map(bases.map((base) => [base, 0]));
    /** When each redirect was answered, by base URL. */
    const times = new Map(bases.map((base) => [base, [] as number[]]));
    const others = new Map(bases.map((base) => [base, 0]));
    let stopped = false;
    const visitor = async (base: string): Promise<void> => {
      while (!stopped) {
        let status: number;
        try {
          status = (await visit(base, path)).status;
        } catch {
          others.set(base, (others.get(base) ?? 0) + 1);
          return;
        }
        const counts = status === 302 ? redirects : others;
        counts.set(base, (counts.get(base) ?? 0) + 1);
        if (status === 302) times.get(base)?.push(Date.now());
        if (until(status)) return;
      }
    };
    const started = Date.now();
    const visitors = bases.flatMap((base) =>
      Array.from({ length: perInstance }, () => visitor(base)),
    );
    const sum = (m: Map<string, number>) => [...m.values()].reduce((x, y) => x + y, 0);
    return {
      redirects,
      times,
      others,
      total: () => sum(redirects),
      errors: () => sum(others),
      /** Ends the visitors; resolves with the milliseconds they ran. */
      stop: async (): Promise<number> => {
        stopped = true;
        await Promise.all(visitors);
        return Date.now() - started;
      },
      finished: async (): Promise<number> => {
        await Promise.all(visitors);
        return Date.now() - started;
      },
    };
  };

  beforeAll(async () => {
    requireBuilt(BUILT.api);
    requireBuilt(BUILT.worker);
    // A Redis of its own, which one check stops.
    redis = await startRedisServer();
    await sql(`CREATE SCHEMA ${schema}`, PG);
    s3 = await startS3Server('linkdock-cluster');
    const portA = await freePort();
    portB = await freePort();
    urlA = `http://127.0.0.1:${portA}`;
    urlB = `http://127.0.0.1:${portB}`;
    env = {
      ...s3.env,
      DATABASE_URL: dbUrl,
      REDIS_URL: redis.url,
      SECRETS_KEY: Buffer.alloc(32, 9).toString('base64'),
      WORKER: 'external',
      HOST: '127.0.0.1',
      APP_URL: urlA,
      API_RATE_LIMIT: String(RATE_LIMIT),
      METRICS_TOKEN: METRICS_TOKEN,
      // The webhook of the delivery check listens on 127.0.0.1.
      ALLOW_PRIVATE_WEBHOOKS: '1',
    };
    // A migrates and creates the admin first; B and the worker find both done.
    a = startBuilt(BUILT.api, { ...env, PORT: String(portA) });
    await waitFor(() => a.output().includes('Linkdock is listening'), 30000, a.output);
    key = /\b(ld_[A-Za-z0-9_-]{43})\b/.exec(a.output())?.[1] ?? '';
    metricsPortWorker = await freePort();
    startBuilt(BUILT.worker, { ...env, METRICS_PORT: String(metricsPortWorker) });
    await startB();
  });

  afterAll(async () => {
    await stopStarted();
    await redis?.stop();
    await s3?.close();
    await sql(`DROP SCHEMA IF EXISTS ${schema} CASCADE`, PG);
  });

  it('redirects on B a link created on A, and an update on B reaches A within 1 s', async () => {
    const created = await api(
      urlA,
      '/v1/links',
      json({ location_url: 'https://example.com/one', url: 'cluster-one' }),
    );
    expect(created.status).toBe(201);
    const id = ((await created.json()) as { data: { id: number } }).data.id;
    const onB = await visit(urlB, '/cluster-one');
    expect([onB.status, onB.headers.get('location')]).toEqual([302, 'https://example.com/one']);
    // A caches the link, then B changes it.
    expect((await visit(urlA, '/cluster-one')).headers.get('location')).toBe(
      'https://example.com/one',
    );
    const updated = await api(
      urlB,
      `/v1/links/${id}`,
      json({ location_url: 'https://example.com/two' }),
    );
    expect(updated.status).toBe(200);
    const changedAt = Date.now();
    let seen = '';
    while (Date.now() - changedAt < 1000 && seen !== 'https://example.com/two') {
      seen = (await visit(urlA, '/cluster-one')).headers.get('location') ?? '';
    }
    expect(seen).toBe('https://example.com/two');
  });

  it('serves on B a static site uploaded through A', async () => {
    const form = new FormData();
    form.set('type', 'static');
    form.set('url', 'cluster-site');
    form.set('name', 'Cluster site');
    const zip = writeZip([
      { name: 'index.html', data: '<!doctype html><h1>Shared</h1>' },
      { name: 'a.css', data: 'h1{}' },
    ]);
    form.set('file', new Blob([new Uint8Array(zip)]), 'site.zip');
    const created = await api(urlA, '/v1/links', { method: 'POST', body: form });
    expect(created.status).toBe(201);
    const page = await visit(urlB, '/cluster-site/');
    expect([page.status, await page.text()]).toEqual([200, '<!doctype html><h1>Shared</h1>']);
    const css = await visit(urlB, '/cluster-site/a.css');
    expect([css.status, css.headers.get('content-type'), await css.text()]).toEqual([
      200,
      'text/css; charset=utf-8',
      'h1{}',
    ]);
  });

  it('serves on A a QR image rendered by B', async () => {
    const form = new FormData();
    form.set('name', 'Cluster QR');
    form.set('type', 'url');
    form.set('url', 'https://example.com/qr');
    const created = await api(urlB, '/v1/qr-codes', { method: 'POST', body: form });
    expect(created.status).toBe(201);
    const id = ((await created.json()) as { data: { id: number } }).data.id;
    const got = (await (await api(urlB, `/v1/qr-codes/${id}`)).json()) as {
      data: { qr_code: string };
    };
    const path = new URL(got.data.qr_code).pathname;
    const svg = await fetch(`${urlA}${path}`);
    expect([svg.status, svg.headers.get('content-type')]).toEqual([200, 'image/svg+xml']);
    expect(await svg.text()).toMatch(/^<svg xmlns="http:\/\/www\.w3\.org\/2000\/svg"/);
  });

  it('refuses on B at once a key revoked on A, though B had it in its AuthCache', async () => {
    const made = await api(
      urlA,
      '/v1/api-keys',
      json({ name: 'Revoked elsewhere', scope: 'full' }),
    );
    expect(made.status).toBe(201);
    const { id, api_key: second } = (
      (await made.json()) as { data: { id: number; api_key: string } }
    ).data;
    // B authenticates the key once and from then on answers it from its cache.
    expect((await api(urlB, '/v1/user', {}, second)).status).toBe(200);
    expect((await api(urlB, '/v1/user', {}, second)).status).toBe(200);

    const revoked = await api(urlA, `/v1/api-keys/${id}`, { method: 'DELETE' });
    expect(revoked.status).toBe(200);
    // The drop travels by Redis pub/sub: within 1 s, far less than the cache's 30 s.
    const revokedAt = Date.now();
    let status = 200;
    while (Date.now() - revokedAt < 1000 && status === 200) {
      status = (await api(urlB, '/v1/user', {}, second)).status;
    }
    expect(status).toBe(401);
  });

  it('shares one rate-limit budget between A and B', async () => {
    const created = await api(urlA, '/v1/api-keys', json({ name: 'Budget', scope: 'full' }));
    expect(created.status).toBe(201);
    const budget = ((await created.json()) as { data: { api_key: string } }).data.api_key;
    const statuses: number[] = [];
    for (let i = 0; i < 25; i += 1) {
      statuses.push((await api(urlA, '/v1/user', {}, budget)).status);
      statuses.push((await api(urlB, '/v1/user', {}, budget)).status);
    }
    expect([
      statuses.filter((s) => s === 200).length,
      statuses.filter((s) => s === 429).length,
    ]).toEqual([RATE_LIMIT, 50 - RATE_LIMIT]);
  });

  it('delivers through the worker an event raised on B, as A and the worker show in /metrics', async () => {
    const received: string[] = [];
    const receiver = createServer((req, res) => {
      received.push(req.headers['webhook-id'] as string);
      req.resume();
      req.on('end', () => res.end('ok'));
    });
    await new Promise<void>((done) => receiver.listen(0, '127.0.0.1', done));
    let handlerId = 0;
    try {
      const webhook = `http://127.0.0.1:${(receiver.address() as AddressInfo).port}/hook`;
      const handler = await api(
        urlA,
        '/v1/notification-handlers',
        json({ name: 'Cluster hook', type: 'webhook', webhook, events: ['link.created'] }),
      );
      expect(handler.status).toBe(201);
      handlerId = ((await handler.json()) as { data: { id: number } }).data.id;
      const worker = `http://127.0.0.1:${metricsPortWorker}/metrics`;
      const delivered = 'linkdock_delivery_attempts_total{result="delivered"}';
      expect(await metric(worker, delivered)).toBe(0);
      const created = await api(
        urlB,
        '/v1/links',
        json({ location_url: 'https://example.com/', url: 'cluster-event' }),
      );
      expect(created.status).toBe(201);
      await waitFor(() => received.length > 0, 10000);
      let count = 0;
      for (const until = Date.now() + 5000; count === 0 && Date.now() < until;) {
        count = await metric(worker, delivered);
      }
      expect([received.length, count]).toEqual([1, 1]);
      expect([
        await metric(`${urlA}/metrics`, 'linkdock_outbox_events_pending'),
        await metric(`${urlA}/metrics`, 'linkdock_deliveries_pending'),
        await metric(`${urlA}/metrics`, delivered),
      ]).toEqual([0, 0, 0]);
    } finally {
      // The links the next checks create are not for it.
      if (handlerId !== 0) {
        await api(urlA, `/v1/notification-handlers/${handlerId}`, json({ is_enabled: false }));
      }
      await new Promise<void>((done) => receiver.close(() => done()));
    }
  });

  it('overshoots a clicks limit hit on A and B at once by at most one flush window of visits', async () => {
    const limit = 600;
    const id = await createLink({
      location_url: 'https://example.com/',
      url: 'cluster-limit',
      clicks_limit: limit,
    });
    const before = await flushes([urlA, urlB]);
    // Each visitor goes on until the link answers it as expired (404).
    const visitors = load([urlA, urlB], '/cluster-limit', (status) => status === 404, 4);
    const ms = await visitors.finished();
    const served = visitors.total();
    const notFound = visitors.errors();
    // What both served in one flush window at the rate they served the link.
    const window = flushWindowMs(before, await flushes([urlA, urlB]));
    const bound = Math.ceil((served / ms) * window);
    console.log(
      `cluster: clicks limit ${limit}: ${served} redirects served (A ${visitors.redirects.get(urlA)}, B ${visitors.redirects.get(urlB)}) in ${ms} ms, overshoot ${served - limit}, bound ${bound} (${window} ms at ${Math.round((served / ms) * 1000)}/s)`,
    );
    expect(notFound).toBe(8);
    expect(served).toBeGreaterThanOrEqual(limit);
    expect(served - limit).toBeLessThanOrEqual(bound);
    // Every redirect served is a visit: the limit is enforced on what was written.
    expect(await recordedOnce(id, served)).toEqual({ visits: served, clicks: served });
  });

  it('keeps redirecting while Redis is down for 5 s, and clears stale caches when it returns', async () => {
    const id = await createLink({
      location_url: 'https://example.com/before',
      url: 'cluster-redis',
    });
    let probes = 0;
    const location = async (base: string) => {
      const res = await visit(base, '/cluster-redis');
      if (res.status === 302) probes += 1;
      return res.headers.get('location');
    };
    const visitors = load([urlA, urlB], '/cluster-redis');
    await waitFor(() => visitors.total() >= 100, 30000);
    await redis.stop();
    const atStop = visitors.total();
    // Once B knows (its health check fails), it cannot publish the change below.
    for (let status = 200; status === 200;) {
      status = (await fetch(`${urlB}/health`)).status;
    }
    // Changed on B while Redis is down: A is not told (its cache keeps the old destination).
    const updated = await api(
      urlB,
      `/v1/links/${id}`,
      json({ location_url: 'https://example.com/during' }),
    );
    expect(updated.status).toBe(200);
    await new Promise((r) => setTimeout(r, 5000));
    const duringOutage = visitors.total() - atStop;
    expect(await location(urlA)).toBe('https://example.com/before');
    await redis.start();
    // Back: each instance drops what it cached, as it may have missed changes.
    let seen: string | null = null;
    for (
      const until = Date.now() + 10000;
      seen !== 'https://example.com/during' && Date.now() < until;
    ) {
      await new Promise((r) => setTimeout(r, 100));
      seen = await location(urlA);
    }
    expect(seen).toBe('https://example.com/during');
    await visitors.stop();
    const served = visitors.total();
    console.log(
      `cluster: Redis down 5 s under load: ${duringOutage} redirects served meanwhile, ${visitors.errors()} errors; ${served} served in all`,
    );
    expect([visitors.errors(), duringOutage > 0]).toEqual([0, true]);
    // Pub/sub works again: a change on B reaches A's cache within 1 s.
    expect(
      (await api(urlB, `/v1/links/${id}`, json({ location_url: 'https://example.com/after' })))
        .status,
    ).toBe(200);
    const changedAt = Date.now();
    while (Date.now() - changedAt < 1000 && seen !== 'https://example.com/after') {
      seen = await location(urlA);
    }
    expect(seen).toBe('https://example.com/after');
    // And no visit was lost on the way.
    const expected = visitors.total() + probes;
    expect(await recordedOnce(id, expected)).toEqual({ visits: expected, clicks: expected });
  });

  it('loses at most one flush window of visits of an instance killed (SIGKILL) under load', async () => {
    // One link per instance, so that what each recorded can be told apart.
    const idA = await createLink({ location_url: 'https://example.com/', url: 'cluster-kill-a' });
    const idB = await createLink({ location_url: 'https://example.com/', url: 'cluster-kill-b' });
    const before = await flushes([urlB]);
    const onA = load([urlA], '/cluster-kill-a');
    const onB = load([urlB], '/cluster-kill-b');
    try {
      // Until B has written them twice (flushes behind it) and served a few hundred.
      for (let writes = 0, written = 0; writes < 2 || onB.total() < 500;) {
        await new Promise((r) => setTimeout(r, 20));
        const now = (await recorded(idB)).visits;
        if (now !== written) [writes, written] = [writes + 1, now];
      }
      const window = flushWindowMs(before, await flushes([urlB]));
      b.child.kill('SIGKILL');
      const killedAt = Date.now();
      await b.exited;
      await onB.finished();
      await onA.stop();
      const [servedA, servedB] = [onA.total(), onB.total()];
      const gotA = await recordedOnce(idA, servedA);
      const gotB = await recorded(idB);
      const lost = servedB - gotB.visits;
      // What B served in its last flush window before it was killed.
      const bound = (onB.times.get(urlB) ?? []).filter((at) => at >= killedAt - window).length;
      console.log(
        `cluster: SIGKILL under load: B served ${servedB} redirects and recorded ${gotB.visits}: ${lost} visits lost; B served ${bound} in the last flush window (${window} ms) before the kill; A served ${servedA}, recorded ${gotA.visits}`,
      );
      expect(gotA).toEqual({ visits: servedA, clicks: servedA });
      expect(gotB.clicks).toBe(gotB.visits);
      expect(lost).toBeGreaterThanOrEqual(0);
      expect(lost).toBeLessThanOrEqual(bound);
    } finally {
      await onA.stop();
      if (b.child.exitCode !== null || b.child.signalCode !== null) await startB();
    }
  });

  it('writes every redirect both served when both get SIGTERM under load', async () => {
    const created = await api(
      urlA,
      '/v1/links',
      json({ location_url: 'https://example.com/', url: 'cluster-load' }),
    );
    expect(created.status).toBe(201);
    const id = ((await created.json()) as { data: { id: number } }).data.id;
    let answered = 0;
    let stop = false;
    const visitor = async (base: string): Promise<void> => {
      while (!stop) {
        try {
          if ((await visit(base, '/cluster-load')).status === 302) answered += 1;
        } catch {
          return; // the instance has closed its port
        }
      }
    };
    const visitors = [urlA, urlB, urlA, urlB, urlA, urlB].map((base) => visitor(base));
    await waitFor(() => answered >= 300, 30000);
    a.child.kill('SIGTERM');
    b.child.kill('SIGTERM');
    const exits = await Promise.all([a.exited, b.exited]);
    stop = true;
    await Promise.all(visitors);
    expect(exits.map((e) => e.code)).toEqual([0, 0]);
    const [row] = await sql<{ n: string }>(
      `SELECT COUNT(*) AS n FROM visits WHERE link_id = ${id}`,
      dbUrl,
    );
    const [link] = await sql<{ clicks: number }>(
      `SELECT clicks FROM links WHERE id = ${id}`,
      dbUrl,
    );
    console.log(`cluster: ${answered} redirects answered, ${row.n} visits recorded`);
    expect([Number(row.n), Number(link.clicks)]).toEqual([answered, answered]);
  });
});
