import { Client } from 'pg';
import {
  BUILT,
  freePort,
  requireBuilt,
  startBuilt,
  startS3Server,
  StartedProcess,
  stopStarted,
  TestS3Server,
  waitFor,
  writeZip,
} from '@app/testing';

const PG = process.env.CLUSTER_DATABASE_URL ?? 'postgres://postgres@127.0.0.1:5432/test';
const REDIS = process.env.CLUSTER_REDIS_URL ?? 'redis://127.0.0.1:6379/9';
const FIREFOX = 'Mozilla/5.0 (X11; Linux x86_64; rv:133.0) Gecko/20100101 Firefox/133.0';
const RATE_LIMIT = 40;

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
  let a: StartedProcess;
  let b: StartedProcess;
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

  beforeAll(async () => {
    requireBuilt(BUILT.api);
    requireBuilt(BUILT.worker);
    await sql(`CREATE SCHEMA ${schema}`, PG);
    s3 = await startS3Server('linkdock-cluster');
    const [portA, portB] = [await freePort(), await freePort()];
    urlA = `http://127.0.0.1:${portA}`;
    urlB = `http://127.0.0.1:${portB}`;
    const env = {
      ...s3.env,
      DATABASE_URL: dbUrl,
      REDIS_URL: REDIS,
      SECRETS_KEY: Buffer.alloc(32, 9).toString('base64'),
      WORKER: 'external',
      HOST: '127.0.0.1',
      APP_URL: urlA,
      API_RATE_LIMIT: String(RATE_LIMIT),
    };
    // A migrates and creates the admin first; B and the worker find both done.
    a = startBuilt(BUILT.api, { ...env, PORT: String(portA) });
    await waitFor(() => a.output().includes('Linkdock is listening'), 30000, a.output);
    key = /\b(ld_[A-Za-z0-9_-]{43})\b/.exec(a.output())?.[1] ?? '';
    b = startBuilt(BUILT.api, { ...env, PORT: String(portB) });
    startBuilt(BUILT.worker, env);
    await waitFor(() => b.output().includes('Linkdock is listening'), 30000, b.output);
  });

  afterAll(async () => {
    await stopStarted();
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
